import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq, sql } from 'drizzle-orm'
import { Webhook } from 'standardwebhooks'
import { type DatabaseHandle, openDatabase } from '../../../db/client'
import { company } from '../../../db/schema'
import { EventCache } from '../../../plugins/webhooks/claim'
import type { NewEvent } from '../../../plugins/webhooks/outbox'
import { generateSecret, signatureHeader, signingKey } from '../../../plugins/webhooks/secrets'
import { WebhookStore } from '../../../plugins/webhooks/store'
import { webhookEndpoint } from '../../../plugins/webhooks/tables'

/**
 * The outbox's hot path (docs/webhooks.md#the-hot-path): claims that return what the deliveries hold
 * and take their events from memory, found pair by pair off the pending index, and signatures made
 * with keys decoded once. Each must give what the slow way gave.
 */
describe('the outbox hot path', () => {
	let dir: string
	let a: DatabaseHandle
	let b: DatabaseHandle
	let companyId: number
	let endpoints: [number, number]
	beforeAll(async () => {
		dir = mkdtempSync(join(tmpdir(), 'ubg-hook-hot-'))
		const url = `file:${join(dir, 'app.db')}`
		a = await openDatabase(url)
		b = await openDatabase(url)
		const [c] = await a.db.insert(company).values({ name: 'hot' }).returning()
		companyId = (c as { id: number }).id
		const ids: number[] = []
		for (const n of [1, 2]) {
			const [e] = await a.db
				.insert(webhookEndpoint)
				.values({ companyId, url: `https://93.184.216.${n}/`, events: '[]', secret: `v1.s${n}.t` })
				.returning()
			ids.push((e as { id: number }).id)
		}
		endpoints = ids as [number, number]
	})
	afterAll(() => {
		a.close()
		b.close()
		rmSync(dir, { recursive: true, force: true })
	})

	const event = (userbotId: number, seq: number): NewEvent => ({
		companyId,
		userbotId,
		seq,
		type: `t${seq}`,
		data: `{"userbot_id":${userbotId},"seq":${seq}}`,
		dedupeKey: `hot:${userbotId}:${seq}`,
		at: 1000 + seq,
	})

	it('claims events another gateway stored (not in its memory) with their stored bodies', async () => {
		// Stored through gateway B's handle: A has never seen these events.
		await new WebhookStore(b.db).recordMany([
			{ event: event(7, 1), endpointIds: endpoints },
			{ event: event(7, 2), endpointIds: [endpoints[0]] },
		])
		const claimed = await new WebhookStore(a.db).claim('A', 10, 5000, 1000, 10)
		expect(claimed.map((c) => [c.endpointId, c.type, c.data, c.eventAt, c.url, c.secret])).toEqual([
			[endpoints[0], 't1', '{"userbot_id":7,"seq":1}', 1001, 'https://93.184.216.1/', 'v1.s1.t'],
			[endpoints[1], 't1', '{"userbot_id":7,"seq":1}', 1001, 'https://93.184.216.2/', 'v1.s2.t'],
			[endpoints[0], 't2', '{"userbot_id":7,"seq":2}', 1002, 'https://93.184.216.1/', 'v1.s1.t'],
		])
		expect(claimed.map((c) => c.messageId)).toEqual(claimed.map((c) => `msg_${c.messageId.slice(4)}`))
		expect(claimed.every((c) => c.attempts === 0 && c.firstAttemptAt === null)).toBe(true)
		await a.db.run(sql`UPDATE webhook_delivery SET status = 'delivered', lease_owner = NULL`)
	})

	it('takes the events it stored itself from memory: a claim reads no event row', async () => {
		const store = new WebhookStore(a.db)
		await store.recordMany([{ event: event(9, 1), endpointIds: [endpoints[1]] }])
		// Stored rows never change; changed here behind the store's back, they show which was read.
		await b.db.run(sql`UPDATE webhook_event SET data = '"read back"' WHERE dedupe_key = 'hot:9:1'`)
		const [claimed] = await store.claim('A', 10, 5000, 1000, 10)
		expect(claimed?.data).toBe('{"userbot_id":9,"seq":1}')
		// Another process has no memory of it: it reads the row.
		await store.release('A')
		const [other] = await new WebhookStore(b.db).claim('B', 10, 5000, 1000, 10)
		expect(other?.data).toBe('"read back"')
		await a.db.run(sql`UPDATE webhook_delivery SET status = 'delivered', lease_owner = NULL`)
	})

	it('reads an endpoint at every claim: a URL changed elsewhere counts at once', async () => {
		const store = new WebhookStore(a.db)
		await store.recordMany([{ event: event(8, 1), endpointIds: [endpoints[0]] }])
		await b.db
			.update(webhookEndpoint)
			.set({ url: 'https://93.184.216.99/' })
			.where(eq(webhookEndpoint.id, endpoints[0]))
		const [claimed] = await store.claim('A', 10, 5000, 1000, 10)
		expect(claimed?.url).toBe('https://93.184.216.99/')
		expect(claimed?.data).toBe('{"userbot_id":8,"seq":1}')
		await a.db.run(sql`UPDATE webhook_delivery SET status = 'delivered', lease_owner = NULL`)
	})

	it('finds the head of every pair, however long each backlog, oldest due first', async () => {
		const store = new WebhookStore(a.db)
		// Pairs of two endpoints and five userbots, each with a backlog, stored interleaved.
		const rows: Array<{ event: NewEvent; endpointIds: number[] }> = []
		for (let seq = 1; seq <= 40; seq++)
			for (const userbotId of [15, 11, 14, 12, 13])
				rows.push({ event: event(userbotId, 100 + seq), endpointIds: endpoints })
		await store.recordMany(rows)
		const heads = await store.claim('A', 100, 5000, 1000, 1)
		expect(heads.length).toBe(10)
		const pairs = heads.map((c) => `${c.endpointId}:${c.userbotId}`)
		expect(new Set(pairs).size).toBe(10)
		// Each is its pair's oldest event, and they come oldest first.
		expect(heads.every((c) => c.type === 't101')).toBe(true)
		expect(heads.map((c) => c.id)).toEqual([...heads.map((c) => c.id)].sort((x, y) => x - y))
		// A claim of fewer pairs takes the pairs whose heads are oldest.
		await store.release('A')
		const two = await store.claim('B', 2, 5000, 1000, 3)
		// Two endpoints and five userbots: each event is ten deliveries, a pair's next is 10 ids on.
		const runOf = (id: number) => [id, id + 10, id + 20]
		const [h0, h1] = heads.map((c) => c.id) as [number, number]
		expect(two.map((c) => c.id)).toEqual([...runOf(h0), ...runOf(h1)].sort((x, y) => x - y))
	})

	it('forgets the oldest eighth of its events at once when full, and keeps the rest', async () => {
		const cache = new EventCache()
		for (let id = 1; id <= 20_001; id++) cache.remember(id, { type: 't', data: '{}', at: id })
		// A database that has none of them: what comes back came from memory.
		const none = { select: () => ({ from: () => ({ where: async () => [] }) }) }
		const found = await cache.load(none as unknown as DatabaseHandle['db'], [1, 2500, 2501, 20_000, 20_001])
		expect([...found.keys()]).toEqual([2501, 20_000, 20_001])
	})

	it('signs as the standardwebhooks package verifies, with both secrets while one rotates out', () => {
		const fresh = generateSecret()
		const old = generateSecret()
		const at = new Date()
		const body = '{"type":"t","timestamp":"x","data":{"seq":1}}'
		const header = signatureHeader([signingKey(fresh), signingKey(old)], 'msg_1', at, body)
		expect(header.split(' ').length).toBe(2)
		expect(header.split(' ')[0]).toBe(new Webhook(fresh).sign('msg_1', at, body))
		const headers = {
			'webhook-id': 'msg_1',
			'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
			'webhook-signature': header,
		}
		for (const secret of [fresh, old]) expect(new Webhook(secret).verify(body, headers)).toBeTruthy()
		expect(() => new Webhook(generateSecret()).verify(body, headers)).toThrow()
	})
})
