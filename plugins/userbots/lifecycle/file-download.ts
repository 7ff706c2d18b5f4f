import { createHash } from 'node:crypto'
import { realpath } from 'node:fs/promises'
import { basename, join, sep } from 'node:path'
import type * as Td from 'tdlib-types'
import { READ_PART_BYTES, TdError, type TdMethod, type TdRequest, within } from 'userbot-gateway/plugin'
import { UserbotError } from './errors'
import { mapRuntimeError } from './runtime-calls'
import { userbotDir } from './uploads'

/** One TDLib call of the route, under its label (`LIFECYCLE_METHODS`: what a shard lets through). */
export type FileInvoke = (request: TdRequest<TdMethod>, label: FileLabel) => Promise<unknown>

export type FileLabel = 'userbots:file' | 'userbots:download' | 'userbots:evict' | 'userbots:read'

export interface FileLimits {
	dataDir: string
	/** The biggest file served (FILE_MAX_BYTES). */
	maxBytes: number
	/** How long to wait for the download before answering with its progress (FILE_DOWNLOAD_WAIT_MS). */
	waitMs: number
	/**
	 * The download cache (FILE_CACHE_BYTES): `fits` says whether a file of that size can be kept at
	 * all; `admit` counts the file the route is about to fetch or serve from `files/`, evicting the
	 * least recently served others past the quota (plugins/userbots/lifecycle/file-cache.ts).
	 */
	cache?: { fits(size: number): boolean; admit(fileId: number, size: number): Promise<void> }
	/**
	 * The userbot's TDLib may run on a shard on another host (a bus is configured): a file whose
	 * path is not on this host's disk is then read through TDLib (`readFilePart`) instead of 404.
	 */
	remote?: boolean
}

/** Reads `count` bytes (at most READ_PART_BYTES) of the file from `offset`, through TDLib. */
export type PartReader = (offset: number, count: number) => Promise<Uint8Array>

/** A file ready to stream (from this server's disk, or through TDLib); or a download still running. */
export type FileOutcome =
	| ({ ready: true; name: string; size: number; etag: string } & ({ path: string } | { read: PartReader }))
	| { ready: false; downloaded_size: number; expected_size: number }

export const fileErrors = {
	notFound: () => new UserbotError(404, 'File not found.', 'file_not_found'),
	tooLarge: (max: number) =>
		new UserbotError(
			413,
			`File too large: files up to ${max} bytes are served (FILE_MAX_BYTES).`,
			'file_too_large',
		),
	tooLargeForCache: () =>
		new UserbotError(
			413,
			'File too large: it does not fit in the download cache of a userbot (FILE_CACHE_BYTES).',
			'file_too_large',
		),
}

/** TDLib's 400 for a file id (`Invalid file identifier`) is our 404: the account has no such file. */
async function call(invoke: FileInvoke, request: TdRequest<TdMethod>, label: FileLabel) {
	try {
		return (await invoke(request, label)) as Td.file
	} catch (err) {
		if (err instanceof TdError && err.code === 400) throw fileErrors.notFound()
		throw mapRuntimeError(err)
	}
}

/** Opaque and stable while the file is the same: its id, size and Telegram's unique id, hashed. */
export const fileEtag = (file: Td.file): string =>
	`"${createHash('sha256')
		.update(`${file.id}:${file.size}:${file.remote.unique_id}`)
		.digest('base64url')
		.slice(0, 27)}"`

/**
 * The path TDLib gave, only if it is inside the userbot's own `files/` (downloads) or `uploads/`
 * (what it sent): never its database, never anything a client named. Links are resolved first.
 */
async function servedPath(
	dataDir: string,
	userbotId: number,
	path: string,
): Promise<{ path: string; folder: 'files' | 'uploads' } | undefined> {
	if (!path) return undefined
	let real: string
	try {
		real = await realpath(path)
	} catch {
		return undefined
	}
	for (const folder of ['files', 'uploads'] as const) {
		const root = await realpath(join(userbotDir(dataDir, userbotId), folder)).catch(() => '')
		if (root && real.startsWith(root + sep)) return { path: real, folder }
	}
	return undefined
}

/**
 * A file of the account by TDLib's id: `getFile` (unknown to the account: 404; too big: 413), then,
 * unless TDLib has it whole already, a synchronous `downloadFile` raced against `waitMs`. A download
 * still running then is left to TDLib, and its progress (a second `getFile`) answered instead. What
 * is served from or fetched into `files/` is counted in the download cache first; what the account
 * sent itself (`uploads/`) is its uploads' quota's, not the cache's.
 */
export async function fetchFile(
	invoke: FileInvoke,
	userbotId: number,
	fileId: number,
	limits: FileLimits,
): Promise<FileOutcome> {
	const file = await call(invoke, { _: 'getFile', file_id: fileId }, 'userbots:file')
	const size = Math.max(file.size, file.expected_size)
	if (size > limits.maxBytes) throw fileErrors.tooLarge(limits.maxBytes)
	const found = file.local.is_downloading_completed
		? await servedPath(limits.dataDir, userbotId, file.local.path)
		: undefined
	if (found?.folder !== 'uploads' && limits.cache) {
		if (!limits.cache.fits(size)) throw fileErrors.tooLargeForCache()
		await limits.cache.admit(fileId, size)
	}
	let path = found?.path
	// Not whole on disk yet, or not where it may be served from: TDLib fetches (or copies) it.
	if (!path) {
		const download = call(
			invoke,
			{ _: 'downloadFile', file_id: fileId, priority: 1, offset: 0, limit: 0, synchronous: true },
			'userbots:download',
		)
		// Left running when the wait is over: its later failure is nobody's answer.
		download.catch(() => undefined)
		const done = await within<Td.file | undefined>(download, limits.waitMs, undefined)
		if (!done?.local.is_downloading_completed) {
			const now = await call(invoke, { _: 'getFile', file_id: fileId }, 'userbots:file')
			return { ready: false, downloaded_size: now.local.downloaded_size, expected_size: now.expected_size }
		}
		path = (await servedPath(limits.dataDir, userbotId, done.local.path))?.path
		if (!path && limits.remote && done.local.path) {
			// Whole in TDLib's cache on another host: its bytes come through TDLib, by file id only.
			const common = { ready: true as const, name: basename(done.local.path), etag: fileEtag(file) }
			return { ...common, size: done.size || done.expected_size, read: partReader(invoke, fileId) }
		}
		if (!path) throw fileErrors.notFound()
	}
	return {
		ready: true,
		path,
		name: basename(path),
		size: file.size || file.expected_size,
		etag: fileEtag(file),
	}
}

/** `readFilePart` of one file, each answer checked: base64 bytes, no more than were asked. */
function partReader(invoke: FileInvoke, fileId: number): PartReader {
	return async (offset, count) => {
		const request = {
			_: 'readFilePart',
			file_id: fileId,
			offset,
			count: Math.min(count, READ_PART_BYTES),
		} as const
		let answer: unknown
		try {
			answer = await invoke(request, 'userbots:read')
		} catch (err) {
			throw mapRuntimeError(err)
		}
		const data = (answer as { data?: unknown } | null)?.data
		const bytes = typeof data === 'string' ? Buffer.from(data, 'base64') : undefined
		if (!bytes || bytes.length > request.count) throw new Error('readFilePart answered no data')
		return bytes
	}
}
