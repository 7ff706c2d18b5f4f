import {
	constructorFields,
	constructorsOf,
	type FieldKind,
	isTdClass,
	tdConstructor,
} from '../../runtime/telegram/schema'
import { CommandError } from './define'
import { isObject, type JsonObject } from './fields'
import { toInt64 } from './frame-values'

/**
 * The one validator for every TDLib object a client hands us (reply targets, send options, reply
 * markup, entities, media contents, reactions, privacy rules, block lists, rights, filters...). An
 * object is checked against TDLib 1.8.65's own schema (src/runtime/telegram/schema, generated from
 * `@prebuilt-tdlib/types` and real TDLib) before it goes anywhere near TDLib:
 * - its discriminator (`@type`, as td_json writes it, or tdl's `_`) is a string naming a TDLib
 *   constructor of the field's type: never a number (TDLib reads a number as a constructor id, which
 *   would let `{"_": 2056030919}` through as `inputFileLocal`);
 * - that constructor is on the field's allow-list (`TdSlot`), and so is every nested object's;
 *   `inputFileLocal` and `inputFileGenerated` are on none: they name files on the server's disk;
 * - every key is a field of its constructor, every value has the field's type (int32 in range,
 *   int64 as TDLib's string, base64 bytes, text without lone surrogates);
 * - depth and size are bounded.
 * The output is tdl's form (`_`), rebuilt from the checked fields only. Messages name the field's
 * path and never repeat what the client sent.
 */

/** Constructors no client may send, at any depth: they make TDLib read a path on the server's disk. */
export const NEVER_FROM_CLIENTS: readonly string[] = ['inputFileLocal', 'inputFileGenerated']

/** Objects and lists nested under one field, at most. */
export const MAX_DEPTH = 16
/** Values (objects, list items, scalars) under one field, at most. */
export const MAX_NODES = 10_000

export const LOCAL_FILE_REFUSED = 'media must be a URL, a remote file id or an uploaded file'

/** Where a client's TDLib object may go: the field's TDLib type and every constructor allowed in it. */
export interface TdSlot {
	/** A class (`InputMessageReplyTo`) or one exact constructor (`formattedText`). */
	readonly type: string
	/** Constructors allowed anywhere in the field's object tree. */
	readonly allowed: ReadonlySet<string>
}

export interface SlotOptions {
	/** Narrows the field's own constructors (the top level); default: every one of its type. */
	only?: readonly string[]
	/** Constructors refused at any depth, beside those no client may send. */
	deny?: readonly string[]
}

const objectTypes = (kind: FieldKind): string[] => {
	if (kind.kind === 'object') return [kind.type]
	if (kind.kind === 'vector') return objectTypes(kind.of)
	return []
}

/**
 * A field's allow-list, derived from the schema: its type's constructors (or `only`), then every
 * constructor their fields can hold, recursively, minus `deny` and `NEVER_FROM_CLIENTS`. Built when
 * the command is defined; a name that is not TDLib's fails there.
 */
export function tdSlot(type: string, opts: SlotOptions = {}): TdSlot {
	const own = constructorsOf(type)
	if (own.length === 0) throw new Error(`tdSlot: ${type} is not a TDLib 1.8.65 type`)
	const refused = new Set([...NEVER_FROM_CLIENTS, ...(opts.deny ?? [])])
	for (const name of [...(opts.only ?? []), ...(opts.deny ?? [])]) {
		if (!tdConstructor(name)) throw new Error(`tdSlot: ${name} is not a TDLib 1.8.65 constructor`)
	}
	for (const name of opts.only ?? []) {
		if (!own.includes(name)) throw new Error(`tdSlot: ${name} is not a constructor of ${type}`)
	}
	const allowed = new Set<string>()
	const queue = (opts.only ?? own).filter((c) => !refused.has(c))
	for (let ctor = queue.shift(); ctor; ctor = queue.shift()) {
		if (allowed.has(ctor)) continue
		allowed.add(ctor)
		for (const [, kind] of constructorFields(ctor) ?? []) {
			for (const inner of objectTypes(kind)) {
				for (const c of constructorsOf(inner)) if (!refused.has(c) && !allowed.has(c)) queue.push(c)
			}
		}
	}
	return { type, allowed }
}

