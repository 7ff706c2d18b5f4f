import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { asc, eq } from 'drizzle-orm'
import { type DatabaseHandle, openDatabase } from '../../../db/client'
import { company } from '../../../db/schema'
import type { EventRow } from '../../../plugins/webhooks/outbox'
import { WebhookStore } from '../../../plugins/webhooks/store'
import { webhookDelivery, webhookEndpoint, webhookEvent } from '../../../plugins/webhooks/tables'
import { embeddedPath, OutboxWriter } from '../../../plugins/webhooks/writer'

/**
 * The outbox's writer thread (plugins/webhooks/writer.ts): the writes that reach it together share
 * one transaction, each undone alone when it fails; the order they were sent in is the order of
 * their rows; and when the thread cannot write, the event loop does.
 */
describe('the outbox writer thread', () => {
	let dir: string
	let path: string
	let h: DatabaseHandle
	let companyId: number
	let endpointId: number
	let seq = 0
	const closing: Array<{ close(): Promise<void> }> = []
	const events = (userbotId: number, count: number, company = companyId): EventRow[] =>
		Array.from({ length: count }, () => {
			seq++
			return {
				event: {
					companyId: company,
					userbotId,
					seq,
					type: 'updateNewMessage',
					data: JSON.stringify({ userbot_id: userbotId, seq }),
					dedupeKey: `writer:${seq}`,
					at: 1000 + seq,
				},
				endpointIds: [endpointId],
			}
		})
	const deliveriesOf = (userbotId: number) =>
		h.db
			.select({ id: webhookDelivery.id, seq: webhookEvent.seq, owner: webhookDelivery.leaseOwner })
			.from(webhookDelivery)
			.innerJoin(webhookEvent, eq(webhookEvent.id, webhookDelivery.eventId))
			.where(eq(webhookDelivery.userbotId, userbotId))
			.orderBy(asc(webhookDelivery.id))
	const threaded = () => {
		const writer = new OutboxWriter(path, 5000)
		const store = new WebhookStore(h.db, writer)
		closing.push(store)
		return { writer, store }
	}

	beforeAll(async () => {
		dir = mkdtempSync(join(tmpdir(), 'ubg-hook-writer-'))
		path = join(dir, 'app.db')
		h = await openDatabase(`file:${path}`)
		const [c] = await h.db.insert(company).values({ name: 'writer' }).returning()
		companyId = (c as { id: number }).id
		const [e] = await h.db
			.insert(webhookEndpoint)
			.values({ companyId, url: 'http://127.0.0.1:9/hook', events: '[]', secret: 'v1.x.y' })
			.returning()
		endpointId = (e as { id: number }).id
	})
	afterAll(async () => {
		for (const c of closing) await c.close()
		h.close()
		rmSync(dir, { recursive: true, force: true })
	})

	it('writes on a thread only for an embedded database file', () => {
		expect(embeddedPath('file:/data/app.db')).toBe('/data/app.db')
		expect(embeddedPath('file:data/app.db')).toBe('data/app.db')
		expect(embeddedPath('file:///data/app%20x.db')).toBe('/data/app x.db')
		expect(embeddedPath('file::memory:')).toBeNull()
		expect(embeddedPath('file:/data/app.db?mode=ro')).toBeNull()
		expect(embeddedPath('libsql://db.example.com')).toBeNull()
		expect(embeddedPath('http://127.0.0.1:8080')).toBeNull()
	})

	it('keeps the order the writes were sent in, per userbot, when they share a transaction', async () => {
		const { writer, store } = threaded()
		const lease = { owner: 'gw-order', until: 10_000_000, after: () => 0 }
		// Sent together, none awaited before the next: the thread takes them in one transaction.
		const batches = [events(11, 3), events(12, 2), events(11, 2), events(12, 3), events(11, 1)]
		const recorded = await Promise.all(batches.map((b) => store.recordMany(b, lease)))
		const sent = (userbotId: number) =>
			batches.flat().flatMap((r) => (r.event.userbotId === userbotId ? [r.event.seq] : []))
		expect((await deliveriesOf(11)).map((d) => d.seq)).toEqual(sent(11))
		expect((await deliveriesOf(12)).map((d) => d.seq)).toEqual(sent(12))
		// The first write of each pair leased its deliveries; a later one found them pending after
		// the id it was given (0) and left its own for a claim, as on the event loop.
		expect(recorded[0]?.leased.length).toBe(3)
		expect(recorded[1]?.leased.length).toBe(2)
		expect([recorded[2]?.leased, recorded[2]?.waiting]).toEqual([[], true])
		expect((await deliveriesOf(11)).map((d) => d.owner)).toEqual([
			'gw-order',
			'gw-order',
			'gw-order',
			null,
			null,
			null,
		])
		expect(writer.usable).toBe(true)
	})

	it('reads the endpoints of what it leased in the same write: a URL changed elsewhere counts at the next', async () => {
		const { store } = threaded()
		const lease = { owner: 'gw-ends', until: 10_000_000, after: () => 0 }
		const first = await store.recordMany(events(41, 1), lease)
		expect(first.endpoints?.map((e) => e.url)).toEqual(['http://127.0.0.1:9/hook'])
		await h.db
			.update(webhookEndpoint)
			.set({ url: 'http://127.0.0.1:9/moved' })
			.where(eq(webhookEndpoint.id, endpointId))
		const next = await store.recordMany(events(42, 1), lease)
		const [ready] = await store.complete(next.leased, next.endpoints)
		expect(ready?.url).toBe('http://127.0.0.1:9/moved')
		expect(ready?.secret).toBe('v1.x.y')
		await h.db
			.update(webhookEndpoint)
			.set({ url: 'http://127.0.0.1:9/hook' })
			.where(eq(webhookEndpoint.id, endpointId))
	})

	it('undoes a write that fails alone: the others of its transaction are stored and written', async () => {
		const { writer, store } = threaded()
		const [first] = await store
			.recordMany(events(21, 1), { owner: 'gw-one', until: 10_000_000, after: () => 0 })
			.then((r) => r.leased)
		// Three writes at once: an outcome, events of a company that does not exist (refused by
		// its foreign key), and events of another userbot.
		const [settled, refused, stored] = await Promise.allSettled([
			store.settleMany('gw-one', [
				{
					id: first?.id as number,
					attempt: { at: 2000, code: 200, body: 'ok', error: null },
					outcome: { status: 'delivered' },
				},
			]),
			store.recordMany(events(22, 2, companyId + 1000)),
			store.recordMany(events(23, 2)),
		])
		expect(settled.status).toBe('fulfilled')
		expect(settled.status === 'fulfilled' ? [...settled.value] : null).toEqual([first?.id as number])
		expect(refused.status).toBe('rejected')
		expect(stored.status).toBe('fulfilled')
		expect(await deliveriesOf(22)).toEqual([])
		expect((await deliveriesOf(23)).length).toBe(2)
		const [row] = await h.db
			.select()
			.from(webhookDelivery)
			.where(eq(webhookDelivery.id, first?.id as number))
		expect([row?.status, row?.attempts, row?.leaseOwner]).toEqual(['delivered', 1, null])
		// A refused write is the caller's failure, not the thread's: it keeps writing.
		expect(writer.usable).toBe(true)
	})

	it('says once in the log that the thread started', async () => {
		const log = recordingLog()
		const writer = new OutboxWriter(path, 5000, log)
		const store = new WebhookStore(h.db, writer)
		closing.push(store)
		await store.recordMany(events(61, 1))
		await store.recordMany(events(61, 1))
		expect((await deliveriesOf(61)).length).toBe(2)
		expect(log.lines).toEqual([['info', 'webhook writer thread started', undefined]])
	})

	it('writes batches of any size, in order, in statements of several rows: events, deliveries, outcomes', async () => {
		const { writer, store } = threaded()
		// 300 events: more rows than one statement takes (256), and a rest that is no power of two;
		// the last one names the key of the tenth again (stored once, one set of deliveries).
		const batch = events(51, 300)
		const again = batch[9] as EventRow
		batch[299] = {
			...(batch[299] as EventRow),
			event: { ...(batch[299] as EventRow).event, dedupeKey: again.event.dedupeKey },
		}
		const recorded = await store.recordMany(batch, { owner: 'gw-many', until: 10_000_000, after: () => 0 })
		const rows = await h.db
			.select({
				id: webhookDelivery.id,
				event: webhookDelivery.eventId,
				message: webhookDelivery.messageId,
				seq: webhookEvent.seq,
				data: webhookEvent.data,
				at: webhookEvent.createdAt,
				nextAt: webhookDelivery.nextAt,
				owner: webhookDelivery.leaseOwner,
				until: webhookDelivery.leaseUntil,
			})
			.from(webhookDelivery)
			.innerJoin(webhookEvent, eq(webhookEvent.id, webhookDelivery.eventId))
			.where(eq(webhookDelivery.userbotId, 51))
			.orderBy(asc(webhookDelivery.id))
		const sent = batch.slice(0, 299).map((r) => r.event)
		expect(rows.map((r) => r.seq)).toEqual(sent.map((e) => e.seq))
		expect(rows.map((r) => r.data)).toEqual(sent.map((e) => e.data))
		expect(rows.map((r) => [r.at, r.nextAt])).toEqual(sent.map((e) => [e.at, e.at]))
		expect(
			rows.every((r) => r.message === `msg_${r.event}` && r.owner === 'gw-many' && r.until === 10_000_000),
		).toBe(true)
		// Events in the order given: their ids rise with it.
		expect(rows.map((r) => r.event)).toEqual([...rows.map((r) => r.event)].sort((a, b) => a - b))
		expect(recorded.leased.map((l) => l.id)).toEqual(rows.map((r) => r.id))

		// 299 outcomes and one of a lease gone (not written): delivered, pending again, failed.
		const [stolen] = await store
			.recordMany(events(52, 1), { owner: 'gw-other', until: 10_000_000, after: () => 0 })
			.then((r) => r.leased)
		const outcomes = rows.map((r, i) => ({
			id: r.id,
			attempt:
				i % 3 === 0
					? { at: 5000 + i, code: 200, body: 'ok', error: null }
					: { at: 5000 + i, code: null, body: null, error: `timeout ${i}` },
			outcome:
				i % 3 === 0
					? ({ status: 'delivered' } as const)
					: i % 3 === 1
						? ({ status: 'pending', nextAt: 90_000 + i } as const)
						: ({ status: 'failed' } as const),
		}))
		outcomes.push({
			id: stolen?.id as number,
			attempt: { at: 5000, code: 200, body: 'ok', error: null },
			outcome: { status: 'delivered' },
		})
		const written = await store.settleMany('gw-many', outcomes)
		expect([...written].sort((a, b) => a - b)).toEqual(rows.map((r) => r.id))
		const after = await h.db
			.select()
			.from(webhookDelivery)
			.where(eq(webhookDelivery.userbotId, 51))
			.orderBy(asc(webhookDelivery.id))
		expect(
			after.map((d) => [
				d.status,
				d.attempts,
				d.nextAt,
				d.firstAttemptAt,
				d.lastAt,
				d.lastCode,
				d.lastBody,
				d.lastError,
				d.leaseOwner,
			]),
		).toEqual(
			outcomes
				.slice(0, 299)
				.map((o) => [
					o.outcome.status,
					1,
					o.outcome.status === 'pending' ? o.outcome.nextAt : o.attempt.at,
					o.attempt.at,
					o.attempt.at,
					o.attempt.code,
					o.attempt.body,
					o.attempt.error,
					null,
				]),
		)
		const [kept] = await h.db
			.select()
			.from(webhookDelivery)
			.where(eq(webhookDelivery.id, stolen?.id as number))
		expect([kept?.status, kept?.attempts, kept?.leaseOwner]).toEqual(['pending', 0, 'gw-other'])
		expect(writer.usable).toBe(true)
	})

	it('writes on the event loop when the thread cannot open the database', async () => {
		const log = recordingLog()
		const writer = new OutboxWriter(join(dir, 'no such folder', 'app.db'), 5000, log)
		const store = new WebhookStore(h.db, writer)
		closing.push(store)
		const recorded = await store.recordMany(events(31, 2), {
			owner: 'gw-fall',
			until: 10_000_000,
			after: () => 0,
		})
		expect(recorded.leased.length).toBe(2)
		expect((await deliveriesOf(31)).map((d) => d.owner)).toEqual(['gw-fall', 'gw-fall'])
		const written = await store.settleMany('gw-fall', [
			{
				id: recorded.leased[0]?.id as number,
				attempt: { at: 2000, code: 200, body: null, error: null },
				outcome: { status: 'delivered' },
			},
		])
		expect([...written]).toEqual([recorded.leased[0]?.id as number])
		expect(writer.usable).toBe(false)
		// Said once, with why and not where.
		expect(log.lines).toEqual([
			['warn', 'webhook writer thread unavailable: the outbox writes on the event loop', { reason: 'open' }],
		])
	})
})

/** A log that keeps its lines: [level, message, fields]. */
function recordingLog() {
	const lines: Array<[string, string, unknown]> = []
	return {
		lines,
		info: (msg: string, fields?: unknown) => void lines.push(['info', msg, fields]),
		warn: (msg: string, fields?: unknown) => void lines.push(['warn', msg, fields]),
	}
}
