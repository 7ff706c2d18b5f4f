import { functionFields, TD_SCHEMA } from '../../runtime/telegram/schema'
import { checkValue, MAX_NODES, TdObjectError, type TdSlot, type Walk } from './td-validator'

/**
 * A whole TDLib request checked against TDLib 1.8.65's schema, with nothing of the server's disk:
 * what the gateway's check of a command's request (td-request.ts) and `td_invoke` share. It reads no
 * file itself (whether a local path may go is the caller's `localFile`), so the REST-only edge build
 * can carry the plugin entry that exports it.
 */

export const UNKNOWN_METHOD = 'unknown TDLib method'

/** Every constructor but the one that generates a file on the server (`inputFileLocal` is checked by path). */
const ANY_CONSTRUCTOR: TdSlot = {
	type: 'request',
	allowed: new Set(Object.keys(TD_SCHEMA.constructors).filter((c) => c !== 'inputFileGenerated')),
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
