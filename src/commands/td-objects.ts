import type { formattedText$Input, textEntity$Input } from 'tdlib-types'
import { CommandError } from './define'
import { isObject, type JsonObject } from './fields'

/**
 * Helpers that turn protocol objects into TDLib request objects (tdlib-mapping §0). Clients write
 * the raw td_json discriminator `@type`; tdl writes `_`. Both are accepted everywhere.
 */

export const LOCAL_FILE_REFUSED = 'media must be a URL, a remote file id or an uploaded file'

/** The discriminator of a client object, whichever key carries it. */
export function typeOf(x: unknown): string | undefined {
	if (!isObject(x)) return undefined
	const t = x._ ?? x['@type']
	return typeof t === 'string' ? t : undefined
}

/**
 * `T(x)`: a string `'blockListMain'` becomes `{_: 'blockListMain'}`; an object has `@type` rewritten
 * to `_`, recursively. Any input file inside that names a path on the server's disk (or one TDLib
 * would generate from a local path) is refused: a client must never make the server send its own
 * files (contract §6).
 */
export function toTd(x: unknown): unknown {
	if (typeof x === 'string') return { _: x }
	return normalize(x, 0)
}

function normalize(x: unknown, depth: number): unknown {
	if (depth > 16) throw new CommandError('object is nested too deeply')
	if (Array.isArray(x)) return x.map((i) => normalize(i, depth + 1))
	if (!isObject(x)) return x
	const out: JsonObject = {}
	for (const key of Object.keys(x)) {
		if (key === '@type' || key === '@extra' || key === '@client_id') continue
		out[key] = normalize(x[key], depth + 1)
	}
	const type = typeOf(x)
	if (type !== undefined) out._ = type
	if (type === 'inputFileLocal' || type === 'inputFileGenerated') throw new CommandError(LOCAL_FILE_REFUSED)
	if (type === 'inputFileRemote' && !isRemoteFileRef(out.id)) throw new CommandError(LOCAL_FILE_REFUSED)
	return out
}

const URL_RE = /^https?:\/\/[^\s/]+/i
/** Telegram remote file ids are URL-safe base64 (with optional padding). */
const REMOTE_ID_RE = /^[A-Za-z0-9_-]{8,}={0,2}$/

/** An http(s) URL or a Telegram remote file id: what `inputFileRemote` may carry. */
export function isRemoteFileRef(x: unknown): x is string {
	return typeof x === 'string' && (URL_RE.test(x) || REMOTE_ID_RE.test(x))
}

export type FormattedText = formattedText$Input

/** `FT(s, e)`: a string with optional entities, or an object that already is a `formattedText`. */
export function formattedText(text: unknown, entities?: unknown): FormattedText {
	if (isObject(text) && typeOf(text) === 'formattedText') {
		const t = toTd(text) as JsonObject
		return {
			_: 'formattedText',
			text: typeof t.text === 'string' ? t.text : '',
			entities: Array.isArray(t.entities) ? (t.entities as textEntity$Input[]) : [],
		}
	}
	return {
		_: 'formattedText',
		text: typeof text === 'string' ? text : text === undefined || text === null ? '' : String(text),
		entities: Array.isArray(entities) ? (toTd(entities) as textEntity$Input[]) : [],
	}
}
