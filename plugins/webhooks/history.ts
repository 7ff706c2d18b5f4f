import { and, asc, desc, eq, gt, gte, inArray, lt, type SQL } from 'drizzle-orm'
import type { Database } from 'userbot-gateway/plugin'
import type { ReplayFields } from './bodies'
import { TEST_EVENT } from './kinds'
import type { Reach } from './outbox'
import type { WebhookStore } from './store'
import { webhookDelivery, webhookEvent } from './tables'

/** Events one replay may send again; more are answered with `truncated` and the last `seq`. */
export const MAX_REPLAY = 10_000
const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString())

/** An endpoint's deliveries (newest first), its test event, and replays from the stored events. */
export class History {
	constructor(
		private readonly db: Database,
		private readonly store: WebhookStore,
		private readonly now: () => number,
	) {}

	async deliveries(
		endpointId: number,
		opts: { limit: number; beforeId?: number; status?: string; reach: Reach },
	) {
		const where: SQL[] = [eq(webhookDelivery.endpointId, endpointId)]
		if (opts.reach !== null) where.push(inArray(webhookDelivery.userbotId, [0, ...opts.reach]))
		if (opts.beforeId !== undefined) where.push(lt(webhookDelivery.id, opts.beforeId))
		if (opts.status === 'pending' || opts.status === 'delivered' || opts.status === 'failed')
			where.push(eq(webhookDelivery.status, opts.status))
		const rows = await this.db
			.select({ d: webhookDelivery, type: webhookEvent.type, seq: webhookEvent.seq })
			.from(webhookDelivery)
			.innerJoin(webhookEvent, eq(webhookEvent.id, webhookDelivery.eventId))
			.where(and(...where))
			.orderBy(desc(webhookDelivery.id))
			.limit(opts.limit)
		return rows.map(({ d, type, seq }) => ({
			id: d.id,
			event_id: d.eventId,
			message_id: d.messageId,
			type,
			userbot_id: d.userbotId,
			seq,
			status: d.status,
			attempts: d.attempts,
			next_attempt_at: d.status === 'pending' ? iso(d.nextAt) : null,
			last_attempt_at: iso(d.lastAt),
			last_response_code: d.lastCode,
			last_response_body: d.lastBody,
			last_error: d.lastError,
			created_at: iso(d.createdAt),
		}))
	}

	/** A `webhook.test` event for this endpoint alone, delivered like any other. */
	async test(companyId: number, endpointId: number) {
		const at = this.now()
		const data = JSON.stringify({ userbot_id: null, seq: 0, webhook_id: endpointId })
		const eventId = await this.store.record(
			{
				companyId,
				userbotId: 0,
				seq: 0,
				type: TEST_EVENT,
				data,
				dedupeKey: `test:${crypto.randomUUID()}`,
				at,
			},
			[endpointId],
		)
		return { event_id: eventId, message_id: `msg_${eventId}` }
	}

	/**
	 * Sends again, as new pending deliveries after whatever waits, the stored events this endpoint
	 * got (delivered or failed alike) that match: after `after_seq` (per userbot), of `userbot_id`,
	 * stored since `since`, of the userbots the caller reaches. Each keeps its `webhook-id`: the
	 * receiver knows it is the same event.
	 */
	async replay(endpointId: number, fields: ReplayFields, reach: Reach) {
		const where: SQL[] = [eq(webhookDelivery.endpointId, endpointId)]
		if (reach !== null) where.push(inArray(webhookEvent.userbotId, [...reach]))
		if (fields.userbotId !== undefined) where.push(eq(webhookEvent.userbotId, fields.userbotId))
		if (fields.afterSeq !== undefined) where.push(gt(webhookEvent.seq, fields.afterSeq))
		if (fields.since !== undefined) where.push(gte(webhookEvent.createdAt, fields.since))
		const at = this.now()
		return this.db.transaction(async (tx) => {
			const events = await tx
				.selectDistinct({ id: webhookEvent.id, userbotId: webhookEvent.userbotId, type: webhookEvent.type })
				.from(webhookDelivery)
				.innerJoin(webhookEvent, eq(webhookEvent.id, webhookDelivery.eventId))
				.where(and(...where))
				.orderBy(asc(webhookEvent.id))
				.limit(MAX_REPLAY + 1)
			const chosen = events.filter((e) => e.type !== TEST_EVENT).slice(0, MAX_REPLAY)
			// In slices: SQLite bounds the parameters of one statement.
			for (let i = 0; i < chosen.length; i += 500)
				await tx.insert(webhookDelivery).values(
					chosen.slice(i, i + 500).map((e) => ({
						endpointId,
						eventId: e.id,
						userbotId: e.userbotId,
						messageId: `msg_${e.id}`,
						nextAt: at,
						createdAt: at,
					})),
				)
			return { replayed: chosen.length, truncated: events.length > MAX_REPLAY }
		})
	}
}
