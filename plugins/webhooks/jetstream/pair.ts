import { type Consumer, JetStreamApiCodes, JetStreamApiError, type JsMsg } from '@nats-io/jetstream'
import type { AppContext, Bus } from 'userbot-gateway/plugin'
import { type AttemptResult, isDelivered, type Sender, type Target } from '../attempt'
import { nextAttemptAt } from '../backoff'
import { logWebhookFailure } from '../log-failure'
import type { WebhookConfig } from '../settings'
import { consumerName, parseEvent, type StoredEvent, type StoredOutcome, WEBHOOKS_STREAM } from './messages'
import type { Outcomes } from './outcomes'

/**
 * How long a message may stay out unanswered before the stream gives it to another puller (the
 * consumer's `ack_wait`). An attempt under way says it is still working every third of it, so this
 * bounds what a crashed gateway, or a nats-server killed before it wrote a `nak`, holds back, not
 * the attempt's timeout.
 */
export const ACK_WAIT_MS = 5_000
/** How long one pull waits for a message before the loop looks again (closing waits at most this). */
const PULL_MS = 1000
/**
 * At most this many messages of the pair per pull. `max_ack_pending: 1` still lets one out at a time:
 * the stream sends the next one to the same pull once the one before is answered, so a busy pair
 * makes no new pull (subscription, request) per message.
 */
const PULL_BATCH = 100
/** What nats-server may take past a pull's `expires` to end it. */
const PULL_END_MS = 100

/** The endpoint as a delivery needs it (its row in the database). */
export interface DeliveryEndpoint extends Target {
	companyId: number
	enabled: boolean
	failingSince: number | null
}

export interface PairDeps {
	bus: Bus
	config: WebhookConfig
	log: AppContext['log']
	now: () => number
	random: () => number
	sender: Sender
	outcomes: Outcomes
	stopping: AbortSignal
	endpoint(id: number): Promise<DeliveryEndpoint | null>
	succeeded(endpointId: number): Promise<void>
	failed(endpointId: number, at: number): Promise<void>
	/** The endpoint is gone: its consumer is deleted and this loop ends. */
	gone(endpointId: number, userbotId: number): Promise<void>
}

const pause = (ms: number, signal: AbortSignal) =>
	new Promise<void>((resolve) => {
		if (signal.aborted) return resolve()
		const timer = setTimeout(done, ms)
		function done() {
			clearTimeout(timer)
			signal.removeEventListener('abort', done)
			resolve()
		}
		signal.addEventListener('abort', done)
	})

/**
 * The deliveries of one endpoint and userbot from this gateway: pulls from the pair's durable
 * consumer, whose `max_ack_pending: 1` lets one message out at a time across every gateway (so the
 * receiver sees them in order and two gateways never send one at once), sends it, and answers the
 * stream: `ack` on 2xx, `nak` with the backoff delay otherwise (the message, still unacknowledged,
 * holds back the pair's later ones), `term` once the retry period is over (the event stays in the
 * stream, its outcome `failed` in the bucket: a dead letter). A stopping gateway `nak`s what it
 * holds, for the end of its pull: another gateway (or the next start) sends it within about 1 s.
 */
export async function runPair(deps: PairDeps, endpointId: number, userbotId: number): Promise<void> {
	const { stopping, config } = deps
	let consumer: Consumer | undefined
	/** One log line per run of failures (the bus away), not one per pull. */
	let failing = false
	while (!stopping.aborted) {
		try {
			const endpoint = await deps.endpoint(endpointId)
			if (endpoint === null) return await deps.gone(endpointId, userbotId)
			if (!endpoint.enabled) {
				await pause(config.pollMs, stopping)
				continue
			}
			consumer ??= await deps.bus.js.consumers.get(WEBHOOKS_STREAM, consumerName(endpointId, userbotId))
			const pulled = await consumer.fetch({ max_messages: PULL_BATCH, expires: PULL_MS })
			/** When the pull's first message came: nats-server ends the pull at most PULL_MS after. */
			let firstAt: number | undefined
			for await (const m of pulled) {
				firstAt ??= performance.now()
				// Read again for each message: a change of the endpoint counts within WEBHOOK_POLL.
				const current = stopping.aborted ? null : await deps.endpoint(endpointId)
				if (current === null || !current.enabled || stopping.aborted) {
					// Stopping, disabled or gone: this loop stops listening to the pull (nothing more
					// comes to it) and gives the message back for when the server has ended the pull.
					// Given back sooner, with the pull's listener gone, nats-server (2.9) sends it nowhere,
					// holds it ACK_WAIT_MS and then hands it out twice at once. The loop's top does the rest.
					pulled.stop()
					m.nak(Math.ceil(Math.max(0, firstAt + PULL_MS - performance.now()) + PULL_END_MS))
					break
				}
				await handle(deps, current, userbotId, m)
				failing = false
			}
		} catch (err) {
			if (stopping.aborted) return
			// The consumer deleted (its endpoint was, on another gateway): this loop ends.
			if (await consumerGone(deps.bus, endpointId, userbotId)) return
			// The bus away (a restart of its server): looked at again soon.
			if (!failing) logWebhookFailure(deps.log, 'pulling webhook events from JetStream', err)
			failing = true
			consumer = undefined
			await pause(Math.max(config.pollMs, 250), stopping)
		}
	}
}

