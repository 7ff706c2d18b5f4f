import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import { type Database, webhookDelivery, webhookEndpoint, webhookEvent } from 'userbot-gateway/plugin'

/** One event as it is stored once, before any delivery of it is tried. */
export interface NewEvent {
	companyId: number
	userbotId: number
	seq: number
	type: string
	/** The body's `data`, serialized. */
	data: string
	dedupeKey: string
	at: number
}

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

/** What one attempt came to. */
export interface Attempt {
	at: number
	code: number | null
	body: string | null
	error: string | null
}

/**
 * The webhooks' tables. Every change that decides who sends what is one statement: claiming takes a
 * lease on the oldest pending delivery of each endpoint and userbot, and only if none older is
 * pending (so one event at a time per endpoint and userbot, in order, whichever gateway claims it);
 * an outcome is written only by the lease's holder.
 */
export class WebhookStore {
	constructor(private readonly db: Database) {}

	/** Stores the event and a pending delivery for each endpoint; false when it was stored already. */
	async record(event: NewEvent, endpointIds: readonly number[]): Promise<number | null> {
		return this.db.transaction(async (tx) => {
			const [row] = await tx
				.insert(webhookEvent)
				.values({
					companyId: event.companyId,
					userbotId: event.userbotId,
					seq: event.seq,
					type: event.type,
					data: event.data,
					dedupeKey: event.dedupeKey,
					createdAt: event.at,
				})
				.onConflictDoNothing()
				.returning({ id: webhookEvent.id })
			if (!row) return null
			await tx.insert(webhookDelivery).values(
				endpointIds.map((endpointId) => ({
					endpointId,
					eventId: row.id,
					userbotId: event.userbotId,
					messageId: `msg_${row.id}`,
					nextAt: event.at,
					createdAt: event.at,
				})),
			)
			return row.id
		})
	}

	/**
	 * Stores many events in one write (one batch, one transaction), in the order given, each with a
	 * pending delivery per endpoint it names. An event stored already (its key: another gateway saw
	 * it first) gets no second set of deliveries.
	 */
	async recordMany(
		events: ReadonlyArray<{ event: NewEvent; endpointIds: readonly number[] }>,
	): Promise<void> {
		if (events.length === 0) return
		const statements = events.flatMap(({ event: e, endpointIds }) => [
			this.db.run(sql`INSERT INTO webhook_event (company_id, userbot_id, seq, type, data, dedupe_key, created_at)
				VALUES (${e.companyId}, ${e.userbotId}, ${e.seq}, ${e.type}, ${e.data}, ${e.dedupeKey}, ${e.at})
				ON CONFLICT DO NOTHING`),
			this.db.run(sql`INSERT INTO webhook_delivery (endpoint_id, event_id, userbot_id, message_id, next_at, created_at)
				SELECT j.value, ev.id, ev.userbot_id, 'msg_' || ev.id, ${e.at}, ${e.at}
				FROM webhook_event ev, json_each(${JSON.stringify(endpointIds)}) j
				WHERE ev.dedupe_key = ${e.dedupeKey}
					AND NOT EXISTS (SELECT 1 FROM webhook_delivery d WHERE d.event_id = ev.id)
				ORDER BY j.key`),
		])
		await this.db.batch(statements as [(typeof statements)[number], ...typeof statements])
	}

