import { type Consumer, DeliverPolicy } from '@nats-io/jetstream'
import type { Bus } from 'userbot-gateway/plugin'
import type { ReplayFields } from '../bodies'
import { MAX_REPLAY } from '../history'
import { TEST_EVENT } from '../kinds'
import { type DeliveryView, type OutboxHistory, type Reach, withinReach } from '../outbox'
import { endpointSubjects, pairSubject, parseEvent, type StoredEvent, WEBHOOKS_STREAM } from './messages'
import type { Outcomes } from './outcomes'

/** How long a replay's read waits for the next stored message before it takes the stream as read. */
const READ_MS = 1000
const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString())

export interface JetStreamHistoryDeps {
	bus: Bus
	outcomes: Outcomes
	now: () => number
	/** Publishes (in order) and answers the stream sequences. */
	publish(events: readonly StoredEvent[]): Promise<number[]>
}

/**
 * The listing, the test event and replays of the JetStream outbox. The listing reads the outcomes
 * bucket (an event shows there from its first attempt on); a replay reads the endpoint's events
 * back from the stream, each checked like any message of the bus, and publishes them again after
 * whatever waits, with their `webhook-id`.
 */
export class JetStreamHistory implements OutboxHistory {
	constructor(private readonly deps: JetStreamHistoryDeps) {}

	async deliveries(
		endpointId: number,
		opts: { limit: number; beforeId?: number; status?: string; reach: Reach },
	): Promise<DeliveryView[]> {
		const out: DeliveryView[] = []
		for (const seq of await this.deps.outcomes.sequences(endpointId)) {
			if (out.length >= opts.limit) break
			if (opts.beforeId !== undefined && seq >= opts.beforeId) continue
			const o = await this.deps.outcomes.get(endpointId, seq)
			if (!o || (opts.status !== undefined && o.status !== opts.status)) continue
			if (!withinReach(opts.reach, o.userbot_id)) continue
			out.push({
				id: seq,
				event_id: seq,
				message_id: o.message_id,
				type: o.type,
				userbot_id: o.userbot_id,
				seq: o.seq,
				status: o.status,
				attempts: o.attempts,
				next_attempt_at: o.status === 'pending' ? iso(o.next_at) : null,
				last_attempt_at: iso(o.last_at),
				last_response_code: o.code,
				last_response_body: o.body,
				last_error: o.error,
				created_at: iso(o.created_at),
			})
		}
		return out
	}

	async test(companyId: number, endpointId: number) {
		const messageId = `msg_${crypto.randomUUID().replaceAll('-', '')}`
		const data = JSON.stringify({ userbot_id: null, seq: 0, webhook_id: endpointId })
		const [seq] = await this.deps.publish([
			{
				endpoint_id: endpointId,
				company_id: companyId,
				userbot_id: 0,
				seq: 0,
				type: TEST_EVENT,
				data,
				at: this.deps.now(),
				message_id: messageId,
			},
		])
		return { event_id: seq ?? null, message_id: messageId }
	}

	async replay(endpointId: number, fields: ReplayFields, reach: Reach) {
		const subject =
			fields.userbotId === undefined
				? endpointSubjects(endpointId)
				: pairSubject(endpointId, fields.userbotId)
		const consumer = await this.deps.bus.js.consumers.get(WEBHOOKS_STREAM, {
			filter_subjects: subject,
			...(fields.since === undefined
				? { deliver_policy: DeliverPolicy.All }
				: { deliver_policy: DeliverPolicy.StartTime, opt_start_time: new Date(fields.since).toISOString() }),
		})
		const chosen = await this.read(consumer, endpointId, fields, reach)
		const copies = chosen.slice(0, MAX_REPLAY).map(({ event, seq }) => ({ ...event, replay_of: seq }))
		if (copies.length > 0) await this.deps.publish(copies)
		return { replayed: copies.length, truncated: chosen.length > MAX_REPLAY }
	}

	/** The endpoint's original events that match (never the copies of replays), up to one past the limit. */
	private async read(consumer: Consumer, endpointId: number, fields: ReplayFields, reach: Reach) {
		const chosen: Array<{ event: StoredEvent; seq: number }> = []
		const { codec } = this.deps.bus
		try {
			while (chosen.length <= MAX_REPLAY) {
				const m = await consumer.next({ expires: READ_MS })
				if (m === null) break
				const storedAt = m.time.getTime()
				const event = parseEvent(codec.open(m.subject, m.data, storedAt))
				const matches =
					event !== undefined &&
					event.endpoint_id === endpointId &&
					event.replay_of === undefined &&
					event.type !== TEST_EVENT &&
					withinReach(reach, event.userbot_id) &&
					(fields.afterSeq === undefined || event.seq > fields.afterSeq) &&
					(fields.since === undefined || event.at >= fields.since)
				if (event && matches) chosen.push({ event, seq: m.seq })
				if (m.info.pending === 0) break
			}
		} finally {
			await consumer.delete().catch(() => false)
		}
		return chosen
	}
}