/** A client object the validator refused; `message` is the wire string (`<command>_error`). */
export class TdObjectError extends CommandError {
	override name = 'TdObjectError'
}

const URL_RE = /^https?:\/\/[^\s/]+/i
/** Telegram remote file ids are URL-safe base64 (with optional padding). */
const REMOTE_ID_RE = /^[A-Za-z0-9_-]{8,}={0,2}$/

/** An http(s) URL or a Telegram remote file id: what `inputFileRemote` may carry. */
export function isRemoteFileRef(x: unknown): x is string {
	return typeof x === 'string' && (URL_RE.test(x) || REMOTE_ID_RE.test(x))
}

/** Checks on a constructor's values beyond their types. */
const REFINEMENTS: Record<string, (o: JsonObject) => string | null> = {
	inputFileRemote: (o) => (isRemoteFileRef(o.id) ? null : LOCAL_FILE_REFUSED),
	inputFileId: (o) => (typeof o.id === 'number' && o.id > 0 ? null : LOCAL_FILE_REFUSED),
}

/** The discriminator of a client object, whichever key carries it (`@type` or tdl's `_`). */
export function typeOf(x: unknown): string | undefined {
	if (!isObject(x)) return undefined
	const t = x._ ?? x['@type']
	return typeof t === 'string' ? t : undefined
}

const INT_TEXT = /^(0|-?[1-9][0-9]{0,18})$/
const INT32 = 2 ** 31
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/
/** A UTF-16 code unit of a surrogate pair without its other half: UTF-8 cannot carry it. */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

export interface Walk {
	slot: TdSlot
	nodes: number
	/** Whether an `inputFileLocal`'s path may go to TDLib (an uploaded file); absent: never. */
	localFile?: (path: unknown) => boolean
}

function integer(value: unknown, path: string, int32: boolean): number {
	// A JSON integer past 2^53 (the frame parse keeps it as a bigint) is an integer, just too big here.
	if (typeof value === 'bigint') throw new TdObjectError(`${path} is out of range`)
	let n: number | undefined
	if (typeof value === 'number' && Number.isSafeInteger(value)) n = value
	else if (typeof value === 'string' && INT_TEXT.test(value) && Number.isSafeInteger(Number(value)))
		n = Number(value)
	if (n === undefined) throw new TdObjectError(`${path} must be an integer`)
	if (int32 && (n < -INT32 || n >= INT32)) throw new TdObjectError(`${path} is out of range`)
	return n
}

export function checkValue(
	value: unknown,
	kind: FieldKind,
	path: string,
	depth: number,
	walk: Walk,
): unknown {
	if (++walk.nodes > MAX_NODES) throw new TdObjectError(`${path} is too large`)
	switch (kind.kind) {
		case 'int32':
			return integer(value, path, true)
		case 'int53':
		case 'number':
			return integer(value, path, false)
		case 'int64': {
			// TDLib writes int64 as a string: from a JSON integer of any size (past 2^53 the frame parse
			// keeps every digit) or a string of digits without leading zeros.
			const int64 = typeof value === 'string' && !INT_TEXT.test(value) ? undefined : toInt64(value)
			if (int64 === undefined) throw new TdObjectError(`${path} must be an integer`)
			return int64
		}
		case 'double':
			if (typeof value === 'bigint') return Number(value)
			if (typeof value === 'number' && Number.isFinite(value)) return value
			throw new TdObjectError(`${path} must be a number`)
		case 'string':
			if (typeof value !== 'string') throw new TdObjectError(`${path} must be a string`)
			if (LONE_SURROGATE.test(value)) throw new TdObjectError(`${path} must be valid Unicode text`)
			return value
		case 'bytes':
			if (typeof value === 'string' && BASE64.test(value)) return value
			throw new TdObjectError(`${path} must be base64`)
		case 'Bool':
			if (typeof value === 'boolean') return value
			throw new TdObjectError(`${path} must be true or false`)
		case 'vector':
			if (!Array.isArray(value)) throw new TdObjectError(`${path} must be a list`)
			if (depth >= MAX_DEPTH) throw new TdObjectError(`${path} is nested too deeply`)
			return value.map((item, i) => checkValue(item, kind.of, `${path}[${i}]`, depth + 1, walk))
		case 'object':
			return checkObject(value, kind.type, path, depth, walk)
	}
}

