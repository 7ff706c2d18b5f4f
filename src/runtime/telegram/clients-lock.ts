import { Database } from 'bun:sqlite'
import { chmodSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Whether TDLib clients run on a data folder: every process that runs them (a supervisor child)
 * holds a shared lock on `DATA_DIR/tdlib/.clients.lock` for its whole life, and `backup` asks for
 * the exclusive one. The lock is SQLite's (a read transaction, a POSIX record lock underneath, as
 * the emulated cloud's `cloud.lock`): the kernel drops it when its process ends in any way, so a
 * killed server leaves nothing stale, and while `backup` holds it a starting child waits for it.
 * Nothing is ever written to that database.
 */
export const CLIENTS_LOCK = '.clients.lock'

export interface HeldLock {
	release(): void
}

function open(tdlibDir: string): Database {
	mkdirSync(tdlibDir, { recursive: true, mode: 0o700 })
	const file = join(tdlibDir, CLIENTS_LOCK)
	const db = new Database(file, { create: true })
	chmodSync(file, 0o600)
	return db
}

function holding(db: Database, end: string): HeldLock {
	return {
		release() {
			try {
				db.exec(end)
			} finally {
				db.close()
			}
		},
	}
}

/**
 * The lock of a process that runs clients, beside any other such process. Waits up to `waitMs` for
 * a backup that holds the folder (below the 15 s the supervisor gives a child to be ready); throws
 * when that is not enough.
 */
export function holdClientsLock(tdlibDir: string, waitMs = 10_000): HeldLock {
	const db = open(tdlibDir)
	try {
		db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(waitMs))}`)
		db.exec('BEGIN')
		// A read takes the shared lock, and the open transaction keeps it.
		db.query('SELECT count(*) FROM sqlite_master').get()
	} catch (err) {
		db.close()
		if ((err as { code?: string }).code === 'SQLITE_BUSY') {
			throw new Error(`a backup has held ${join(tdlibDir, CLIENTS_LOCK)} for over ${waitMs} ms`)
		}
		throw err
	}
	return holding(db, 'COMMIT')
}

/** The whole folder, when no process runs clients on it; `undefined` while one does. */
export function tryExclusiveClientsLock(tdlibDir: string): HeldLock | undefined {
	const db = open(tdlibDir)
	try {
		db.exec('BEGIN EXCLUSIVE')
	} catch (err) {
		db.close()
		if ((err as { code?: string }).code === 'SQLITE_BUSY') return undefined
		throw err
	}
	return holding(db, 'ROLLBACK')
}