	/**
	 * Leases, for up to `keys` endpoint-and-userbot pairs whose oldest pending delivery is due and
	 * free, that delivery and up to `run - 1` of the pair's next ones (the claimant sends them one
	 * after another, and gives back the rest when one fails). One statement: two gateways never lease
	 * one delivery, nor two runs of one pair.
	 */
	async claim(owner: string, keys: number, now: number, leaseMs: number, run = 1): Promise<Claimed[]> {
		const ids = await this.db.all<{ id: number }>(sql`
			WITH heads AS (
				SELECT endpoint_id, userbot_id, min(id) AS head FROM webhook_delivery
				WHERE status = 'pending' GROUP BY endpoint_id, userbot_id
			), ready AS (
				SELECT h.endpoint_id, h.userbot_id FROM heads h
				JOIN webhook_delivery hd ON hd.id = h.head
				JOIN webhook_endpoint e ON e.id = h.endpoint_id AND e.enabled = 1
				WHERE hd.next_at <= ${now} AND (hd.lease_until IS NULL OR hd.lease_until <= ${now})
				ORDER BY hd.next_at, hd.id LIMIT ${keys}
			), runs AS (
				SELECT d.id, row_number() OVER (PARTITION BY d.endpoint_id, d.userbot_id ORDER BY d.id) AS n
				FROM webhook_delivery d
				JOIN ready r ON d.endpoint_id = r.endpoint_id AND d.userbot_id = r.userbot_id
				WHERE d.status = 'pending'
			)
			UPDATE webhook_delivery SET lease_owner = ${owner}, lease_until = ${now + leaseMs}
			WHERE id IN (SELECT id FROM runs WHERE n <= ${run})
			RETURNING id`)
		if (ids.length === 0) return []
		return this.db
			.select({
				id: webhookDelivery.id,
				endpointId: webhookDelivery.endpointId,
				userbotId: webhookDelivery.userbotId,
				messageId: webhookDelivery.messageId,
				attempts: webhookDelivery.attempts,
				firstAttemptAt: webhookDelivery.firstAttemptAt,
				url: webhookEndpoint.url,
				secret: webhookEndpoint.secret,
				previousSecret: webhookEndpoint.previousSecret,
				previousSecretUntil: webhookEndpoint.previousSecretUntil,
				failingSince: webhookEndpoint.failingSince,
				type: webhookEvent.type,
				data: webhookEvent.data,
				eventAt: webhookEvent.createdAt,
			})
			.from(webhookDelivery)
			.innerJoin(webhookEndpoint, eq(webhookEndpoint.id, webhookDelivery.endpointId))
			.innerJoin(webhookEvent, eq(webhookEvent.id, webhookDelivery.eventId))
			.where(
				inArray(
					webhookDelivery.id,
					ids.map((r) => r.id),
				),
			)
			.orderBy(asc(webhookDelivery.id))
	}

	/**
	 * Writes an attempt's outcome if `owner` still holds the lease: `delivered`, `failed` (gave up),
	 * or pending again from `nextAt`. False when the lease was lost (another gateway has it now).
	 */
	async settle(
		c: Claimed,
		owner: string,
		attempt: Attempt,
		outcome: { status: 'delivered' | 'failed' } | { status: 'pending'; nextAt: number },
	): Promise<boolean> {
		const rows = await this.db
			.update(webhookDelivery)
			.set({
				status: outcome.status,
				attempts: sql`${webhookDelivery.attempts} + 1`,
				nextAt: outcome.status === 'pending' ? outcome.nextAt : attempt.at,
				leaseOwner: null,
				leaseUntil: null,
				firstAttemptAt: sql`coalesce(${webhookDelivery.firstAttemptAt}, ${attempt.at})`,
				lastAt: attempt.at,
				lastCode: attempt.code,
				lastBody: attempt.body,
				lastError: attempt.error,
			})
			.where(and(eq(webhookDelivery.id, c.id), eq(webhookDelivery.leaseOwner, owner)))
			.returning({ id: webhookDelivery.id })
		return rows.length > 0
	}

	/**
	 * Gives back this process's leases untried: all of them (it is stopping: another start takes them
	 * at once), or those of `ids` (the rest of a run behind a delivery that failed).
	 */
	async release(owner: string, ids?: readonly number[]): Promise<void> {
		if (ids?.length === 0) return
		await this.db
			.update(webhookDelivery)
			.set({ leaseOwner: null, leaseUntil: null })
			.where(
				and(
					eq(webhookDelivery.leaseOwner, owner),
					eq(webhookDelivery.status, 'pending'),
					ids ? inArray(webhookDelivery.id, [...ids]) : undefined,
				),
			)
	}

	/** The endpoint answered: it is not failing. */
	async endpointSucceeded(endpointId: number): Promise<void> {
		await this.db
			.update(webhookEndpoint)
			.set({ failingSince: null })
			.where(and(eq(webhookEndpoint.id, endpointId), sql`${webhookEndpoint.failingSince} IS NOT NULL`))
	}

	/**
	 * The endpoint failed at `at`: when it has failed since `disableBefore` or earlier without a
	 * success, it is disabled (once, whichever gateway sees it first): its company is returned.
	 */
	async endpointFailed(endpointId: number, at: number, disableBefore: number): Promise<number | null> {
		await this.db
			.update(webhookEndpoint)
			.set({ failingSince: at })
			.where(and(eq(webhookEndpoint.id, endpointId), sql`${webhookEndpoint.failingSince} IS NULL`))
		const [disabled] = await this.db
			.update(webhookEndpoint)
			.set({ enabled: false, disabledAt: at })
			.where(
				and(
					eq(webhookEndpoint.id, endpointId),
					eq(webhookEndpoint.enabled, true),
					sql`${webhookEndpoint.failingSince} <= ${disableBefore}`,
				),
			)
			.returning({ companyId: webhookEndpoint.companyId })
		return disabled?.companyId ?? null
	}
}
