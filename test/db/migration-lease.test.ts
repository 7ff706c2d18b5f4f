import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@libsql/client'
import { readMigrationFiles } from 'drizzle-orm/migrator'
import { type DatabaseHandle, openDatabase } from '../../db/client'
import { type SqldServer, startSqld } from '../helpers-sqld'

/**
 * The migrations run under a lease (db/migration-lease.ts): five openings at once on one fresh
 * database each step in turn with the others (their reads all before any of their writes, the
 * order in which drizzle's migrator alone fails with `table ... already exists`), a waiter waits
 * for the holder, and a lease left by a crashed migrator does not block for ever.
 */
const MIGRATIONS = readMigrationFiles({
	migrationsFolder: join(import.meta.dir, '..', '..', 'db', 'migrations'),
})
const root = mkdtempSync(join(tmpdir(), 'ubg-lease-'))
let sqld: SqldServer
let files = 0
const freshFile = () => {
	const dir = join(root, `db-${++files}`)
	mkdirSync(dir)
	return `file:${join(dir, 'app.db')}`
}

beforeAll(async () => {
	sqld = await startSqld(join(root, 'sqld'))
}, 30_000)
afterAll(async () => {
	await sqld?.stop()
	rmSync(root, { recursive: true, force: true })
})

async function appliedHashes(url: string): Promise<unknown[]> {
	const db = createClient({ url })
	try {
		return (await db.execute('select hash from __drizzle_migrations order by id')).rows.map((r) => r.hash)
	} finally {
		db.close()
	}
}

async function openFive(url: string): Promise<string[]> {
	const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => openDatabase(url)))
	for (const o of outcomes) if (o.status === 'fulfilled') o.value.close()
	return outcomes.map((o) => (o.status === 'fulfilled' ? 'opened' : String(o.reason)))
}

describe('migrations under a lease', () => {
	it('five openings at once on a fresh file: all open, each migration applied once', async () => {
		const url = freshFile()
		expect(await openFive(url)).toEqual(Array(5).fill('opened'))
		expect(await appliedHashes(url)).toEqual(MIGRATIONS.map((m) => m.hash))
	})

	it('five openings at once on a fresh database of a libSQL server: all open, each migration applied once', async () => {
		// sqld keeps one database per server: this test has it fresh (the other tests use files).
		expect(await openFive(sqld.url)).toEqual(Array(5).fill('opened'))
		expect(await appliedHashes(sqld.url)).toEqual(MIGRATIONS.map((m) => m.hash))
	})

	it('waits while another process holds the lease, and migrates once it is given back', async () => {
		// A fresh database, with the lease held by "another process" for an hour.
		const url2 = freshFile()
		const other = createClient({ url: url2 })
		await other.execute(
			'create table __ubg_migration_lease (id integer primary key check (id = 1), holder text not null, expires_at integer not null)',
		)
		await other.execute({
			sql: `insert into __ubg_migration_lease values (1, 'elsewhere:1', cast((julianday('now') - 2440587.5) * 86400000 as integer) + 3600000)`,
			args: [],
		})
		let waited: () => void = () => {}
		const waiting = new Promise<void>((resolve) => {
			waited = resolve
		})
		const holders: string[] = []
		const opening = openDatabase(url2, undefined, {
			onWait(holder) {
				holders.push(holder)
				waited()
			},
		})
		let handle: DatabaseHandle | undefined
		try {
			await waiting
			expect(holders[0]).toBe('elsewhere:1')
			// Nothing was migrated while the lease was held elsewhere.
			const tables = await other.execute("select name from sqlite_master where name = 'company'")
			expect(tables.rows).toHaveLength(0)
			await other.execute("delete from __ubg_migration_lease where holder = 'elsewhere:1'")
			handle = await opening
			expect(await appliedHashes(url2)).toEqual(MIGRATIONS.map((m) => m.hash))
		} finally {
			handle?.close()
			other.close()
		}
	})

	it('takes over a lease that a crashed migrator left to expire', async () => {
		const url = freshFile()
		const other = createClient({ url })
		await other.execute(
			'create table __ubg_migration_lease (id integer primary key check (id = 1), holder text not null, expires_at integer not null)',
		)
		// Expired a second ago: its holder stopped renewing it.
		await other.execute(
			`insert into __ubg_migration_lease values (1, 'crashed:1', cast((julianday('now') - 2440587.5) * 86400000 as integer) - 1000)`,
		)
		const holders: string[] = []
		const handle = await openDatabase(url, undefined, { onWait: (h) => holders.push(h) })
		try {
			expect(holders).toEqual([])
			expect(await appliedHashes(url)).toEqual(MIGRATIONS.map((m) => m.hash))
			expect((await other.execute('select count(*) as n from __ubg_migration_lease')).rows[0]?.n).toBe(0)
		} finally {
			handle.close()
			other.close()
		}
	})
})
