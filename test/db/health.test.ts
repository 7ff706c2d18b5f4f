import { afterEach, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Client, createClient } from '@libsql/client'
import { probeDatabase } from '../../db/health'

/**
 * The probe on a real SQLite file: a one-connection client, so a pragma set on it holds for the
 * probe (query_only for a database that refuses writes, max_page_count for one that may not grow).
 */
const dirs: string[] = []
const clients: Client[] = []
afterEach(() => {
	for (const c of clients.splice(0)) c.close()
	for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

async function database(): Promise<Client> {
	const dir = mkdtempSync(join(tmpdir(), 'ubg-health-'))
	dirs.push(dir)
	const client = createClient({ url: `file:${join(dir, 'app.db')}`, concurrency: 1 })
	clients.push(client)
	await client.execute(
		'create table rate_limit (key text primary key, count integer not null, window_start integer not null)',
	)
	return client
}

describe('probeDatabase', () => {
	it('says ok when a write commits, again and again', async () => {
		const client = await database()
		expect(await probeDatabase(client)).toBe('ok')
		expect(await probeDatabase(client)).toBe('ok')
		const rows = await client.execute('select key from rate_limit')
		expect(rows.rows.map((r) => r.key)).toEqual(['health:probe'])
	})

	it('says read-only when reads work but the write is refused', async () => {
		const client = await database()
		await client.execute('pragma query_only = 1')
		expect(await probeDatabase(client)).toBe('read-only')
	})

	it('says full when the database may not grow for its write', async () => {
		const client = await database()
		const [row] = (await client.execute('pragma page_count')).rows
		await client.execute(`pragma max_page_count = ${Number(row?.[0]) + 1}`)
		// Fill the pages until SQLite refuses even rows smaller than the probe's: then it finds no room.
		let n = 0
		for (const pad of [200, 20, 0]) {
			for (;;) {
				const key = `${n++}${'x'.repeat(pad)}`
				const ok = await client.execute({ sql: 'insert into rate_limit values (?, 1, 0)', args: [key] }).then(
					() => true,
					() => false,
				)
				if (!ok) break
			}
		}
		expect(await probeDatabase(client)).toBe('full')
	})

	it('says unavailable when not even a read answers', async () => {
		const client = await database()
		client.close()
		expect(await probeDatabase(client)).toBe('unavailable')
	})
})
