import * as v from 'valibot'
import { isIntegral, isMissing, toInt, toInt64 } from './frame-values'

/**
 * Field schemas whose messages are the wire error strings (docs/protocol.md#error-strings). The gateway sends
 * the first issue's message as `<command>_error`, so each helper carries its own sentence.
 *
 * valibot reports a missing key of an object with the object's message, not the field's. A required
 * field is therefore declared optional with a `null` default: valibot then runs the field's pipe on
 * `null`, and the pipe's first check says `<field> is required`. What counts as missing is decided
 * once, by `isMissing` (frame-values.ts): absent, `null`, and the empty string.
 */

/** A JSON Schema (draft-07), as plain data. */
export type JsonSchema = { [key: string]: unknown }

/** The metadata key under which a field carries what the command catalog says of it. */
export const FIELD_DOC = 'userbot-gateway/field'

/**
 * What the catalog says of a field: its JSON Schema and whether a frame must carry it. Our fields are
 * built from `v.unknown()`, checks and transforms (so that every message is a wire string), which no
 * converter can read back; each helper therefore says what it accepts. `documented()` adds to it.
 */
export interface FieldDoc {
	schema: JsonSchema
	required?: boolean
	/** Wire strings the field answers that are not a check's own message (a TDLib object field's). */
	errors?: readonly string[]
	/** The field whose path the messages name, where they are built as they go (`reply_to.@type ...`). */
	errorsNaming?: string
}

const doc = <T = unknown>(
	schema: JsonSchema,
	required?: boolean,
	extra: Omit<FieldDoc, 'schema' | 'required'> = {},
) =>
	v.metadata<T, Record<string, unknown>>({
		[FIELD_DOC]: { schema, ...(required === undefined ? {} : { required }), ...extra },
	})

/**
 * A field with more said of it in the catalog: a default the command applies, a description, a
 * range, an enum, or a whole JSON Schema for a field of the group's own making. Keys merge over what
 * the helper said; `required` marks a field the frame must carry. Checking is unchanged.
 */
export function documented<S extends v.GenericSchema>(
	schema: S,
	json: JsonSchema,
	opts: { required?: boolean } & Omit<FieldDoc, 'schema' | 'required'> = {},
) {
	const { required, ...extra } = opts
	return v.pipe(schema, doc<v.InferOutput<S>>(json, required, extra))
}

/** The digits of an integer in a string: what the integer fields take beside JSON numbers. */
export const INTEGER_SCHEMA: JsonSchema = {
	type: ['integer', 'string'],
	pattern: '^-?[0-9]{1,16}$',
	description: 'an integer (a string of digits is read as one)',
}

const present = (missing: string, schema: JsonSchema = {}) =>
	v.pipe(
		v.optional(v.unknown(), null),
		doc(schema, true),
		v.check((x) => !isMissing(x), missing),
	)

const intOf = (field: string) =>
	v.pipe(
		v.unknown(),
		doc(INTEGER_SCHEMA),
		v.check(isIntegral, `${field} must be an integer`),
		// An integer TDLib's int53 cannot hold is still an integer: said so, not called something else.
		v.check((x) => !isIntegral(x) || toInt(x) !== undefined, `${field} is out of range`),
		v.transform((x) => toInt(x) as number),
	)

/** A required integer: `<field> is required` when absent, `<field> must be an integer` otherwise. */
export const requiredInt = (field: string, missing = `${field} is required`) =>
	v.pipe(present(missing, INTEGER_SCHEMA), intOf(field))

export const optionalInt = (field: string) => v.optional(intOf(field))

/** What the catalog says of an int64 field. */
export const INT64_SCHEMA: JsonSchema = {
	type: ['integer', 'string'],
	pattern: '^-?[0-9]{1,19}$',
	description: 'a 64-bit integer, as a JSON integer (every digit kept) or a string of digits',
}

/**
 * An int64 id passed on as TDLib's string form (event ids, custom emoji ids): a JSON integer of any
 * size or a string of digits, each keeping its exact value.
 */
export const int64String = (field: string) =>
	v.pipe(
		v.unknown(),
		doc(INT64_SCHEMA),
		v.check(isIntegral, `${field} must be an integer`),
		v.check((x) => !isIntegral(x) || toInt64(x) !== undefined, `${field} must be a 64-bit integer`),
		v.transform((x) => toInt64(x) as string),
	)

/**
 * Every list a frame carries is capped: one frame must not fan out into an unbounded number of
 * TDLib requests (or one unbounded request). 100 is TDLib's own per-call limit for message ids
 * (`forwardMessages`: "Too many messages to forward") and the default for any other list.
 */
