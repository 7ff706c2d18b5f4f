import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { createKeyedQueue } from 'userbot-gateway/plugin'
import { UserbotError } from './errors'

/**
 * A userbot's folders: TDLib's database and files under `<DATA_DIR>/tdlib/<id>/`, and the media
 * its users uploaded under `uploads/` beside them, so deleting the userbot removes all of it. The
 * gateway resolves a command's `{upload: name}` media into the same folder.
 */
export const userbotDir = (dataDir: string, userbotId: number) => join(dataDir, 'tdlib', String(userbotId))
export const uploadsDir = (dataDir: string, userbotId: number) =>
	join(userbotDir(dataDir, userbotId), 'uploads')

/** Stored names are random; only a short alphanumeric extension survives from the client's name. */
const SAFE_EXTENSION = /\.([a-z0-9]{1,10})$/i
/** A file being written. The leading dot keeps it out of reach of commands (isSafeUploadName). */
const PARTIAL_PREFIX = '.partial-'

const randomHex = () => Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('hex')

export function storedName(clientName: string): string {
	const ext = SAFE_EXTENSION.exec(clientName)?.[1]?.toLowerCase()
	const id = randomHex()
	return ext ? `${id}.${ext}` : id
}

export const tooLarge = (maxBytes: number) =>
	new UserbotError(413, `File too large: the limit is ${maxBytes} bytes.`, 'file_too_large')

export const overQuota = (quotaBytes: number) =>
	new UserbotError(
		413,
		`Upload quota exceeded: a userbot's uploads may take ${quotaBytes} bytes in all; delete the userbot's old media or raise UPLOAD_QUOTA_BYTES.`,
		'quota_exceeded',
	)

export const overCompanyQuota = (quotaBytes: number) =>
	new UserbotError(
		413,
		`Upload quota exceeded: the uploads of a company's userbots may take ${quotaBytes} bytes in all; delete a userbot's old media or raise COMPANY_UPLOAD_QUOTA_BYTES.`,
		'company_quota_exceeded',
	)

/** What an upload needs of the multipart file: a `File`, or anything that streams its bytes. */
export interface UploadSource {
	name: string
	size: number
	stream(): ReadableStream<Uint8Array>
}

export interface UploadLimits {
	maxBytes: number
	/** One userbot's uploads together. */
	quotaBytes: number
	/** All the uploads of one company's userbots together. */
	companyQuotaBytes: number
}

export interface UploadStore {
	/**
	 * Stores `file` for `userbotId` of `companyId` under a random name. `userbotIds` are the company's
	 * live userbots (the company quota counts their folders). Refused with 413 past the size limit
	 * or a quota; a write that fails leaves no file behind.
	 */
	save(
		companyId: number,
		userbotId: number,
		file: UploadSource,
		userbotIds: () => Promise<readonly number[]>,
	): Promise<{ file: string; size: number }>
}

/**
 * The uploads of one company take turns: each is measured against both quotas and written in one
 * turn, so concurrent uploads cannot all pass a check made before any of them was on disk ("a
 * limit checked and then written in two steps is no limit"). Different companies write side by
 * side. In its turn an upload also finds every partial file of the company's folders stale (a
 * write cut short by a crash) and removes it.
 */
export function createUploadStore(dataDir: string, limits: UploadLimits): UploadStore {
	const inTurn = createKeyedQueue()
	return {
		async save(companyId, userbotId, file, userbotIds) {
			if (file.size > limits.maxBytes) throw tooLarge(limits.maxBytes)
			return inTurn(`company:${companyId}`, async () => {
				const own = await folderBytes(uploadsDir(dataDir, userbotId))
				if (own + file.size > limits.quotaBytes) throw overQuota(limits.quotaBytes)
				let company = own
				for (const id of new Set(await userbotIds())) {
					if (id !== userbotId) company += await folderBytes(uploadsDir(dataDir, id))
				}
				if (company + file.size > limits.companyQuotaBytes) throw overCompanyQuota(limits.companyQuotaBytes)
				const dir = uploadsDir(dataDir, userbotId)
				await mkdir(dir, { recursive: true, mode: 0o700 })
				const name = storedName(file.name)
				const size = await writeWhole(dir, name, file, limits.maxBytes)
				return { file: name, size }
			})
		},
	}
}

/**
 * Writes `file` to a partial name and renames it into place once whole; any failure (a full disk,
 * a source that breaks off, a source longer than it said) removes the partial file.
 */
async function writeWhole(dir: string, name: string, file: UploadSource, maxBytes: number): Promise<number> {
	const partial = join(dir, `${PARTIAL_PREFIX}${randomHex()}`)
	const handle = await open(partial, 'wx', 0o600)
	let written = 0
	try {
		try {
			for await (const chunk of file.stream()) {
				written += chunk.byteLength
				if (written > file.size || written > maxBytes) throw tooLarge(maxBytes)
				// A write may take fewer bytes than given (a disk filling up) without failing.
				for (let at = 0; at < chunk.byteLength; ) {
					const { bytesWritten } = await handle.write(chunk, at, chunk.byteLength - at)
					if (bytesWritten <= 0) throw new Error('the upload could not be written')
					at += bytesWritten
				}
			}
		} finally {
			await handle.close()
		}
		if (written !== file.size) throw new Error('the upload ended before its announced size')
		await rename(partial, join(dir, name))
		return written
	} catch (err) {
		await rm(partial, { force: true })
		throw err
	}
}

/**
 * Bytes the uploads folder holds now (0 when it has none). Called in its company's turn, when no
 * write is under way there: a partial file it meets was left by a crash, and is removed.
 */
async function folderBytes(dir: string): Promise<number> {
	const names = await readdir(dir).catch(() => [] as string[])
	const sizes = await Promise.all(
		names.map(async (name) => {
			const path = join(dir, name)
			if (!name.startsWith(PARTIAL_PREFIX))
				return stat(path).then(
					(s) => s.size,
					() => 0,
				)
			await rm(path, { force: true })
			return 0
		}),
	)
	return sizes.reduce((a, b) => a + b, 0)
}

export async function removeUserbotFolders(dataDir: string, userbotId: number): Promise<void> {
	await rm(userbotDir(dataDir, userbotId), { recursive: true, force: true })
}

/** What `storedName` makes: 32 hex digits, and perhaps a short extension. */
const STORED_NAME = /^[0-9a-f]{32}(\.[a-z0-9]{1,10})?$/

/** One upload by the name `save` gave it; any other name removes nothing. */
export async function removeUpload(dataDir: string, userbotId: number, name: string): Promise<void> {
	if (!STORED_NAME.test(name)) return
	await rm(join(uploadsDir(dataDir, userbotId), name), { force: true })
}

/** The uploads alone: the first space a delete gives back, before anything else that could fail. */
export async function removeUploads(dataDir: string, userbotId: number): Promise<void> {
	await rm(uploadsDir(dataDir, userbotId), { recursive: true, force: true })
}