/** True when the server says the pair's consumer does not exist (not when it cannot be asked). */
async function consumerGone(bus: Bus, endpointId: number, userbotId: number): Promise<boolean> {
	return bus.jsm.consumers.info(WEBHOOKS_STREAM, consumerName(endpointId, userbotId)).then(
		() => false,
		(err: unknown) => err instanceof JetStreamApiError && err.code === JetStreamApiCodes.ConsumerNotFound,
	)
}

async function handle(deps: PairDeps, endpoint: DeliveryEndpoint, userbotId: number, m: JsMsg) {
	const storedAt = m.time.getTime()
	const event = parseEvent(deps.bus.codec.open(m.subject, m.data, storedAt))
	if (!event || event.endpoint_id !== endpoint.endpointId || event.userbot_id !== userbotId) {
		// Not ours (the seal or its shape refused, or moved from another pair): never sent.
		deps.log.warn('webhook event refused from the stream', { seq: m.seq })
		m.term()
		return
	}
	const prior = m.info.deliveryCount > 1 ? await deps.outcomes.get(endpoint.endpointId, m.seq) : null
	if (prior?.status === 'delivered' || prior?.status === 'failed') {
		// Settled already; only its acknowledgement was lost (a restart between the two).
		m.term()
		return
	}
	// Still working: the stream keeps the message with this gateway while the attempt lasts.
	const working = setInterval(() => m.working(), Math.floor(ACK_WAIT_MS / 3))
	const result = await deps.sender.send(endpoint, eventOut(event), deps.stopping).finally(() => {
		clearInterval(working)
	})
	if (result === null) {
		m.nak()
		return
	}
	const attempts = (prior?.attempts ?? 0) + 1
	const first = prior?.first_at ?? result.at
	const outcome = (status: StoredOutcome['status'], nextAt: number | null): StoredOutcome => ({
		status,
		attempts,
		first_at: first,
		last_at: result.at,
		next_at: nextAt,
		code: result.code,
		body: result.body === null ? null : result.body.slice(0, 1024),
		error: result.error === null ? null : result.error.slice(0, 200),
		type: event.type,
		userbot_id: event.userbot_id,
		seq: event.seq,
		message_id: event.message_id,
		created_at: event.at,
	})
	if (isDelivered(result)) {
		await deps.outcomes.put(endpoint.endpointId, m.seq, outcome('delivered', null))
		m.ack()
		if (endpoint.failingSince !== null) await deps.succeeded(endpoint.endpointId)
		return
	}
	await settleFailure(deps, endpoint, m, result, attempts, first, outcome)
}

async function settleFailure(
	deps: PairDeps,
	endpoint: DeliveryEndpoint,
	m: JsMsg,
	result: AttemptResult,
	attempts: number,
	first: number,
	outcome: (status: StoredOutcome['status'], nextAt: number | null) => StoredOutcome,
) {
	if (result.at - first >= deps.config.retryForMs) {
		await deps.outcomes.put(endpoint.endpointId, m.seq, outcome('failed', null))
		m.term()
	} else {
		const nextAt = nextAttemptAt(attempts, result, deps.config, deps.random)
		await deps.outcomes.put(endpoint.endpointId, m.seq, outcome('pending', nextAt))
		m.nak(Math.max(0, nextAt - deps.now()))
	}
	await deps.failed(endpoint.endpointId, result.at)
}

const eventOut = (e: StoredEvent) => ({
	messageId: e.message_id,
	type: e.type,
	eventAt: e.at,
	data: e.data,
})
