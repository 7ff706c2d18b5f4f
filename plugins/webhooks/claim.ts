import { inArray, type SQL, sql } from 'drizzle-orm'
import type { Database } from 'userbot-gateway/plugin'
import { webhookEndpoint, webhookEvent } from './tables'

/** A delivery claimed by this process, with what sending it needs. */
export interface Claimed {
	id: number
	endpointId: number
	userbotId: number
	messageId: string
	attempts: number
	firstAttemptAt: number | null
	url: string
	secret: string
	previousSecret: string | null
	previousSecretUntil: number | null
	/** The endpoint's failing since (null: its last attempt succeeded). */
	failingSince: number | null
	type: string
	data: string
	eventAt: number
}

/** What sending needs of an endpoint (its URL and sealed secrets, and whether it is failing). */
export interface EndpointRow {
	id: number
	url: string
	secret: string
	previousSecret: string | null
	previousSecretUntil: number | null
	failingSince: number | null
}

/** What the claim's own statement returns of each delivery it leased. */
export interface LeasedRow {
	id: number
	endpoint_id: number
	userbot_id: number
	event_id: number
	message_id: string
	attempts: number
	first_attempt_at: number | null
}

/** What a delivery needs of its event (a stored event never changes). */
export interface EventBody {
	type: string
	data: string
	at: number
}

/** Events remembered at most; past it the oldest are forgotten first (a miss reads the row). */
const EVENT_CACHE_SIZE = 20_000

/**
 * The events this process stored lately, by id: most deliveries are claimed by the gateway that
 * stored their event, moments later, and reading the event back (a join per delivery, a large
 * text column) was the outbox's largest cost. Rows of `webhook_event` are written once and never
 * changed, so a remembered event is the stored one. Events another gateway stored, or older than
 * the cache, are read from the database.
 */
export class EventCache {
	private readonly events = new Map<number, EventBody>()

	remember(id: number, body: EventBody): void {
		if (this.events.size >= EVENT_CACHE_SIZE) this.forgetOldest()
		this.events.set(id, body)
	}

	/**
	 * The oldest eighth forgotten in one pass. One at a time cost more than the rest of storing an
	 * event: each look for the oldest walked past every entry deleted before it (a Map keeps them
	 * until it is rebuilt), about 5 µs per event once the cache was full.
	 */
	private forgetOldest(): void {
		let n = EVENT_CACHE_SIZE >> 3
		for (const id of this.events.keys()) {
			this.events.delete(id)
			if (--n <= 0) break
		}
	}

	/** The events of `ids`, from memory where known, the rest in one read. */
	async load(db: Database, ids: readonly number[]): Promise<Map<number, EventBody>> {
		const found = new Map<number, EventBody>()
		const missing: number[] = []
		for (const id of ids) {
			const known = this.events.get(id)
			if (known) found.set(id, known)
			else if (!found.has(id)) missing.push(id)
		}
		if (missing.length === 0) return found
		const rows = await db
			.select({
				id: webhookEvent.id,
				type: webhookEvent.type,
				data: webhookEvent.data,
				at: webhookEvent.createdAt,
			})
			.from(webhookEvent)
			.where(inArray(webhookEvent.id, [...new Set(missing)]))
		for (const r of rows) found.set(r.id, { type: r.type, data: r.data, at: r.at })
		return found
	}
}

/**
 * The rest of what sending the leased deliveries needs: their events (mostly from memory) and their
 * endpoints (read at every claim: a URL or secret changed on any gateway counts at the next claim).
 * In id order, which is each pair's order. A delivery whose endpoint or event is gone is left out.
 * `known`: the endpoints read already, in the transaction that leased the deliveries.
 */
