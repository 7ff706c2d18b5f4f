import { mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Client, createClient } from '@libsql/client'
import { drizzle, type LibSQLDatabase } from 'drizzle-orm/libsql'
import { migrate } from 'drizzle-orm/libsql/migrator'
import { type LeaseOptions, withMigrationLease } from './migration-lease'
import * as schema from './schema'
import { serializeWrites } from './serialize-writes'

export type Database = LibSQLDatabase<typeof schema>
export type Schema = typeof schema

export interface DatabaseHandle {
	db: Database
	client: Client
	close(): void
}

const BUSY_TIMEOUT_MS = 5000
const MIGRATIONS = join(dirname(fileURLToPath(import.meta.url)), 'migrations')

/**
 * The database could not be opened, migrated or seeded. The message is one line of our own: where
 * (a file's path, a server's origin, never its credentials) and the driver's reason, never a
 * query's parameters. The driver's error stays in `cause`.
 */
export class DatabaseOpenError extends Error {
	override name = 'DatabaseOpenError'
}

/**
 * Opens the database (embedded `file:` libSQL by default, a libSQL server by URL), applies the
 * committed migrations and seeds the work statuses, one process at a time (db/migration-lease.ts).
 * Every caller gets its own handle: no globals.
 */
export async function openDatabase(
	url: string,
	authToken?: string,
	lease?: LeaseOptions,
	/** Plugins' own migrations (a plugin's `migrations` folder), applied after the core's, each in its own table. */
	pluginMigrations: ReadonlyArray<{ id: string; folder: string }> = [],
): Promise<DatabaseHandle> {
	let client: Client | undefined
	try {
		if (url.startsWith('file:')) mkdirSync(dirname(url.slice('file:'.length)), { recursive: true })
		// `timeout` is the busy timeout of every pooled connection (a PRAGMA would reach only one), for
		// writers in other processes; writers of this process take turns (serialize-writes.ts).
		const raw = createClient({ url, authToken, timeout: BUSY_TIMEOUT_MS })
		// Remote libSQL servers queue writers themselves; the embedded driver needs us to.
		client = url.startsWith('file:') ? serializeWrites(raw) : raw
		if (url.startsWith('file:')) {
			// WAL lets readers run beside the writer.
			await client.execute('PRAGMA journal_mode = WAL')
			await client.execute('PRAGMA foreign_keys = ON')
			await client.execute('PRAGMA synchronous = NORMAL')
		}
		const db = drizzle(client, { schema })
		// Replicas start together: one migrates and seeds, the others wait and find it done.
		await withMigrationLease(
			client,
			async () => {
				await migrate(db, { migrationsFolder: MIGRATIONS })
				for (const { id, folder } of pluginMigrations)
					await migrate(db, { migrationsFolder: folder, migrationsTable: pluginMigrationsTable(id) })
				await db
					.insert(schema.statusOnWork)
					.values([...schema.SEED_STATUSES])
					.onConflictDoNothing()
			},
			lease,
		)
		const opened = client
		return { db, client: opened, close: () => opened.close() }
	} catch (err) {
		client?.close()
		throw new DatabaseOpenError(`database ${placeOf(url)}: ${reasonOf(err)}`, { cause: err })
	}
}

/** Where a plugin's applied migrations are recorded: its own table beside drizzle's. */
export function pluginMigrationsTable(id: string): string {
	return `__drizzle_migrations_${id.replace(/[^A-Za-z0-9_]/g, '_')}`
}

/** A file's path, or a server's origin without its credentials or query. */
function placeOf(url: string): string {
	if (url.startsWith('file:')) return url.slice('file:'.length)
	try {
		return new URL(url).origin
	} catch {
		return 'at DATABASE_URL'
	}
}

/** The driver's own words in one line; drizzle's query errors carry SQL and parameters, their cause does not. */
function reasonOf(err: unknown): string {
	const driver = err instanceof Error && err.message.startsWith('Failed query') ? err.cause : err
	const text = driver instanceof Error ? driver.message : String(driver)
	const first = (text.split(/\r?\n/)[0] ?? '').trim()
	// The embedded driver's way of saying it could not open the file at all.
	const open = /^ConnectionFailed\(".*: (\d+)"\)$/.exec(first)
	if (open) return `cannot open the database file (SQLite result code ${open[1]})`
	return first.length > 300 ? `${first.slice(0, 300)}...` : first || 'unknown error'
}
