import { AckPolicy, DeliverPolicy, DiscardPolicy, RetentionPolicy, StorageType } from '@nats-io/jetstream'
import { Kvm } from '@nats-io/kv'
import type { AppContext, Bus } from 'userbot-gateway/plugin'
import { Sender } from '../attempt'
import { logWebhookFailure } from '../log-failure'
import type { EventRow, Outbox } from '../outbox'
import type { WebhookConfig } from '../settings'
import type { Lookup } from '../ssrf'
import { JetStreamHistory } from './history'
import {
	consumerName,
	messageIdOf,
	OUTCOMES_BUCKET,
	pairOf,
	pairSubject,
	STREAM_SUBJECTS,
	type StoredEvent,
	WEBHOOKS_STREAM,
} from './messages'
import { Outcomes } from './outcomes'
import { ACK_WAIT_MS, type DeliveryEndpoint, runPair } from './pair'

/** Duplicates (several gateways storing one event) are recognized within this time. */
const DUPLICATE_WINDOW_MS = 120_000
const nanos = (ms: number) => ms * 1_000_000

export interface JetStreamOutboxDeps {
	bus: Bus
	config: WebhookConfig
	dataKey: string
	log: AppContext['log']
	now: () => number
	random: () => number
	lookup: Lookup
	endpoint(id: number): Promise<DeliveryEndpoint | null>
	succeeded(endpointId: number): Promise<void>
	failed(endpointId: number, at: number): Promise<void>
}

/**
 * The outbox on a bus (docs/webhooks.md#the-outbox-on-a-bus): one stream, a subject and a durable
 * consumer per endpoint and userbot, outcomes in a bucket; nothing of it in the database. Every
 * gateway publishes the events it sees (their message id makes one stored event of several
 * sightings) and pulls from every pair's consumer; the consumer lets one message out at a time.
 */
export class JetStreamOutbox implements Outbox {
	readonly kind = 'jetstream'
	readonly history: JetStreamHistory
	private readonly stopping = new AbortController()
	private readonly loops = new Map<string, Promise<void>>()
	private readonly known = new Set<string>()
	private timer: ReturnType<typeof setInterval> | undefined
	private looking = false

	private constructor(
		private readonly deps: JetStreamOutboxDeps,
		private readonly outcomes: Outcomes,
	) {
		this.history = new JetStreamHistory({
			bus: deps.bus,
			outcomes,
			now: deps.now,
			publish: (events) => this.publish(events),
		})
	}

	/** Makes sure the stream and the bucket exist, with this gateway's limits. */
	static async open(deps: JetStreamOutboxDeps): Promise<JetStreamOutbox> {
		const { jsm, nc } = deps.bus
		const { jsMaxAgeMs: maxAgeMs, jsMaxBytes: maxBytes } = deps.config
		const stream = {
			name: WEBHOOKS_STREAM,
			subjects: [STREAM_SUBJECTS],
			retention: RetentionPolicy.Limits,
			storage: StorageType.File,
			max_age: nanos(maxAgeMs),
			max_bytes: maxBytes,
			// Full: new events are refused (and logged), never the waiting ones dropped.
			discard: DiscardPolicy.New,
			duplicate_window: nanos(Math.min(DUPLICATE_WINDOW_MS, maxAgeMs)),
		}
		try {
			const exists = await jsm.streams.info(WEBHOOKS_STREAM).then(
				() => true,
				() => false,
			)
			if (exists) await jsm.streams.update(WEBHOOKS_STREAM, stream)
			else await jsm.streams.add(stream).catch(() => jsm.streams.update(WEBHOOKS_STREAM, stream))
			const kv = await new Kvm(nc).create(OUTCOMES_BUCKET, { history: 1, ttl: maxAgeMs, max_bytes: maxBytes })
			return new JetStreamOutbox(deps, new Outcomes(kv, deps.bus))
		} catch (err) {
			// The server's own words go to the log; the start fails with ours.
			deps.log.error('webhooks: the JetStream outbox could not be set up', {
				error: err instanceof Error ? err.message.slice(0, 200) : String(err).slice(0, 200),
			})
			throw new Error(
				`webhooks: cannot set up the outbox on the bus (stream ${WEBHOOKS_STREAM}, bucket ${OUTCOMES_BUCKET}): check the gateway user's permissions and nats-server's JetStream storage, or set WEBHOOK_OUTBOX=database`,
			)
		}
	}