export async function completeClaim(
	db: Database,
	cache: EventCache,
	leased: LeasedRow[],
	known?: readonly EndpointRow[],
): Promise<Claimed[]> {
	if (leased.length === 0) return []
	const rows = [...leased].sort((a, b) => a.id - b.id)
	const endpointIds = [...new Set(rows.map((r) => r.endpoint_id))]
	const [events, endpoints] = await Promise.all([
		cache.load(
			db,
			rows.map((r) => r.event_id),
		),
		known ??
			db
				.select({
					id: webhookEndpoint.id,
					url: webhookEndpoint.url,
					secret: webhookEndpoint.secret,
					previousSecret: webhookEndpoint.previousSecret,
					previousSecretUntil: webhookEndpoint.previousSecretUntil,
					failingSince: webhookEndpoint.failingSince,
				})
				.from(webhookEndpoint)
				.where(inArray(webhookEndpoint.id, endpointIds)),
	])
	const byId = new Map(endpoints.map((e) => [e.id, e]))
	const out: Claimed[] = []
	for (const r of rows) {
		const endpoint = byId.get(r.endpoint_id)
		const event = events.get(r.event_id)
		if (!endpoint || !event) continue
		out.push({
			id: r.id,
			endpointId: r.endpoint_id,
			userbotId: r.userbot_id,
			messageId: r.message_id,
			attempts: r.attempts,
			firstAttemptAt: r.first_attempt_at,
			url: endpoint.url,
			secret: endpoint.secret,
			previousSecret: endpoint.previousSecret,
			previousSecretUntil: endpoint.previousSecretUntil,
			failingSince: endpoint.failingSince,
			type: event.type,
			data: event.data,
			eventAt: event.at,
		})
	}
	return out
}

/**
 * The claim (see `WebhookStore.claim`). Both reads of the deliveries go through the index of the
 * pending rows: the delivered ones, kept for the listing and replays, never slow a claim down. The
 * statement returns what the deliveries themselves hold, so nothing of them is read again.
 */
export function claimStatement(owner: string, keys: number, now: number, leaseMs: number, run: number): SQL {
	return sql`
		WITH RECURSIVE heads(head) AS (
			-- Each pair's oldest pending delivery, pair after pair: one seek of the pending index per
			-- pair (the first row of a pair in index order is its head), never a read of the backlog.
			SELECT (
				SELECT id FROM webhook_delivery INDEXED BY webhook_delivery_pending WHERE status = 'pending'
				ORDER BY endpoint_id, userbot_id, id LIMIT 1
			)
			UNION ALL
			-- The next pair: a later userbot of this endpoint, else the first of a later endpoint (two
			-- seeks; a row-value comparison would seek on the endpoint alone and read the pair's rows).
			SELECT coalesce((
				SELECT x.id FROM webhook_delivery x INDEXED BY webhook_delivery_pending
				WHERE x.status = 'pending' AND x.endpoint_id = c.endpoint_id AND x.userbot_id > c.userbot_id
				ORDER BY x.userbot_id, x.id LIMIT 1
			), (
				SELECT y.id FROM webhook_delivery y INDEXED BY webhook_delivery_pending
				WHERE y.status = 'pending' AND y.endpoint_id > c.endpoint_id
				ORDER BY y.endpoint_id, y.userbot_id, y.id LIMIT 1
			))
			FROM heads h JOIN webhook_delivery c ON c.id = h.head
		), ready AS (
			SELECT hd.endpoint_id, hd.userbot_id FROM heads h
			JOIN webhook_delivery hd ON hd.id = h.head
			JOIN webhook_endpoint e ON e.id = hd.endpoint_id AND e.enabled = 1
			WHERE hd.next_at <= ${now} AND (hd.lease_until IS NULL OR hd.lease_until <= ${now})
			ORDER BY hd.next_at, hd.id LIMIT ${keys}
		)
		UPDATE webhook_delivery SET lease_owner = ${owner}, lease_until = ${now + leaseMs}
		WHERE id IN (
			-- The first rows of each ready pair, read off the pending index in order.
			SELECT d.id FROM ready r JOIN webhook_delivery d ON d.id IN (
				SELECT x.id FROM webhook_delivery x INDEXED BY webhook_delivery_pending
				WHERE x.endpoint_id = r.endpoint_id AND x.userbot_id = r.userbot_id AND x.status = 'pending'
				ORDER BY x.id LIMIT ${run}
			)
		)
		RETURNING id, endpoint_id, userbot_id, event_id, message_id, attempts, first_attempt_at`
}