export const MAX_LIST_ITEMS = 100

/** A list's cap and the wire string for a longer list (`message_ids must contain at most 100 message ids`). */
export interface ListCap {
	max: number
	tooMany: string
}

export const listCap = (field: string, noun: string, max = MAX_LIST_ITEMS): ListCap => ({
	max,
	tooMany: `${field} must contain at most ${max} ${noun}`,
})

const intListOf = (field: string, cap: ListCap, minItems = 0) => {
	const notList = `${field} must be a list of integers`
	return v.pipe(
		v.unknown(),
		doc({ type: 'array', items: INTEGER_SCHEMA, maxItems: cap.max, ...(minItems > 0 ? { minItems } : {}) }),
		// valibot runs every check of a pipe, even past a failed one: each stands on its own.
		v.check(Array.isArray, notList),
		// The length first: a huge list is refused before any of its items is looked at.
		v.check((x) => !Array.isArray(x) || x.length <= cap.max, cap.tooMany),
		v.check(
			(x) => Array.isArray(x) && (x.length > cap.max || x.every((i) => toInt(i) !== undefined)),
			notList,
		),
		v.transform((x) => (x as unknown[]).map((i) => toInt(i) as number)),
	)
}

/**
 * A required list of integers; `empty` (if given) is the message for an empty list, `cap` bounds
 * its length (default: at most `MAX_LIST_ITEMS` items).
 */
export const requiredIntList = (
	field: string,
	empty?: string,
	missing = `${field} is required`,
	cap: ListCap = listCap(field, 'items'),
) =>
	empty === undefined
		? v.pipe(present(missing), intListOf(field, cap))
		: v.pipe(
				present(missing),
				intListOf(field, cap, 1),
				v.check((x) => x.length > 0, empty),
			)

export const optionalBool = (field: string) =>
	v.optional(
		v.pipe(
			v.unknown(),
			doc({ type: 'boolean' }),
			v.check((x) => typeof x === 'boolean', `${field} must be a boolean`),
			v.transform((x) => x as boolean),
		),
	)

export const optionalString = (field: string) =>
	v.optional(
		v.pipe(
			v.unknown(),
			doc({ type: 'string' }),
			v.check((x) => typeof x === 'string', `${field} must be a string`),
			v.transform((x) => x as string),
		),
	)

/**
 * A required string: `<field> is required` when missing (absent, null or `""`), `<field> must be a
 * string` for anything else, `<field> must be valid Unicode text` for a lone surrogate, which TDLib
 * cannot take.
 */
export const requiredString = (
	field: string,
	opts: {
		missing?: string
		/** @deprecated `""` is missing in every command: it answers `missing`. */
		empty?: string
	} = {},
) =>
	v.pipe(
		present(opts.missing ?? `${field} is required`, { type: 'string', minLength: 1 }),
		v.check((x) => typeof x === 'string', `${field} must be a string`),
		v.check((x) => typeof x !== 'string' || !LONE_SURROGATE.test(x), `${field} must be valid Unicode text`),
		v.transform((x) => x as string),
	)

/**
 * An optional string: `<field> must be a string` for anything else, `<field> must be valid Unicode
 * text` for a lone surrogate (TDLib would refuse the whole request). Never echoes the value.
 */
export const optionalText = (field: string) =>
	v.optional(
		v.pipe(
			v.unknown(),
			doc({ type: 'string' }),
			v.check((x) => typeof x === 'string', `${field} must be a string`),
			v.check((x) => typeof x !== 'string' || !LONE_SURROGATE.test(x), `${field} must be valid Unicode text`),
			v.transform((x) => x as string),
		),
	)

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

export type JsonObject = Record<string, unknown>

export const isObject = (x: unknown): x is JsonObject =>
	typeof x === 'object' && x !== null && !Array.isArray(x)

export const optionalObject = (field: string) =>
	v.optional(
		v.pipe(
			v.unknown(),
			doc({ type: 'object' }),
			v.check(isObject, `${field} must be an object`),
			v.transform((x) => x as JsonObject),
		),
	)

export const optionalArray = (field: string) =>
	v.optional(
		v.pipe(
			v.unknown(),
			doc({ type: 'array' }),
			v.check(Array.isArray, `${field} must be a list`),
			v.transform((x) => x as unknown[]),
		),
	)

/** Present, any JSON value: the command checks the shape itself (media, reaction). */
export const requiredValue = (missing: string, schema: JsonSchema = {}) => present(missing, schema)

/** The command's input: a loose object (the envelope's own fields pass through untouched). */
export const fields = <E extends v.ObjectEntries>(entries: E) => v.looseObject(entries)
