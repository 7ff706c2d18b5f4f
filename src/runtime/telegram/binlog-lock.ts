import { closeSync, existsSync, openSync } from 'node:fs'
import { join } from 'node:path'
import { TdError } from './types'

/**
 * TDLib's lock on a client's folder, the last fence that keeps an account from running in two
 * processes at once (docs/shards.md#one-owner-per-account).
 *
 * TDLib 1.8.65 opens the folder's `td.binlog` and takes a POSIX write lock on the whole file
 * (`fcntl(F_SETLK)`, `F_WRLCK`: tdutils' `FileFd::lock`, called by `Binlog::init`), tried 100 times
 * 100 ms apart; a second client of the same process waits on an in-process list the same way. Then
 * it refuses its parameters with 400 `Can't lock file "<path>", because it is already in use; check
 * for another program instance running` (or `..., because it is already in use by current program`)
 * and stays waiting for them. The emulator takes the same lock the same way (`lockFolder`), and a
 * supervisor child asks who holds it before it starts a client (`folderHolder`).
 *
 * POSIX record locks belong to a process: closing any descriptor of the file releases every lock
 * the process holds on it. So `folderHolder` (which opens and closes one) is never asked about a
 * folder whose client this process still has open or closing; the child makes sure of that.
 */
export const BINLOG = 'td.binlog'

/** TDLib's words for a binlog another process holds. */
export const heldByAnotherProcess = (path: string) =>
	`Can't lock file "${path}", because it is already in use; check for another program instance running`
/** TDLib's words for one another client of this process holds. */
export const heldInThisProcess = (path: string) =>
	`Can't lock file "${path}", because it is already in use by current program`

/** Whether a refusal is TDLib's (or the emulator's) for a folder locked by someone else. */
export const isLockRefusal = (err: unknown) =>
	err instanceof TdError && err.code === 400 && err.message.startsWith("Can't lock file ")

/** How TDLib tries: 100 times, 100 ms apart (tdutils FileFd.cpp). */
const TRIES = 100
export const LOCK_PAUSE_MS = 100

// Linux's fcntl and its `struct flock` (x86-64 and arm64 alike: l_type and l_whence shorts, then
// l_start, l_len as 64-bit offsets, l_pid; 32 bytes).
const F_GETLK = 5
const F_SETLK = 6
const F_WRLCK = 1
const F_UNLCK = 2
const EACCES = 13
const EAGAIN = 11
const FLOCK_BYTES = 32

interface Libc {
	fcntl(fd: number, cmd: number, lock: Uint8Array): number
	errno(): number
}

let libc: Libc | null | undefined

/** libc's fcntl through Bun's FFI, loaded on first use; null off Linux (no lock is taken there). */
function loadLibc(): Libc | null {
	if (libc !== undefined) return libc
	if (process.platform !== 'linux') {
		libc = null
		return libc
	}
	// Loaded on first use, by `require` (the compiled binary is CommonJS): the Deno entry imports this
	// module's importers but never runs supervisors or shards.
	const ffi = require('bun:ffi') as typeof import('bun:ffi')
	const lib = ffi.dlopen('libc.so.6', {
		fcntl: { args: [ffi.FFIType.i32, ffi.FFIType.i32, ffi.FFIType.ptr], returns: ffi.FFIType.i32 },
		__errno_location: { args: [], returns: ffi.FFIType.ptr },
	})
	libc = {
		fcntl: (fd, cmd, lock) => lib.symbols.fcntl(fd, cmd, ffi.ptr(lock)),
		errno: () => {
			const at = lib.symbols.__errno_location()
			return at === null ? 0 : ffi.read.i32(at, 0)
		},
	}
	return libc
}

/** Binlogs a client of this process holds: TDLib's in-process list of locked files. */
const lockedHere = new Set<string>()

/** A whole-file `struct flock` of `type`. */
function flock(type: number): Uint8Array {
	const bytes = new Uint8Array(FLOCK_BYTES)
	new DataView(bytes.buffer).setInt16(0, type, true)
	return bytes
}

/**
 * The process that holds the lock on the folder's binlog: its pid (0 when the file system does not
 * say, as a lock held on another host may not), or null when nobody does (or there is no binlog
 * yet). TDLib in this process is not seen (POSIX's locks do not conflict within a process), so this
 * is never asked of a folder this process has a TDLib client of (see above).
 */
export function folderHolder(databaseDirectory: string): number | null {
	return fileHolder(join(databaseDirectory, BINLOG))
}

/**
 * `folderHolder` of any file: who holds a POSIX lock on all of it. One this process took with
 * `lockFile` is this process's (its descriptor is not opened again: closing it would let go).
 */
export function fileHolder(path: string): number | null {
	if (lockedHere.has(path)) return process.pid
	const c = loadLibc()
	if (!c || !existsSync(path)) return null
	const fd = openSync(path, 'r')
	try {
		const query = flock(F_WRLCK)
		if (c.fcntl(fd, F_GETLK, query) === -1) return null
		const view = new DataView(query.buffer)
		if (view.getInt16(0, true) === F_UNLCK) return null
		return Math.max(0, view.getInt32(24, true))
	} finally {
		closeSync(fd)
	}
}

/** A folder's binlog locked by this process; `release` lets go of it. */
export interface FolderLock {
	readonly path: string
	release(): void
}

/**
 * Locks the folder's binlog as TDLib does (made if missing): tried 100 times 100 ms apart, then
 * refused in TDLib's words (a `TdError` 400). `tries` is TDLib's unless a test says otherwise.
 */
export function lockFolder(databaseDirectory: string, tries = TRIES): Promise<FolderLock> {
	return lockFile(join(databaseDirectory, BINLOG), tries)
}

/** `lockFolder` of any file (made if missing): TDLib's way of locking, its words when refused. */
export async function lockFile(path: string, tries = TRIES): Promise<FolderLock> {
	for (let left = tries; lockedHere.has(path); left--) {
		if (left <= 1) throw new TdError(400, heldInThisProcess(path))
		await Bun.sleep(LOCK_PAUSE_MS)
	}
	lockedHere.add(path)
	const c = loadLibc()
	const fd = openSync(path, 'a+')
	try {
		for (let left = tries; c; left--) {
			if (c.fcntl(fd, F_SETLK, flock(F_WRLCK)) === 0) break
			const errno = c.errno()
			if (errno !== EAGAIN && errno !== EACCES) throw new TdError(400, "Can't lock file")
			if (left <= 1) throw new TdError(400, heldByAnotherProcess(path))
			await Bun.sleep(LOCK_PAUSE_MS)
		}
	} catch (err) {
		closeSync(fd)
		lockedHere.delete(path)
		throw err
	}
	let held = true
	return {
		path,
		release() {
			if (!held) return
			held = false
			// Closing the descriptor releases the process's lock on the file.
			closeSync(fd)
			lockedHere.delete(path)
		},
	}
}
