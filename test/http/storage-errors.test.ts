import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Client, createClient, LibsqlError } from '@libsql/client'
import { DrizzleQueryError } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/libsql'
import { sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { Elysia } from 'elysia'
import { createLogger } from '../../src/common/util/logger'
import { errorHandler } from '../../src/server/http/errors'
import { storageFailure } from '../../src/server/http/storage-errors'

/**
 * Real failures of real storage: ENOSPC from writing to /dev/full, SQLITE_FULL from an SQLite
 * database that may not grow (max_page_count, on a one-connection client so the pragma holds),
 * SQLITE_READONLY from one switched to query_only. Each is classified, and the app's error
 * handler answers it 507 or 503 with our own sentence, not 500.
 */
const dir = mkdtempSync(join(tmpdir(), 'ubg-storage-'))
let client: Client
const notes = sqliteTable('notes', { body: text('body') })
beforeAll(async () => {
	client = createClient({ url: `file:${join(dir, 'full.db')}`, concurrency: 1 })
	await client.execute('create table notes (body text)')
	await client.execute('create table spare (body text)')
})
afterAll(() => {
	client.close()
	rmSync(dir, { recursive: true, force: true })
})

/** Fills the database up to a page limit; resolves with the error SQLite gave. */
async function fillUp(): Promise<unknown> {
	const [row] = (await client.execute('pragma page_count')).rows
	await client.execute(`pragma max_page_count = ${Number(row?.[0]) + 2}`)
	for (let i = 0; i < 1000; i++) {
		try {
			await client.execute({ sql: 'insert into notes values (?)', args: ['x'.repeat(2000)] })
		} catch (err) {
			return err
		}
	}
	throw new Error('the database never filled up')
}

async function caught(fn: () => Promise<unknown>): Promise<unknown> {
	try {
		await fn()
	} catch (err) {
		return err
	}
	throw new Error('expected a failure')
}

describe('storageFailure', () => {
	it('calls a disk with no space, and a database that may not grow, full', async () => {
		expect(storageFailure(await caught(() => writeFile('/dev/full', 'x')))).toBe('full')
		const sqliteFull = await fillUp()
		expect(storageFailure(sqliteFull)).toBe('full')
		// Drizzle wraps the driver's error in its own: the cause is read.
		const wrapped = await caught(() =>
			drizzle(client)
				.insert(notes)
				.values({ body: 'y'.repeat(5000) }),
		)
		expect(wrapped).not.toBe(sqliteFull)
		expect(storageFailure(wrapped)).toBe('full')
	})

	it('calls a database that refuses writes unavailable, and leaves other failures alone', async () => {
		await client.execute('pragma query_only = 1')
		const readOnly = await caught(() => client.execute("insert into spare values ('z')"))
		await client.execute('pragma query_only = 0')
		expect(storageFailure(readOnly)).toBe('unavailable')
		expect(storageFailure(await caught(() => client.execute('select * from missing')))).toBeNull()
		expect(storageFailure(new Error('boom'))).toBeNull()
		expect(storageFailure('not an error')).toBeNull()
	})
})

describe('storageFailure and an unreachable libSQL server', () => {
	it('reads a refused or failed connection as unavailable under the database client, and only there', () => {
		const refused = Object.assign(new TypeError('Unable to connect'), { code: 'ECONNREFUSED' })
		expect(storageFailure(new DrizzleQueryError('select 1', [], refused))).toBe('unavailable')
		expect(storageFailure(new LibsqlError('WebSocket failed', 'HRANA_WEBSOCKET_ERROR'))).toBe('unavailable')
		// A refused connection elsewhere (an SMTP server, the main server) says nothing of the database.
		expect(storageFailure(refused)).toBeNull()
		expect(storageFailure(new Error('mail', { cause: refused }))).toBeNull()
	})
})

describe('errorHandler', () => {
	it('answers a storage failure with 507 or 503 and our own sentence, never its message', async () => {
		const full = await caught(() => writeFile('/dev/full', 'x'))
		await client.execute('pragma query_only = 1')
		const readOnly = await caught(() => client.execute("insert into spare values ('z')"))
		await client.execute('pragma query_only = 0')
		const lines: string[] = []
		const app = new Elysia()
			.use(errorHandler(createLogger('error', {}, (l) => lines.push(l))))
			.get('/full', () => {
				throw full
			})
			.get('/read-only', () => {
				throw readOnly
			})
		const a = await app.handle(new Request('http://localhost/full'))
		expect(a.status).toBe(507)
		expect(await a.json()).toEqual({
			detail: 'The server has run out of storage space; try again later.',
			code: 'storage_full',
		})
		const b = await app.handle(new Request('http://localhost/read-only'))
		expect(b.status).toBe(503)
		expect(await b.json()).toEqual({
			detail: 'The database cannot be reached or written right now; try again later.',
			code: 'database_unavailable',
		})
		// The operator still reads what happened.
		expect(lines.filter((l) => l.includes('storage failure'))).toHaveLength(2)
	})
})
