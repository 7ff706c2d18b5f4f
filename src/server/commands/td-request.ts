import { lstatSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { RuntimeError } from '../../runtime/telegram/types'
import { isObject } from './fields'
import { checkTdFunction } from './td-function'
import { TdObjectError } from './td-validator'
import { isSafeUploadName, uploadsDir } from './uploads'

/**
 * The one check of a TDLib request on its way to TDLib, made by the gateway before it sends a
 * command's request and again by the shard that receives it over the bus (a gateway's bug, or a
 * stolen gateway credential and key, gets no further than the gateway itself would have let it):
 * - the method is one the sender declared (a command's `methods`, or a lifecycle step's);
 * - the request is a TDLib 1.8.65 function's, every field of its type, every nested object a
 *   constructor of its field's type (the same walk as the client-object validator), depth and size
 *   bounded;
 * - no object names a file on the server's disk (`inputFileLocal`, `inputFileGenerated`), but for
 *   an `inputFileLocal` whose path is an uploaded file of this very userbot
 *   (`DATA_DIR/tdlib/<id>/uploads/<name>`, a regular file, not a symlink).
 */
export const UNDECLARED_METHOD = 'undeclared TDLib method'
export const INVALID_REQUEST = 'invalid TDLib request'
export { UNKNOWN_METHOD } from './td-function'

export interface RequestCheck {
	userbotId: number
	/** The methods the sender may send. */
	methods: ReadonlySet<string> | readonly string[] | ((method: string) => boolean)
	/** Where uploads are: the data folder every gateway and shard of a deployment shares. */
	dataDir: string
	/** The backend is the emulator: its own methods (test controls, not TDLib's) skip the schema. */
	emulator?: boolean
}

/** Throws `RuntimeError('bad_request')` with one of the two messages above; never echoes the request. */
export function checkTdRequest(request: unknown, check: RequestCheck): void {
	const method = isObject(request) ? request._ : undefined
	if (typeof method !== 'string') throw new RuntimeError('bad_request', INVALID_REQUEST)
	const m = check.methods
	const declared =
		typeof m === 'function'
			? m(method)
			: Array.isArray(m)
				? m.includes(method)
				: (m as ReadonlySet<string>).has(method)
	if (!declared) throw new RuntimeError('bad_request', UNDECLARED_METHOD)
	if (check.emulator && /^emulator[A-Z]/.test(method)) return
	const folder = uploadsDir(check.dataDir, check.userbotId)
	try {
		checkTdFunction(request as Record<string, unknown>, method, {
			localFile: (path) => isUploadedFile(folder, path),
			extra: true,
		})
	} catch (err) {
		if (err instanceof TdObjectError) throw new RuntimeError('bad_request', INVALID_REQUEST)
		throw err
	}
}

function isUploadedFile(folder: string, path: unknown): boolean {
	if (typeof path !== 'string' || dirname(path) !== folder) return false
	const name = basename(path)
	if (!isSafeUploadName(name) || join(folder, name) !== path) return false
	try {
		return lstatSync(path).isFile()
	} catch {
		return false
	}
}
