import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import type { Client } from '@libsql/client'

/**
 * One migrator at a time, across every process and machine on one database (replicas of a
 * deployment start together: a Kubernetes rollout, a systemd template, a compose file).
 *
 * drizzle's migrator reads the last applied migration, then runs the missing ones in one
 * transaction: two processes at once both read "none" and the second fails on `table ... already
 * exists`. So the migrations run under a lease: a row in `__ubg_migration_lease`, taken with one
 * atomic upsert (only when there is none or it has expired), renewed while the holder works, and
 * deleted when it is done. The others wait for their own turn and find nothing left to do.
 *
 * A lease, not a lock held by a connection: a libSQL server over HTTP holds no session across
 * requests, and a migrator that crashed must not block the others for ever, so a lease that is not
 * renewed expires. Time is the database's clock (the one clock every machine shares here).
 */

export interface LeaseOptions {
	/** How long a lease lasts unless renewed (default 30 s); renewed every third of it. */
	leaseMs?: number
	/** How long to wait for another migrator before giving up (default 10 minutes). */
	maxWaitMs?: number
	/** Called each time the lease is found held by another (tests: the moment a waiter waits). */
	onWait?(holder: string): void
}

const TABLE = '__ubg_migration_lease'
const NOW_MS = `cast((julianday('now') - 2440587.5) * 86400000 as integer)`

const CREATE = `create table if not exists ${TABLE} (
	id integer primary key check (id = 1),
	holder text not null,
	expires_at integer not null
)`

/** Takes the lease when there is none or it has expired; `rowsAffected` says whether it was taken. */
const TAKE = `insert into ${TABLE} (id, holder, expires_at) values (1, ?, ${NOW_MS} + ?)
	on conflict (id) do update set holder = excluded.holder, expires_at = excluded.expires_at
	where ${TABLE}.expires_at < ${NOW_MS}`

const RENEW = `update ${TABLE} set expires_at = ${NOW_MS} + ? where id = 1 and holder = ?`
const RELEASE = `delete from ${TABLE} where id = 1 and holder = ?`
const HOLDER = `select holder from ${TABLE} where id = 1`

export class MigrationWaitError extends Error {
	override name = 'MigrationWaitError'
}

/** Runs `work` while holding the database's migration lease; waits for it as long as another holds it. */
export async function withMigrationLease<T>(
	client: Client,
	work: () => Promise<T>,
	opts: LeaseOptions = {},
): Promise<T> {
	const leaseMs = opts.leaseMs ?? 30_000
	const maxWaitMs = opts.maxWaitMs ?? 600_000
	const me = `${hostname()}:${process.pid}:${randomBytes(6).toString('hex')}`
	await client.execute(CREATE)
	const started = Date.now()
	for (let attempt = 0; ; attempt++) {
		const taken = await client.execute({ sql: TAKE, args: [me, leaseMs] })
		if (taken.rowsAffected === 1) break
		if (Date.now() - started > maxWaitMs) {
			throw new MigrationWaitError(
				`another process has been migrating the database for over ${Math.round(maxWaitMs / 1000)} s`,
			)
		}
		const row = await client.execute(HOLDER)
		opts.onWait?.(String(row.rows[0]?.holder ?? ''))
		// Short at first (a migration here takes milliseconds), never hammering a remote server. (No
		// Bun.sleep: the REST half runs on Deno too.)
		await new Promise((resolve) => setTimeout(resolve, Math.min(500, 20 * 2 ** Math.min(attempt, 5))))
	}
	const renewal = setInterval(
		() => {
			client.execute({ sql: RENEW, args: [leaseMs, me] }).catch(() => undefined)
		},
		Math.max(10, Math.floor(leaseMs / 3)),
	)
	try {
		return await work()
	} finally {
		clearInterval(renewal)
		await client.execute({ sql: RELEASE, args: [me] }).catch(() => undefined)
	}
}