function checkObject(value: unknown, type: string, path: string, depth: number, walk: Walk): JsonObject {
	if (!isObject(value)) throw new TdObjectError(`${path} must be an object`)
	if (depth >= MAX_DEPTH) throw new TdObjectError(`${path} is nested too deeply`)
	const hasUnderscore = Object.hasOwn(value, '_')
	const hasAtType = Object.hasOwn(value, '@type')
	if (hasUnderscore && hasAtType && value._ !== value['@type']) {
		throw new TdObjectError(`${path} has two different types in @type and _`)
	}
	const tag = hasUnderscore ? value._ : value['@type']
	let name: string
	if (tag === undefined || tag === null) {
		// A field of one exact constructor (formattedText) may leave its type out, as TDLib reads it.
		if (isTdClass(type)) throw new TdObjectError(`${path} must have an @type`)
		name = type
	} else if (typeof tag !== 'string') {
		throw new TdObjectError(`${path}: @type must be a TDLib type name`)
	} else {
		name = tag
	}
	if (!tdConstructor(name)) throw new TdObjectError(`${path}: unknown TDLib type`)
	// Where a file goes, the one wording of docs/protocol.md#media-in-a-command for every way of naming one on
	// the server's disk.
	if (NEVER_FROM_CLIENTS.includes(name) && constructorsOf(type).includes(name)) {
		const uploaded = name === 'inputFileLocal' && walk.localFile?.(value.path) === true
		if (!uploaded) throw new TdObjectError(LOCAL_FILE_REFUSED)
	}
	// The name is TDLib's own (just checked): naming it repeats no client text.
	if (!constructorsOf(type).includes(name) || !walk.slot.allowed.has(name)) {
		throw new TdObjectError(`${path}: ${name} is not allowed here`)
	}
	const fields = constructorFields(name) ?? []
	for (const key of Object.keys(value)) {
		if (key === '_' || key === '@type') continue
		if (!fields.some(([f]) => f === key)) throw new TdObjectError(`${path}: unknown field for ${name}`)
	}
	const out: JsonObject = { _: name }
	for (const [field, kind] of fields) {
		const raw = value[field]
		// Absent and null are TDLib's zero value: the key stays out.
		if (raw === undefined || raw === null) continue
		out[field] = checkValue(raw, kind, `${path}.${field}`, depth + 1, walk)
	}
	const refused = REFINEMENTS[name]?.(out)
	if (refused) throw new TdObjectError(refused)
	return out
}

export interface CheckOptions {
	/** A bare string is shorthand for an object of that type with no fields (`"blockListMain"`). */
	strings?: boolean
}

/**
 * Checks a client's TDLib object for `slot`; returns it in tdl's form. Throws `TdObjectError`
 * whose message names `field` and the path inside it.
 */
export function checkTdObject<T = JsonObject>(
	value: unknown,
	slot: TdSlot,
	field: string,
	opts: CheckOptions = {},
): T {
	const object = opts.strings && typeof value === 'string' ? { _: value } : value
	if (!isObject(object)) {
		throw new TdObjectError(
			opts.strings ? `${field} must be a type name or an object` : `${field} must be an object`,
		)
	}
	return checkObject(object, slot.type, field, 0, { slot, nodes: 0 }) as T
}

/** As `checkTdObject` for a list of objects, each checked for `slot`. */
export function checkTdList<T = JsonObject>(
	value: unknown,
	slot: TdSlot,
	field: string,
	opts: CheckOptions = {},
): T[] {
	if (!Array.isArray(value)) throw new TdObjectError(`${field} must be a list`)
	if (value.length > MAX_NODES) throw new TdObjectError(`${field} is too large`)
	return value.map((item, i) => checkTdObject<T>(item, slot, `${field}[${i}]`, opts))
}
