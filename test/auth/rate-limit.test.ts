import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type DatabaseHandle, openDatabase } from '../../db/client'
import { createRateLimiter } from '../../src/server/auth/rate-limit'

let dir: string
let handle: DatabaseHandle
beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), 'ubg-rl-'))
	handle = await openDatabase(`file:${join(dir, 'app.db')}`)
})
afterAll(() => {
	handle.close()
	rmSync(dir, { recursive: true, force: true })
})

describe('createRateLimiter', () => {
	it('counts hits in a fixed window and opens again when it ends', async () => {
		let now = 1_000_000
		const limiter = createRateLimiter(handle.db, () => now)
		expect(await limiter.hit('k', 2, 60)).toBe(0)
		expect(await limiter.hit('k', 2, 60)).toBe(0)
		expect(await limiter.blocked('k', 2, 60)).toBe(60)
		now += 30_000
		expect(await limiter.hit('k', 2, 60)).toBe(30)
		now += 30_000
		expect(await limiter.blocked('k', 2, 60)).toBe(0)
		expect(await limiter.hit('k', 2, 60)).toBe(0)
		await limiter.reset('k')
		expect(await limiter.blocked('k', 1, 60)).toBe(0)
	})

	it('deletes rows whose window ended long ago, keeping live ones', async () => {
		let now = 5_000_000_000
		const limiter = createRateLimiter(handle.db, () => now, 3600)
		await limiter.hit('old', 5, 60)
		now += 2 * 3600 * 1000
		await limiter.hit('live', 5, 60)
		for (let i = 0; i < 300; i++) await limiter.hit('busy', 1000, 60)
		const keys = (await handle.client.execute('select key from rate_limit')).rows.map((r) => r.key)
		expect(keys).not.toContain('old')
		expect(keys).toContain('live')
	})
	it('sweeps through an index on window_start, not a scan of the table', async () => {
		const plan = await handle.client.execute({
			sql: 'explain query plan delete from rate_limit where window_start < ?',
			args: [0],
		})
		const detail = plan.rows.map((r) => String(r.detail)).join('\n')
		expect(detail).toContain('rate_limit_window_start')
		expect(detail).not.toMatch(/^SCAN rate_limit$/m)
	})
})
