import { LibsqlError } from '@libsql/client/web'
import { DrizzleQueryError } from 'drizzle-orm'

/**
 * Failures of the storage under the server rather than of the request: the disk is full, or the
 * database cannot be written (read-only, an I/O error, locked by another process past the busy
 * timeout), or a libSQL server cannot be reached at all (refused, reset, timed out, its WebSocket
 * or HTTP stream failed or closed). They answer 507 and 503 with a sentence of ours, not 500: the
 * client did nothing wrong and may try again, and an operator reading the log sees what to fix.
 * Drizzle wraps the driver's error (`cause`), and libSQL its transport's, so the whole chain is read.
 */
export type StorageFailure = 'full' | 'unavailable'

/** SQLite's "database or disk is full", and the file system's no-space, over-quota and too-large. */
const FULL = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT', 'EFBIG'])
const UNAVAILABLE = /^(SQLITE_(READONLY|IOERR|CANTOPEN|BUSY|NOTADB|CORRUPT)|EROFS$|EIO$)/
/**
 * A libSQL server out of reach: the socket's errors (Node's names, and Bun's for its fetch and
 * sockets), and the client's own codes for a failed or closed WebSocket or HTTP stream, a 5xx from
 * the server, and a client already closed (the app shutting down under a request).
 */
const UNREACHABLE = new Set([
	'ECONNREFUSED',
	'ECONNRESET',
	'ECONNABORTED',
	'ETIMEDOUT',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'ENETDOWN',
	'EPIPE',
	'EAI_AGAIN',
	'ConnectionRefused',
	'ConnectionClosed',
	'ConnectionReset',
	'FailedToOpenSocket',
	'HRANA_WEBSOCKET_ERROR',
	'HRANA_CLOSED_ERROR',
	'SERVER_ERROR',
	'CLIENT_CLOSED',
])
const MAX_DEPTH = 5

export function storageFailure(err: unknown): StorageFailure | null {
	let current: unknown = err
	// A socket's error says "database" only under the database client's own error (a refused SMTP
	// server or main server is not the database).
	let database = false
	for (let depth = 0; depth < MAX_DEPTH && current instanceof Error; depth++) {
		database ||= current instanceof DrizzleQueryError || current instanceof LibsqlError
		const code = 'code' in current && typeof current.code === 'string' ? current.code : ''
		if (FULL.has(code)) return 'full'
		if (UNAVAILABLE.test(code) || (database && UNREACHABLE.has(code))) return 'unavailable'
		current = current.cause
	}
	return null
}

export const STORAGE_FULL = {
	detail: 'The server has run out of storage space; try again later.',
	code: 'storage_full',
} as const
export const DATABASE_UNAVAILABLE = {
	detail: 'The database cannot be reached or written right now; try again later.',
	code: 'database_unavailable',
} as const

/** The status and body that answer a storage failure, or null when `err` is none. */
export function storageAnswer(
	err: unknown,
): { status: 507; body: typeof STORAGE_FULL } | { status: 503; body: typeof DATABASE_UNAVAILABLE } | null {
	const failure = storageFailure(err)
	if (failure === 'full') return { status: 507, body: STORAGE_FULL }
	if (failure === 'unavailable') return { status: 503, body: DATABASE_UNAVAILABLE }
	return null
}
