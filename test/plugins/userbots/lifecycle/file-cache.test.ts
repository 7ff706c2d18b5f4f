import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type DatabaseHandle, openDatabase } from '../../../../db/client'
import { company, userbot } from '../../../../db/schema'
import { createFileCache } from '../../../../plugins/userbots/lifecycle/file-cache'
import { createLogger } from '../../../../src/common/util/logger'

/** The download cache's accounting on a real libSQL file: order, quota, and admissions at once. */
let dir: string
let handle: DatabaseHandle
const log = createLogger('silent')

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), 'ubg-file-cache-'))
	handle = await openDatabase(`file:${join(dir, 'app.db')}`)
	await handle.db.insert(company).values({ id: 1, name: 'c' })
	for (const id of [1, 2, 3, 4])
		await handle.db.insert(userbot).values({ id, companyId: 1, encryptionKey: 'k' })
})
afterAll(() => {
	handle.close()
	rmSync(dir, { recursive: true, force: true })
})

/** An evictor that records what it was asked to delete, in order. */
const evictions = () => {
	const evicted: number[] = []
	return { evicted, evict: async (id: number) => void evicted.push(id) }
}

describe('createFileCache', () => {
	it('evicts the least recently served files, oldest first, until the new one fits', async () => {
		const cache = createFileCache(handle.db, 100, log)
		const { evicted, evict } = evictions()
		await cache.admit(1, 10, 40, evict)
		await cache.admit(1, 11, 40, evict)
		// Served again: file 10 is now the most recent one.
		await cache.admit(1, 10, 40, evict)
		expect(evicted).toEqual([])
		await cache.admit(1, 12, 30, evict)
		expect(evicted).toEqual([11])
		expect(await cache.list(1)).toEqual([
			{ fileId: 10, size: 40 },
			{ fileId: 12, size: 30 },
		])
		await cache.admit(1, 13, 100, evict)
		expect(evicted).toEqual([11, 10, 12])
		expect(await cache.list(1)).toEqual([{ fileId: 13, size: 100 }])
		expect(cache.fits(100)).toBe(true)
		expect(cache.fits(101)).toBe(false)
	})

	it('never lets two downloads at once both pass the quota', async () => {
		const cache = createFileCache(handle.db, 100, log)
		const { evicted, evict } = evictions()
		// Both are admitted before either finished: each must see the other counted.
		await Promise.all([cache.admit(2, 1, 60, evict), cache.admit(2, 2, 60, evict)])
		expect(evicted).toHaveLength(1)
		const kept = await cache.list(2)
		expect(kept).toHaveLength(1)
		expect(kept.reduce((n, r) => n + r.size, 0)).toBeLessThanOrEqual(100)
	})

	it('keeps the row of a file it could not evict, and evicts it at the next admission', async () => {
		const cache = createFileCache(handle.db, 100, log)
		await cache.admit(3, 1, 60, async () => {})
		await cache.admit(3, 2, 60, async () => {
			throw new Error('client stopped')
		})
		expect((await cache.list(3)).map((r) => r.fileId)).toEqual([1, 2])
		const { evicted, evict } = evictions()
		await cache.admit(3, 3, 30, evict)
		expect(evicted).toEqual([1])
		expect((await cache.list(3)).map((r) => r.fileId)).toEqual([2, 3])
	})

	it('counts each userbot on its own', async () => {
		const cache = createFileCache(handle.db, 50, log)
		const { evicted, evict } = evictions()
		await cache.admit(4, 1, 50, evict)
		await cache.admit(1, 99, 0, evict)
		expect(evicted).toEqual([13])
		expect(await cache.list(4)).toEqual([{ fileId: 1, size: 50 }])
	})
})
