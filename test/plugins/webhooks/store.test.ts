import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type DatabaseHandle, openDatabase } from '../../../db/client'
import { company } from '../../../db/schema'
import { backoffMs, nextAttemptAt, retryAfterMs } from '../../../plugins/webhooks/backoff'
import { openSecret, sealSecret } from '../../../plugins/webhooks/secrets'
import { checkUrlForm, isInternalAddress, resolveTarget } from '../../../plugins/webhooks/ssrf'
import { type Claimed, WebhookStore } from '../../../plugins/webhooks/store'
import { webhookEndpoint } from '../../../plugins/webhooks/tables'

/**
 * The outbox's claims as several gateways on one database make them: two processes' own connections
 * (two handles on one file) claiming at once never get one delivery both, never two of one endpoint
 * and userbot, and a lease that ran out passes the delivery on (the old holder's outcome is refused).
 */
describe('claiming deliveries', () => {
	let dir: string
	let a: DatabaseHandle
	let b: DatabaseHandle
	let endpointId: number
	beforeAll(async () => {
		dir = mkdtempSync(join(tmpdir(), 'ubg-claims-'))
		const url = `file:${join(dir, 'app.db')}`
		a = await openDatabase(url)
		b = await openDatabase(url)
		const [c] = await a.db.insert(company).values({ name: 'hooks' }).returning()
		const [e] = await a.db
			.insert(webhookEndpoint)
			.values({ companyId: c!.id, url: 'https://93.184.216.34/', events: '[]', secret: 'v1.x.y' })
			.returning()
		endpointId = e!.id
		const store = new WebhookStore(a.db)
		// 10 userbots, 5 events each, stored in order.
		for (let n = 0; n < 5; n++)
			for (let ub = 1; ub <= 10; ub++)
				await store.record(
					{
						companyId: c!.id,
						userbotId: ub,
						seq: n + 1,
						type: 't',
						data: '{}',
						dedupeKey: `${ub}:${n}`,
						at: 1000,
					},
					[endpointId],
				)
	})
	afterAll(() => {
		a.close()
		b.close()
		rmSync(dir, { recursive: true, force: true })
	})

	it('gives each delivery to one claimant, and one per endpoint and userbot: the oldest', async () => {
		const sa = new WebhookStore(a.db)
		const sb = new WebhookStore(b.db)
		const [x, y] = await Promise.all([sa.claim('A', 100, 2000, 10_000), sb.claim('B', 100, 2000, 10_000)])
		const all = [...(x as Claimed[]), ...(y as Claimed[])]
		expect(all.length).toBe(10)
		expect(new Set(all.map((c) => c.id)).size).toBe(10)
		expect(new Set(all.map((c) => c.userbotId)).size).toBe(10)
		// Each is its userbot's first event (ids 1..10 were stored first).
		expect(all.map((c) => c.id).sort((p, q) => p - q)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
		expect(await sa.claim('A', 100, 2000, 10_000)).toEqual([])
		// Settled by its holder: the userbot's next is claimable; by another: refused.
		const mine = (x as Claimed[])[0] ?? (y as Claimed[])[0]
		const holder = (x as Claimed[]).includes(mine as Claimed) ? 'A' : 'B'
		const attempt = { at: 2000, code: 200, body: null, error: null }
		expect(
			await sa.settle(mine as Claimed, holder === 'A' ? 'B' : 'A', attempt, { status: 'delivered' }),
		).toBe(false)
		expect(await sa.settle(mine as Claimed, holder, attempt, { status: 'delivered' })).toBe(true)
		const next = await sb.claim('B', 100, 2000, 10_000)
		expect(next.map((c) => c.userbotId)).toEqual([(mine as Claimed).userbotId])
		expect(next[0]?.id).toBe((mine?.id as number) + 10)
	})

	it('passes a delivery on when its lease ran out, and the old holder cannot settle it', async () => {
		const sa = new WebhookStore(a.db)
		const sb = new WebhookStore(b.db)
		expect(await sb.claim('B2', 100, 5000, 10_000)).toEqual([])
		const taken = await sb.claim('B2', 100, 12_001, 10_000)
		expect(taken.length).toBe(10)
		const attempt = { at: 12_001, code: 500, body: null, error: null }
		expect(await sa.settle(taken[0] as Claimed, 'A', attempt, { status: 'delivered' })).toBe(false)
		await sb.release('B2')
		expect((await sa.claim('A', 100, 12_002, 10_000)).length).toBe(10)
	})
})

describe('claiming runs', () => {
	it('leases the oldest deliveries of a pair in order, and gives back the rest of a run', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'ubg-runs-'))
		const h = await openDatabase(`file:${join(dir, 'app.db')}`)
		try {
			const [c] = await h.db.insert(company).values({ name: 'runs' }).returning()
			const [e] = await h.db
				.insert(webhookEndpoint)
				.values({ companyId: c!.id, url: 'https://93.184.216.34/', events: '[]', secret: 'v1.x.y' })
				.returning()
			const store = new WebhookStore(h.db)
			await store.recordMany(
				[1, 2, 3, 4, 5].map((n) => ({
					event: { companyId: c!.id, userbotId: 9, seq: n, type: 't', data: '{}', dedupeKey: `k${n}`, at: 1 },
					endpointIds: [e!.id],
				})),
			)
			// The same key again (another gateway's sighting): no second delivery.
			await store.recordMany([
				{
					event: { companyId: c!.id, userbotId: 9, seq: 1, type: 't', data: '{}', dedupeKey: 'k1', at: 1 },
					endpointIds: [e!.id],
				},
			])
			const run = await store.claim('A', 10, 2, 1000, 3)
			expect(run.map((r) => r.id)).toEqual([1, 2, 3])
			expect(await store.claim('B', 10, 2, 1000, 3)).toEqual([])
			await store.release('A', [2, 3])
			// The head is still leased: nothing of the pair is claimable until it settles.
			expect(await store.claim('B', 10, 2, 1000, 3)).toEqual([])
			const attempt = { at: 2, code: 200, body: null, error: null }
			expect(await store.settle(run[0] as Claimed, 'A', attempt, { status: 'delivered' })).toBe(true)
			expect((await store.claim('B', 10, 2, 1000, 3)).map((r) => r.id)).toEqual([2, 3, 4])
		} finally {
			h.close()
			rmSync(dir, { recursive: true, force: true })
		}
	})
})

