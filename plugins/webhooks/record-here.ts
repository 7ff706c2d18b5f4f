import { sql } from 'drizzle-orm'
import type { Database } from 'userbot-gateway/plugin'
import type { EventCache } from './claim'
import { type DeliveryInsert, type LeaseRequest, markLeased, type Recorded } from './direct'
import type { EventRow, NewEvent } from './outbox'

/** store.ts `recordMany` on this thread, through the app's connection (no writer thread, or it is gone). */
export async function recordHere(
	db: Database,
	cache: EventCache,
	events: readonly EventRow[],
	lease?: LeaseRequest,
): Promise<Recorded> {
	const recorded: Recorded = { leased: [], waiting: false }
	const rows = events.map(({ event: e }) => [
		e.companyId,
		e.userbotId,
		e.seq,
		e.type,
		e.data,
		e.dedupeKey,
		e.at,
	])
	const committed = await db.transaction(async (tx) => {
		// In the order given (ORDER BY key): ids, and so the outbox's order, follow the events'.
		const stored = await tx.all<{ id: number; dedupe_key: string }>(sql`
			INSERT INTO webhook_event (company_id, userbot_id, seq, type, data, dedupe_key, created_at)
			SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6
			FROM json_each(${JSON.stringify(rows)}) WHERE true ORDER BY key
			ON CONFLICT DO NOTHING
			RETURNING id, dedupe_key`)
		const inserted: Array<[number, NewEvent]> = []
		if (stored.length === 0) return inserted
		const ids = new Map(stored.map((r) => [r.dedupe_key, r.id]))
		const deliveries: DeliveryInsert[] = []
		for (const { event: e, endpointIds } of events) {
			const id = ids.get(e.dedupeKey)
			if (id === undefined) continue
			// One set of deliveries even when one batch names a key twice.
			ids.delete(e.dedupeKey)
			inserted.push([id, e])
			for (const endpointId of endpointIds) deliveries.push([endpointId, id, e.userbotId, e.at, 0])
		}
		// Event by event, endpoint by endpoint: a pair's deliveries are numbered in its events' order.
		deliveries.sort((p, q) => p[1] - q[1])
		if (deliveries.length === 0) return inserted
		if (lease) await markLeased(tx, deliveries, lease)
		recorded.waiting = deliveries.some((d) => d[4] === 0)
		const owner = lease?.owner ?? null
		const until = lease?.until ?? null
		// Only what the insert does not know already comes back (each column returned cost a
		// conversion per row): a new delivery's message id is `msg_` + its event, it has no attempts.
		const made = await tx.all<{ id: number; endpoint_id: number; event_id: number; leased: number }>(sql`
			INSERT INTO webhook_delivery
				(endpoint_id, event_id, userbot_id, message_id, next_at, created_at, lease_owner, lease_until)
			SELECT value ->> 0, value ->> 1, value ->> 2, 'msg_' || (value ->> 1), value ->> 3, value ->> 3,
				CASE WHEN value ->> 4 THEN ${owner} END, CASE WHEN value ->> 4 THEN ${until} END
			FROM json_each(${JSON.stringify(deliveries)}) ORDER BY key
			RETURNING id, endpoint_id, event_id, lease_owner IS NOT NULL AS leased`)
		const userbotOf = new Map(inserted.map(([id, e]) => [id, e.userbotId]))
		for (const r of made)
			if (r.leased)
				recorded.leased.push({
					id: r.id,
					endpoint_id: r.endpoint_id,
					userbot_id: userbotOf.get(r.event_id) as number,
					event_id: r.event_id,
					message_id: `msg_${r.event_id}`,
					attempts: 0,
					first_attempt_at: null,
				})
		return inserted
	})
	// Remembered once committed: an id of a transaction rolled back may be given out again.
	for (const [id, e] of committed) cache.remember(id, { type: e.type, data: e.data, at: e.at })
	recorded.leased.sort((a, b) => a.id - b.id)
	return recorded
}