	start(): void {
		const every = Math.max(this.deps.config.pollMs * 5, 200)
		this.timer = setInterval(() => void this.discover(), every)
		void this.discover()
	}

	/** Pairs are found by listing the consumers; one stored here is started at once. */
	kick(): void {}

	async recordMany(rows: readonly EventRow[]): Promise<void> {
		const events: StoredEvent[] = []
		const dedupe: string[] = []
		for (const { event, endpointIds } of rows) {
			const messageId = await messageIdOf(event.dedupeKey)
			for (const endpointId of endpointIds) {
				events.push({
					endpoint_id: endpointId,
					company_id: event.companyId,
					userbot_id: event.userbotId,
					seq: event.seq,
					type: event.type,
					data: event.data,
					at: event.at,
					message_id: messageId,
				})
				dedupe.push(`${endpointId}:${event.dedupeKey}`)
			}
		}
		await this.publish(events, dedupe)
	}

	async close(): Promise<void> {
		clearInterval(this.timer)
		this.stopping.abort()
		await Promise.all([...this.loops.values()])
	}

	/**
	 * Publishes in the order given (one connection keeps it), each with its message id when it has
	 * one; the pairs' consumers are made first. Resolves with the stream sequences.
	 */
	private async publish(events: readonly StoredEvent[], msgIds?: readonly string[]): Promise<number[]> {
		for (const e of events) await this.ensureConsumer(e.endpoint_id, e.userbot_id)
		const { js, codec } = this.deps.bus
		const acks = events.map((e, i) => {
			const subject = pairSubject(e.endpoint_id, e.userbot_id)
			const msgID = msgIds?.[i]
			return js.publish(subject, codec.seal(subject, e), msgID === undefined ? {} : { msgID })
		})
		const stored = await Promise.all(acks)
		return stored.map((a) => a.seq)
	}

	private async ensureConsumer(endpointId: number, userbotId: number): Promise<void> {
		const name = consumerName(endpointId, userbotId)
		if (this.known.has(name)) return
		await this.deps.bus.jsm.consumers.add(WEBHOOKS_STREAM, {
			durable_name: name,
			filter_subject: pairSubject(endpointId, userbotId),
			ack_policy: AckPolicy.Explicit,
			deliver_policy: DeliverPolicy.All,
			// One message out at a time, whichever gateway pulls it: the pair's order.
			max_ack_pending: 1,
			ack_wait: nanos(ACK_WAIT_MS),
			max_deliver: -1,
		})
		this.known.add(name)
		this.follow(name)
	}

	/** Every pair's consumer, whichever gateway made it, gets a loop here. */
	private async discover(): Promise<void> {
		if (this.looking || this.stopping.signal.aborted) return
		this.looking = true
		try {
			for await (const info of this.deps.bus.jsm.consumers.list(WEBHOOKS_STREAM)) {
				this.known.add(info.name)
				this.follow(info.name)
			}
		} catch (err) {
			logWebhookFailure(this.deps.log, 'listing the webhook consumers', err)
		} finally {
			this.looking = false
		}
	}

	private follow(name: string): void {
		const pair = pairOf(name)
		if (!pair || this.loops.has(name) || this.stopping.signal.aborted) return
		const loop = runPair(this.pairDeps(), pair.endpointId, pair.userbotId)
			.catch((err: unknown) => logWebhookFailure(this.deps.log, 'webhook delivery', err))
			.finally(() => this.loops.delete(name))
		this.loops.set(name, loop)
	}

	private sender: Sender | undefined
	private pairDeps() {
		this.sender ??= new Sender(this.deps)
		return {
			...this.deps,
			sender: this.sender,
			outcomes: this.outcomes,
			stopping: this.stopping.signal,
			gone: async (endpointId: number, userbotId: number) => {
				const name = consumerName(endpointId, userbotId)
				this.known.delete(name)
				await this.deps.bus.jsm.consumers.delete(WEBHOOKS_STREAM, name).catch(() => false)
			},
		}
	}
}
