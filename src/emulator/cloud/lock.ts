import { Database } from 'bun:sqlite'
import { chmodSync } from 'node:fs'

/**
 * Who hosts the emulated cloud: the one process holding an exclusive lock on `cloud.lock`. The lock
 * is SQLite's (an open `BEGIN EXCLUSIVE` transaction on an empty database, a POSIX record lock
 * underneath): the kernel drops it when its process ends in any way, SIGKILL included, so a dead
 * host leaves nothing stale to recover, and of two processes trying at once exactly one gets it.
 * Nothing is ever written to that database.
 */
export interface CloudLock {
	release(): void
}

export function tryLock(file: string): CloudLock | undefined {
	let db: Database | undefined
	try {
		db = new Database(file, { create: true })
		chmodSync(file, 0o600)
		db.exec('BEGIN EXCLUSIVE')
	} catch (err) {
		db?.close()
		if ((err as { code?: string }).code === 'SQLITE_BUSY') return undefined
		throw err
	}
	// The handle is held here for the process's life: a Database left unreferenced is collected, and
	// its lock with it.
	const held = db
	return {
		release() {
			try {
				held.exec('ROLLBACK')
			} finally {
				held.close()
			}
		},
	}
}
