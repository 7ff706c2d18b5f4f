import { lstatSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { functionFields, TD_SCHEMA } from '../telegram/schema/index'
import { RuntimeError } from '../telegram/types'
import { isObject } from './fields'
import { checkValue, MAX_NODES, TdObjectError, type TdSlot, type Walk } from './td-validator'
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
export const UNKNOWN_METHOD = 'unknown TDLib method'

/** Every constructor but the one that generates a file on the server (`inputFileLocal` is checked by path). */
const ANY_CONSTRUCTOR: TdSlot = {
	type: 'request',
	allowed: new Set(Object.keys(TD_SCHEMA.constructors).filter((c) => c !== 'inputFileGenerated')),
}

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

export interface FunctionCheck {
	/** Whether an `inputFileLocal`'s path may go to TDLib; absent: never. */
	localFile?: (path: unknown) => boolean
	/** `@extra` (the runtime's own tag of a request) is let through. */
	extra?: boolean
	/** The field the request is in, which the messages name (`request.chat_id must be an integer`). */
	path?: string
}

/**
 * Checks a whole TDLib request, a `method`'s object, against TDLib 1.8.65's schema: every key a
 * field of the function, every value of its field's type, every nested object a constructor of its
 * field's type (the client-object validator's walk: any constructor but `inputFileGenerated`, an
 * `inputFileLocal` only where `localFile` says), depth and size bounded. Returns it in tdl's form,
 * rebuilt from the checked fields only. Throws `TdObjectError` naming the field's path, never a value;
 * a `method` that is not TDLib's is `unknown TDLib method`.
 */
export function checkTdFunction(
	request: Record<string, unknown>,
	method: string,
	opts: FunctionCheck = {},
): Record<string, unknown> {
	const fields = functionFields(method)
	if (!fields) throw new TdObjectError(UNKNOWN_METHOD)
	if (Object.hasOwn(request, '_') && Object.hasOwn(request, '@type') && request._ !== request['@type'])
		throw new TdObjectError(`${opts.path ?? 'request'} has two different types in @type and _`)
	const walk: Walk = {
		slot: ANY_CONSTRUCTOR,
		nodes: 0,
		...(opts.localFile ? { localFile: opts.localFile } : {}),
	}
	for (const key of Object.keys(request)) {
		if (key === '_' || key === '@type' || (opts.extra && key === '@extra')) continue
		if (!fields.some(([f]) => f === key))
			throw new TdObjectError(
				opts.path ? `${opts.path}: unknown field for ${method}` : `${method}: unknown field`,
			)
	}
	const out: Record<string, unknown> = { _: method }
	for (const [field, kind] of fields) {
		const raw = request[field]
		if (raw === undefined || raw === null) continue
		out[field] = checkValue(raw, kind, opts.path ? `${opts.path}.${field}` : field, 1, walk)
		if (walk.nodes > MAX_NODES) throw new TdObjectError(`${opts.path ?? method} is too large`)
	}
	return out
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