describe('webhook pieces', () => {
	it('backs off with full jitter from the base, doubling, capped', () => {
		const cfg = { retryBaseMs: 5000, retryCapMs: 3600_000 }
		expect(backoffMs(1, cfg, () => 0.999999)).toBe(4999)
		expect(backoffMs(2, cfg, () => 0.5)).toBe(5000)
		expect(backoffMs(30, cfg, () => 0.5)).toBe(1800_000)
		expect(backoffMs(3, cfg, () => 0)).toBe(0)
		expect(nextAttemptAt(1, { at: 10, retryAfter: 9e9 }, cfg, Math.random)).toBe(10 + 3600_000)
		expect(retryAfterMs(429, '7', 0)).toBe(7000)
		expect(retryAfterMs(503, new Date(60_000).toUTCString(), 0)).toBe(60_000)
		expect(retryAfterMs(500, '7', 0)).toBeNull()
		expect(retryAfterMs(429, 'soon', 0)).toBeNull()
	})

	it('classifies internal addresses, IPv4 inside IPv6 too', () => {
		for (const a of [
			'10.0.0.1',
			'127.0.0.1',
			'169.254.169.254',
			'192.168.1.1',
			'100.64.0.1',
			'0.0.0.0',
			'::1',
		])
			expect({ a, internal: isInternalAddress(a) }).toEqual({ a, internal: true })
		for (const a of ['::ffff:10.0.0.1', '64:ff9b::a00:1', 'fe80::1', 'fd00:ec2::254', 'ff02::1', '239.1.1.1'])
			expect({ a, internal: isInternalAddress(a) }).toEqual({ a, internal: true })
		for (const a of ['93.184.216.34', '2606:4700::1111', '8.8.8.8'])
			expect({ a, internal: isInternalAddress(a) }).toEqual({ a, internal: false })
	})

	it('lets WEBHOOK_ALLOWED_HOSTS name hosts and CIDRs', async () => {
		const lookup = async () => [{ address: '10.9.8.7', family: 4 }]
		const url = checkUrlForm('https://internal.corp/hook', { allowHttp: false, allowedHosts: [] })
		await expect(resolveTarget(url, { allowHttp: false, allowedHosts: [] }, lookup)).rejects.toThrow()
		expect(await resolveTarget(url, { allowHttp: false, allowedHosts: ['internal.corp'] }, lookup)).toBe(
			'10.9.8.7',
		)
		expect(await resolveTarget(url, { allowHttp: false, allowedHosts: ['10.0.0.0/8'] }, lookup)).toBe(
			'10.9.8.7',
		)
	})

	it('seals a secret to its endpoint: another row or data key does not open it', async () => {
		const key = Buffer.alloc(32, 1).toString('base64url')
		const sealed = await sealSecret(key, 7, 'whsec_abc')
		expect(sealed).not.toContain('abc')
		expect(await openSecret(key, 7, sealed)).toBe('whsec_abc')
		await expect(openSecret(key, 8, sealed)).rejects.toThrow()
		await expect(openSecret(Buffer.alloc(32, 2).toString('base64url'), 7, sealed)).rejects.toThrow()
	})
})
