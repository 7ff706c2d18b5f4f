import { and, eq, inArray, sql } from 'drizzle-orm'
import type { Database } from 'userbot-gateway/plugin'
import { type Claimed, claimStatement, completeClaim, EventCache, type LeasedRow } from './claim'
import type { LeaseRequest, Recorded } from './direct'
import type { EventRow, NewEvent } from './outbox'
import { recordHere } from './record-here'
import { webhookDelivery, webhookEndpoint, webhookEvent } from './tables'
import { type OutboxWriter, recordInThread, WriterGone } from './writer'

export { type Claimed, claimStatement } from './claim'

/** Where an attempt leaves its delivery. */
export type Outcome = { status: 'delivered' | 'failed' } | { status: 'pending'; nextAt: number }

/** One delivery's attempt and outcome, to be written. */
export interface Settled {
	id: number
	attempt: Attempt
	outcome: Outcome
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
	/** The events stored here lately: a claim of their deliveries does not read them back. */
	private readonly cache = new EventCache()

	/**
	 * @param writer the writer thread (writer.ts) that runs `recordMany` and `settleMany` off the
	 *   event loop, on the embedded database; without it (a libSQL server, or the thread gone) they
	 *   run here.
	 */
	constructor(
		private readonly db: Database,
		private readonly writer?: OutboxWriter,
	) {}

	/** Ends the writer thread, once its writes are done. */
	async close(): Promise<void> {
		await this.writer?.close()
	}

	/** Stores the event and a pending delivery for each endpoint; false when it was stored already. */
	async record(event: NewEvent, endpointIds: readonly number[]): Promise<number | null> {
		const id = await this.db.transaction(async (tx) => {
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
		// Remembered once committed: an id of a transaction rolled back may be given out again.
		if (id !== null) this.cache.remember(id, { type: event.type, data: event.data, at: event.at })
		return id
	}

	/**
	 * Stores many events in one transaction, in the order given, each with a pending delivery per
	 * endpoint it names. An event stored already (its key: another gateway saw it first) is not
	 * inserted again, and so gets no second set of deliveries. The rows go in as one JSON parameter
	 * each time: the statements are the same whatever the number of events.
	 *
	 * With `lease`, the deliveries of a pair `lease.after` names go in leased to `lease.owner`
	 * already (sent from memory, no claim), unless the pair has a pending delivery after the id it
	 * gives (0: any): then that older one goes first, and these wait, unleased, for a claim. One more
	 * statement, one seek of the pending index per pair, in the same transaction: no other writer
	 * adds a delivery between the look and the insert.
	 */
	async recordMany(events: readonly EventRow[], lease?: LeaseRequest): Promise<Recorded> {
		if (events.length === 0) return { leased: [], waiting: false }
		if (this.writer?.usable) {
			try {
				return await recordInThread(this.writer, events, lease, (id, e) =>
					this.cache.remember(id, { type: e.type, data: e.data, at: e.at }),
				)
			} catch (err) {
				if (!(err instanceof WriterGone)) throw err
			}
		}
		return recordHere(this.db, this.cache, events, lease)
	}

	/** What sending the deliveries `recordMany` leased needs (their events are in memory). */
	complete(leased: LeasedRow[], endpoints?: Recorded['endpoints']): Promise<Claimed[]> {
		return completeClaim(this.db, this.cache, leased, endpoints)
	}

	/**
	 * Leases, for up to `keys` endpoint-and-userbot pairs whose oldest pending delivery is due and
	 * free, that delivery and up to `run - 1` of the pair's next ones (the claimant sends them one
	 * after another, and gives back the rest when one fails). One statement: two gateways never lease
	 * one delivery, nor two runs of one pair.
	 */
	async claim(owner: string, keys: number, now: number, leaseMs: number, run = 1): Promise<Claimed[]> {
		const leased = await this.db.all<LeasedRow>(claimStatement(owner, keys, now, leaseMs, run))
		return completeClaim(this.db, this.cache, leased)
	}

	/**
	 * Writes an attempt's outcome if `owner` still holds the lease: `delivered`, `failed` (gave up),
	 * or pending again from `nextAt`. False when the lease was lost (another gateway has it now).
	 */
	async settle(c: Pick<Claimed, 'id'>, owner: string, attempt: Attempt, outcome: Outcome): Promise<boolean> {
		return (await this.settleMany(owner, [{ id: c.id, attempt, outcome }])).has(c.id)
	}

	/**
	 * Many outcomes in one statement (the group commit of settle.ts), each written only if `owner`
	 * still holds that delivery's lease: the ids written are returned.
	 */
	async settleMany(owner: string, items: readonly Settled[]): Promise<Set<number>> {
		if (items.length === 0) return new Set()
		if (this.writer?.usable) {
			// One flat list, [id, status, next at, at, code, body, error] after one another: bound as
			// the thread's statement's parameters.
			const flat: Array<string | number | null> = []
			for (const { id, attempt: a, outcome: o } of items)
				flat.push(id, o.status, o.status === 'pending' ? o.nextAt : a.at, a.at, a.code, a.body, a.error)
			try {
				return new Set(await this.writer.settle(owner, flat))
			} catch (err) {
				if (!(err instanceof WriterGone)) throw err
			}
		}
		const rows = items.map(({ id, attempt: a, outcome: o }) => [
			id,
			o.status,
			o.status === 'pending' ? o.nextAt : a.at,
			a.at,
			a.code,
			a.body,
			a.error,
		])
		const written = await this.db.all<{ id: number }>(sql`
			UPDATE webhook_delivery SET
				status = j.value ->> 1, attempts = attempts + 1, next_at = j.value ->> 2,
				lease_owner = NULL, lease_until = NULL,
				first_attempt_at = coalesce(first_attempt_at, j.value ->> 3), last_at = j.value ->> 3,
				last_code = j.value ->> 4, last_body = j.value ->> 5, last_error = j.value ->> 6
			FROM json_each(${JSON.stringify(rows)}) AS j
			WHERE webhook_delivery.id = j.value ->> 0 AND webhook_delivery.lease_owner = ${owner}
			RETURNING webhook_delivery.id AS id`)
		return new Set(written.map((r) => r.id))
	}

	/** Extends the leases `owner` still holds among `ids` to `until`: the ids kept are returned. */
	async renew(owner: string, ids: readonly number[], until: number): Promise<Set<number>> {
		if (ids.length === 0) return new Set()
		const kept = await this.db.all<{ id: number }>(sql`
			UPDATE webhook_delivery SET lease_until = ${until}
			WHERE lease_owner = ${owner} AND status = 'pending'
				AND id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))
			RETURNING id`)
		return new Set(kept.map((r) => r.id))
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
