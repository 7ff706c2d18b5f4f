import { afterAll, describe, expect, it } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@libsql/client'
import { readMigrationFiles } from 'drizzle-orm/migrator'
import { SEED_STATUSES } from '../../db/schema'
import { runToEnd, type ServerProcess, startServerProcess } from '../build/server-process'
import { type SqldServer, startSqld } from '../helpers-sqld'

/**
 * Replicas start together (a Kubernetes rollout, a systemd template, a compose file): five real
 * processes started at once on one fresh database, four servers and one `migrate`. Every one comes
 * up (or exits 0), the schema is applied once, and the secrets generated into the shared DATA_DIR
 * are one set (a token from one server is good on the others).
 */
const ROOT = join(import.meta.dir, '..', '..')
const MAIN = join(ROOT, 'src', 'entry', 'main.ts')
const MIGRATIONS = readMigrationFiles({ migrationsFolder: join(ROOT, 'db', 'migrations') })
const dirs: string[] = []
afterAll(() => {
	for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

async function startFive(env: Record<string, string>) {
	const base = {
		PATH: process.env.PATH ?? '',
		HOME: tmpdir(),
		PORT: '0',
		TDLIB_BACKEND: 'emulator',
		LOG_LEVEL: 'info',
		...env,
	}
	const cmd = (...args: string[]) => [process.execPath, '--no-env-file', MAIN, ...args]
	const servers = Array.from({ length: 4 }, () => startServerProcess(cmd(), { cwd: ROOT, env: base }))
	const migrate = runToEnd(cmd('migrate'), { cwd: ROOT, env: base })
	const started = await Promise.allSettled(servers)
	const running = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []))
	return { started, running, migrated: await migrate }
}

async function check(outcome: Awaited<ReturnType<typeof startFive>>, databaseUrl: string): Promise<void> {
	const { started, running, migrated } = outcome
	try {
		expect(started.map((s) => (s.status === 'rejected' ? String(s.reason) : 'listening'))).toEqual(
			Array(4).fill('listening'),
		)
		expect({ code: migrated.code, stderr: migrated.stderr }).toEqual({ code: 0, stderr: '' })
		expect(migrated.stdout).toStartWith('migrations applied: ')
		const db = createClient({ url: databaseUrl })
		try {
			const applied = await db.execute('select hash from __drizzle_migrations order by id')
			expect(applied.rows.map((r) => r.hash)).toEqual(MIGRATIONS.map((m) => m.hash))
			const statuses = await db.execute('select code from status_on_work order by code')
			expect(statuses.rows.map((r) => r.code)).toEqual(SEED_STATUSES.map((s) => s.code).sort())
		} finally {
			db.close()
		}
		// One account, registered through the first server, logs in and is known on every other.
		const [first] = running as [ServerProcess]
		const email = `together-${Date.now()}@example.com`
		const password = 'Correct-Horse-42'
		const post = (url: string, path: string, body: unknown) =>
			fetch(`${url}${path}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body),
			})
		expect(
			(await post(first.url, '/accounts/register/', { email, password, first_name: 'A', last_name: 'B' }))
				.status,
		).toBe(201)
		const pair = (await (await post(first.url, '/accounts/token/', { email, password })).json()) as {
			access: string
		}
		for (const server of running) {
			const me = await fetch(`${server.url}/accounts/me/`, {
				headers: { authorization: `Bearer ${pair.access}` },
			})
			expect(me.status).toBe(200)
		}
		for (const server of running)
			expect(server.output()).not.toMatch(/"level":"error"|startup error|already exists/)
		// Every migrator gave its lease back.
		const after = createClient({ url: databaseUrl })
		try {
			expect((await after.execute('select count(*) as n from __ubg_migration_lease')).rows[0]?.n).toBe(0)
		} finally {
			after.close()
		}
	} finally {
		await Promise.all(running.map((s) => s.stop()))
	}
}

describe('five processes started at once on one fresh database', () => {
	it('on the embedded file in one DATA_DIR: all serve, the schema applied once, one set of secrets', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'ubg-together-'))
		dirs.push(dir)
		await check(await startFive({ DATA_DIR: dir }), `file:${join(dir, 'app.db')}`)
	}, 90_000)

	it('on a libSQL server (sqld): all serve, the schema applied once', async () => {
		const root = mkdtempSync(join(tmpdir(), 'ubg-together-sqld-'))
		dirs.push(root)
		let sqld: SqldServer | undefined
		try {
			sqld = await startSqld(join(root, 'sqld'))
			const data = join(root, 'data')
			mkdirSync(data, { mode: 0o700 })
			await check(await startFive({ DATA_DIR: data, DATABASE_URL: sqld.url }), sqld.url)
		} finally {
			await sqld?.stop()
		}
	}, 90_000)
})
