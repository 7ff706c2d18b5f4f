import * as v from 'valibot'

/**
 * Field schemas whose messages are the wire error strings (ws-commands §7). The gateway sends the
 * first issue's message as `<command>_error`, so each helper carries its own sentence.
 *
 * valibot reports a missing key of an object with the object's message, not the field's. A required
 * field is therefore declared optional with a `null` default: valibot then runs the field's pipe on
 * `null`, and the pipe's first check says `<field> is required`. A present `null` reads the same.
 */

const INT = /^-?\d{1,16}$/

/** Integers arrive as JSON numbers or, for ids beyond 2^53 in some clients, as digit strings. */
export function toInt(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined
	if (typeof value === 'string' && INT.test(value)) {
		const n = Number(value)
		return Number.isSafeInteger(n) ? n : undefined
	}
	return undefined
}

const present = (missing: string) =>
	v.pipe(
		v.optional(v.unknown(), null),
		v.check((x) => x !== null && x !== undefined, missing),
	)

/** A schema over `unknown` that checks `ok` and maps the value. */
const mapped = <T>(message: string, ok: (x: unknown) => boolean, map: (x: unknown) => T) =>
	v.pipe(v.unknown(), v.check(ok, message), v.transform(map))

const intOf = (field: string) =>
	mapped(
		`${field} must be an integer`,
		(x) => toInt(x) !== undefined,
		(x) => toInt(x) as number,
	)

/** A required integer: `<field> is required` when absent, `<field> must be an integer` otherwise. */
export const requiredInt = (field: string, missing = `${field} is required`) =>
	v.pipe(present(missing), intOf(field))

export const optionalInt = (field: string) => v.optional(intOf(field))

/** An int64 id passed on as TDLib's string form (custom_emoji_id, session ids). */
export const int64String = (field: string) =>
	mapped(
		`${field} must be an integer`,
		(x) =>
			(typeof x === 'number' && Number.isSafeInteger(x)) || (typeof x === 'string' && /^-?\d{1,19}$/.test(x)),
		(x) => String(x),
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

const intListOf = (field: string, cap: ListCap) => {
	const notList = `${field} must be a list of integers`
	return v.pipe(
		v.unknown(),
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
				intListOf(field, cap),
				v.check((x) => x.length > 0, empty),
			)

export const optionalBool = (field: string) =>
	v.optional(
		v.pipe(
			v.unknown(),
			v.check((x) => typeof x === 'boolean', `${field} must be a boolean`),
			v.transform((x) => x as boolean),
		),
	)

export const optionalString = (field: string) =>
	v.optional(
		v.pipe(
			v.unknown(),
			v.check((x) => typeof x === 'string', `${field} must be a string`),
			v.transform((x) => x as string),
		),
	)

export type JsonObject = Record<string, unknown>

export const isObject = (x: unknown): x is JsonObject =>
	typeof x === 'object' && x !== null && !Array.isArray(x)

export const optionalObject = (field: string) =>
	v.optional(
		v.pipe(
			v.unknown(),
			v.check(isObject, `${field} must be an object`),
			v.transform((x) => x as JsonObject),
		),
	)

export const optionalArray = (field: string) =>
	v.optional(
		v.pipe(
			v.unknown(),
			v.check(Array.isArray, `${field} must be a list`),
			v.transform((x) => x as unknown[]),
		),
	)

/** Present, any JSON value: the command checks the shape itself (media, reaction). */
export const requiredValue = (missing: string) => present(missing)

/** The command's input: a loose object (the envelope's own fields pass through untouched). */
export const fields = <E extends v.ObjectEntries>(entries: E) => v.looseObject(entries)
