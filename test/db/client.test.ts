import { describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../db/client'
import { company } from '../../db/schema'

describe('openDatabase', () => {
	it('lets concurrent write transactions wait for each other instead of failing with SQLITE_BUSY', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'ubg-db-'))
		const handle = await openDatabase(`file:${join(dir, 'app.db')}`)
		try {
			// Each transaction holds its own pooled connection across an await, as the routes' do.
			const outcomes = await Promise.allSettled(
				Array.from({ length: 8 }, (_, i) =>
					handle.db.transaction(async (tx) => {
						await tx.insert(company).values({ name: `c${i}` })
						await Bun.sleep(20)
						await tx.insert(company).values({ name: `c${i}-b` })
					}),
				),
			)
			expect(
				outcomes
					.filter((o) => o.status === 'rejected')
					.map((o) => String((o as PromiseRejectedResult).reason)),
			).toEqual([])
			const rows = await handle.db.select().from(company)
			expect(rows).toHaveLength(16)
		} finally {
			handle.close()
			rmSync(dir, { recursive: true, force: true })
		}
	})

	it('lets a plain write wait for an open write transaction, while reads go on', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'ubg-db-'))
		const handle = await openDatabase(`file:${join(dir, 'app.db')}`)
		try {
			let release = () => {}
			const gate = new Promise<void>((resolve) => {
				release = resolve
			})
			const inTx = handle.db.transaction(async (tx) => {
				await tx.insert(company).values({ name: 'first' })
				await gate
			})
			await Bun.sleep(10)
			// Drizzle builds lazily: `then` sends the insert now, while the transaction holds the lock.
			const plain = handle.db
				.insert(company)
				.values({ name: 'second' })
				.then(() => 'written')
			// A read does not wait for the transaction, and sees only what was committed.
			expect(await handle.db.select().from(company)).toEqual([])
			release()
			expect(await Promise.all([inTx, plain])).toEqual([undefined, 'written'])
			expect((await handle.db.select().from(company)).map((c) => c.name)).toEqual(['first', 'second'])
		} finally {
			handle.close()
			rmSync(dir, { recursive: true, force: true })
		}
	})

	it('enforces foreign keys on every pooled connection', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'ubg-db-'))
		const handle = await openDatabase(`file:${join(dir, 'app.db')}`)
		try {
			const held = await handle.client.transaction('write')
			// A second transaction gets a connection of its own.
			const other = await handle.client.transaction('read')
			expect((await other.execute('PRAGMA foreign_keys')).rows[0]?.[0]).toBe(1)
			await other.commit()
			await held.rollback()
		} finally {
			handle.close()
			rmSync(dir, { recursive: true, force: true })
		}
	})
})
