import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq, sql } from 'drizzle-orm'
import { type DatabaseHandle, openDatabase } from '../../../db/client'
import { company } from '../../../db/schema'
import { Leases } from '../../../plugins/webhooks/leases'
import { SettleQueue } from '../../../plugins/webhooks/settle'
import {
	cachedLookup,
	checkUrlForm,
	resolveTarget,
	targetResolver,
	URL_ERRORS,
	UrlRefused,
} from '../../../plugins/webhooks/ssrf'

const URL_INTERNAL = URL_ERRORS.internal

import { claimStatement, type Settled, WebhookStore } from '../../../plugins/webhooks/store'
import { webhookDelivery, webhookEndpoint } from '../../../plugins/webhooks/tables'
import { createLogger } from '../../../src/common/util/logger'

/**
 * What makes the outbox fast without giving up its guarantees: outcomes written together, claims
 * that read the pending rows alone, leases kept short and renewed, one lookup per name for a while.
 */
describe('the outbox at speed', () => {
	let dir: string
	let h: DatabaseHandle
	let store: WebhookStore
	let companyId: number
	let endpointId: number
	let seq = 0
	const events = (n: number, userbotId = 1) =>
		Array.from({ length: n }, () => {
			seq++
			return {
				event: { companyId, userbotId, seq, type: 't', data: '{}', dedupeKey: `k${seq}`, at: 1 },
				endpointIds: [endpointId],
			}
		})

	beforeAll(async () => {
		dir = mkdtempSync(join(tmpdir(), 'ubg-hook-speed-'))
		h = await openDatabase(`file:${join(dir, 'app.db')}`)
		const [c] = await h.db.insert(company).values({ name: 'speed' }).returning()
		companyId = (c as { id: number }).id
		const [e] = await h.db
			.insert(webhookEndpoint)
			.values({ companyId, url: 'https://93.184.216.34/', events: '[]', secret: 'v1.x.y' })
			.returning()
		endpointId = (e as { id: number }).id
		store = new WebhookStore(h.db)
	})
	afterAll(() => {
		h.close()
		rmSync(dir, { recursive: true, force: true })
	})

	it('writes the outcomes of one moment in one statement, each caller told of its own', async () => {
		await store.recordMany(events(10))
		const run = await store.claim('A', 10, 2, 60_000, 10)
		expect(run.length).toBe(10)
		let statements = 0
		const counting = new Proxy(store, {
			get(target, prop, receiver) {
				if (prop === 'settleMany')
					return (owner: string, items: readonly Settled[]) => {
						statements++
						return target.settleMany(owner, items)
					}
				return Reflect.get(target, prop, receiver)
			},
		})
		const queue = new SettleQueue(counting, 'A')
		const attempt = { at: 3, code: 200, body: null, error: null }
		const written = await Promise.all(
			run.map((c, i) =>
				// The last one's lease is not A's: it is refused, the others are written.
				queue.settle({ id: i === 9 ? 999_999 : c.id, attempt, outcome: { status: 'delivered' } }),
			),
		)
		expect(statements).toBe(1)
		expect(written).toEqual([true, true, true, true, true, true, true, true, true, false])
		await store.release('A')
	})

	it('stores an event named twice in one write once, with one set of deliveries', async () => {
		const twice = events(1, 2)
		await store.recordMany([...twice, ...twice])
		const rows = await h.db.select().from(webhookDelivery).where(eq(webhookDelivery.userbotId, 2))
		expect(rows.length).toBe(1)
	})

	it('keeps a run’s leases alive while it lasts, and knows one it lost', async () => {
		await store.recordMany(events(3, 3))
		const run = (await store.claim('R', 10, 2, 1000, 3)).filter((c) => c.userbotId === 3)
		expect(run.length).toBe(3)
		let clock = 500
		const leases = new Leases({
			store,
			owner: 'R',
			leaseMs: 1000,
			now: () => clock,
			log: createLogger('error'),
		})
		leases.hold(run.map((c) => c.id))
		// Another gateway took the third once its lease had ended.
		await h.db
			.update(webhookDelivery)
			.set({ leaseOwner: 'S', leaseUntil: 9e9 })
			.where(eq(webhookDelivery.id, (run[2] as { id: number }).id))
		leases.start()
		clock = 900
		for (let i = 0; i < 100 && !leases.lost((run[2] as { id: number }).id); i++) await Bun.sleep(20)
		leases.stop()
		expect(leases.lost((run[2] as { id: number }).id)).toBe(true)
		expect(leases.lost((run[0] as { id: number }).id)).toBe(false)
		const [first] = await h.db
			.select()
			.from(webhookDelivery)
			.where(eq(webhookDelivery.id, (run[0] as { id: number }).id))
		expect(first?.leaseUntil).toBe(1900)
		await store.release('R')
		await store.release('S')
	})

	it('asks for a name once a few seconds, and checks the answer at every use', async () => {
		let asked = 0
		let clock = 0
		const lookup = cachedLookup(
			async () => {
				asked++
				return [{ address: '10.1.2.3', family: 4 }]
			},
			5000,
			() => clock,
		)
		const url = checkUrlForm('https://hooks.example/x', { allowHttp: false, allowedHosts: [] })
		const allowed = { allowHttp: false, allowedHosts: ['10.0.0.0/8'] }
		expect(await resolveTarget(url, allowed, lookup)).toBe('10.1.2.3')
		expect(await resolveTarget(url, allowed, lookup)).toBe('10.1.2.3')
		expect(asked).toBe(1)
		// The remembered answer is still held to the rules: without the allow-list it is refused.
		await expect(resolveTarget(url, { allowHttp: false, allowedHosts: [] }, lookup)).rejects.toBeInstanceOf(
			UrlRefused,
		)
		clock = 5000
		await resolveTarget(url, allowed, lookup)
		expect(asked).toBe(2)
	})
	it('judges each answer by its own addresses: what it knew of one address does not pass another', async () => {
		let answer = '93.184.216.34'
		const policy = { allowHttp: false, allowedHosts: ['10.9.0.0/16'] }
		const resolve = targetResolver(policy, async () => [{ address: answer, family: 4 }])
		const url = checkUrlForm('https://hooks.example/x', policy)
		expect(await resolve(url)).toBe('93.184.216.34')
		answer = '127.0.0.1'
		await expect(resolve(url)).rejects.toThrow(URL_INTERNAL)
		answer = '10.9.1.1'
		expect(await resolve(url)).toBe('10.9.1.1')
		answer = '93.184.216.34'
		expect(await resolve(url)).toBe('93.184.216.34')
		answer = '127.0.0.1'
		await expect(resolve(url)).rejects.toThrow(URL_INTERNAL)
		// The list changed: what it said of an address is worked out again.
		policy.allowedHosts = ['127.0.0.0/8']
		expect(await resolve(url)).toBe('127.0.0.1')
	})
	it('claims off the pending index in its order: no sort of the pending rows, however many', async () => {
		// Last: the plan's statement is left open on the connection, which a write would trip on.
		const plan = await h.db.all<{ detail: string }>(
			sql`EXPLAIN QUERY PLAN ${claimStatement('o', 64, 5, 5, 128)}`,
		)
		const steps = plan.map((r) => r.detail)
		const reads = steps.filter((d) => /^(SCAN|SEARCH) (webhook_delivery|x|d|hd)\b/.test(d))
		expect(reads.length).toBeGreaterThan(0)
		for (const step of reads) expect(step).toMatch(/webhook_delivery_pending|INTEGER PRIMARY KEY/)
		// One sort only: the few ready pairs by due time. A pair's next rows are read off the index
		// up to the run's length, not all numbered and sorted (which cost a claim in proportion to the
		// whole backlog).
		expect(steps.filter((d) => d.includes('TEMP B-TREE'))).toEqual(['USE TEMP B-TREE FOR ORDER BY'])
	})
})
