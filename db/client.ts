import { mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Client, createClient } from '@libsql/client'
import { drizzle, type LibSQLDatabase } from 'drizzle-orm/libsql'
import { migrate } from 'drizzle-orm/libsql/migrator'
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
 * Opens the database (embedded `file:` libSQL by default, a libSQL server by URL), applies the
 * committed migrations and seeds the work statuses. Every caller gets its own handle: no globals.
 */
export async function openDatabase(url: string, authToken?: string): Promise<DatabaseHandle> {
	if (url.startsWith('file:')) mkdirSync(dirname(url.slice('file:'.length)), { recursive: true })
	// `timeout` is the busy timeout of every pooled connection (a PRAGMA would reach only one), for
	// writers in other processes; writers of this process take turns (serialize-writes.ts).
	const raw = createClient({ url, authToken, timeout: BUSY_TIMEOUT_MS })
	// Remote libSQL servers queue writers themselves; the embedded driver needs us to.
	const client = url.startsWith('file:') ? serializeWrites(raw) : raw
	if (url.startsWith('file:')) {
		// WAL lets readers run beside the writer.
		await client.execute('PRAGMA journal_mode = WAL')
		await client.execute('PRAGMA foreign_keys = ON')
		await client.execute('PRAGMA synchronous = NORMAL')
	}
	const db = drizzle(client, { schema })
	await migrate(db, { migrationsFolder: MIGRATIONS })
	await db
		.insert(schema.statusOnWork)
		.values([...schema.SEED_STATUSES])
		.onConflictDoNothing()
	return { db, client, close: () => client.close() }
}
