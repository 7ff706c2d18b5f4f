import type { Client } from '@libsql/client'

/**
 * What `/health` says of the database: `ok`, `read-only` (it answers reads but refuses writes),
 * `full` (writes fail for lack of space) or `unavailable` (not even a read). A read alone would
 * call a database that can no longer take a login, a registration or a delete "ok", so the probe
 * commits one small write: a row of its own in `rate_limit`, whose sweep and keys
 * (`login:`, `reset-ip:`, ...) never meet it.
 */
export type DatabaseHealth = 'ok' | 'read-only' | 'full' | 'unavailable'

const PROBE = `insert into rate_limit (key, count, window_start) values ('health:probe', 1, ?)
	on conflict (key) do update set count = 1, window_start = excluded.window_start`

export async function probeDatabase(client: Client, now: number = Date.now()): Promise<DatabaseHealth> {
	try {
		await client.execute('select 1')
	} catch {
		return 'unavailable'
	}
	try {
		await client.execute({ sql: PROBE, args: [now] })
		return 'ok'
	} catch (err) {
		return codeChain(err).includes('SQLITE_FULL') ? 'full' : 'read-only'
	}
}

function codeChain(err: unknown): string[] {
	const codes: string[] = []
	for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
		if ('code' in e && typeof e.code === 'string') codes.push(e.code)
	}
	return codes
}
