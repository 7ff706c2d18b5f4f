import { lstat } from 'node:fs/promises'
import { join } from 'node:path'

/** Where a userbot's uploaded files live (`POST /api/userbots/{id}/files/` writes them). */
export function uploadsDir(dataDir: string, userbotId: number): string {
	return join(dataDir, 'tdlib', String(userbotId), 'uploads')
}

/** A bare file name: no folder separator, no parent reference, no hidden or control characters. */
export function isSafeUploadName(name: string): boolean {
	return (
		name.length > 0 &&
		name.length <= 255 &&
		!name.includes('/') &&
		!name.includes('\\') &&
		!name.includes('..') &&
		!name.startsWith('.') &&
		// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
		!/[\u0000-\u001f]/.test(name)
	)
}

/**
 * Resolves `upload:<name>` or `<name>` to the absolute path of an uploaded file of this userbot,
 * or null when the name is unsafe or no such regular file exists (a symlink does not count). The result is the only kind of
 * local path a command may hand to TDLib.
 */
export async function resolveUploadedFile(
	dataDir: string,
	userbotId: number,
	ref: string,
): Promise<string | null> {
	const name = ref.startsWith('upload:') ? ref.slice('upload:'.length) : ref
	if (!isSafeUploadName(name)) return null
	const path = join(uploadsDir(dataDir, userbotId), name)
	try {
		return (await lstat(path)).isFile() ? path : null
	} catch {
		return null
	}
}
