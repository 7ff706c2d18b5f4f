import { mkdir, readdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
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

export function storedName(clientName: string): string {
	const ext = SAFE_EXTENSION.exec(clientName)?.[1]?.toLowerCase()
	const id = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('hex')
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

/** Bytes the userbot's uploads folder holds now (0 when it has none). */
async function folderBytes(dir: string): Promise<number> {
	const names = await readdir(dir).catch(() => [] as string[])
	const sizes = await Promise.all(
		names.map((n) =>
			stat(join(dir, n)).then(
				(s) => s.size,
				() => 0,
			),
		),
	)
	return sizes.reduce((a, b) => a + b, 0)
}

export async function saveUpload(
	dataDir: string,
	userbotId: number,
	file: File,
	limits: { maxBytes: number; quotaBytes: number },
): Promise<{ file: string; size: number }> {
	if (file.size > limits.maxBytes) throw tooLarge(limits.maxBytes)
	const dir = uploadsDir(dataDir, userbotId)
	if ((await folderBytes(dir)) + file.size > limits.quotaBytes) throw overQuota(limits.quotaBytes)
	await mkdir(dir, { recursive: true, mode: 0o700 })
	const name = storedName(file.name)
	await Bun.write(join(dir, name), file)
	return { file: name, size: file.size }
}

export async function removeUserbotFolders(dataDir: string, userbotId: number): Promise<void> {
	await rm(userbotDir(dataDir, userbotId), { recursive: true, force: true })
}
