import { mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type Client, createClient } from '@libsql/client'
import { drizzle, type LibSQLDatabase } from 'drizzle-orm/libsql'
import { migrate } from 'drizzle-orm/libsql/migrator'
import * as schema from './schema'

export type Database = LibSQLDatabase<typeof schema>
export type Schema = typeof schema

export interface DatabaseHandle {
	db: Database
	client: Client
	close(): void
}

const MIGRATIONS = join(dirname(fileURLToPath(import.meta.url)), 'migrations')

/**
 * Opens the database (embedded `file:` libSQL by default, a libSQL server by URL), applies the
 * committed migrations and seeds the work statuses. Every caller gets its own handle: no globals.
 */
export async function openDatabase(url: string, authToken?: string): Promise<DatabaseHandle> {
	if (url.startsWith('file:')) mkdirSync(dirname(url.slice('file:'.length)), { recursive: true })
	const client = createClient({ url, authToken })
	if (url.startsWith('file:')) {
		// WAL lets readers run beside the writer; busy_timeout waits instead of failing at once.
		await client.execute('PRAGMA journal_mode = WAL')
		await client.execute('PRAGMA busy_timeout = 5000')
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
