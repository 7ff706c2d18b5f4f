import {
	constructorFields,
	constructorsOf,
	type FieldKind,
	type Fields,
	functionFields,
	isTdClass,
} from './index'
import { PARSE_FAILED } from './types'

export { PARSE_FAILED }

/**
 * TDLib's own JSON request parser (td_json_client → `from_json`), reproduced for the emulator so that
 * it refuses exactly what real TDLib refuses, word for word: fields in declaration order, the first
 * failure wins, a missing or `null` field is its zero value, unknown fields are ignored. Measured
 * against TDLib 1.8.65 (test/telegram/emulator-parity.test.ts feeds both the same corpus).
 *
 * `strict` adds one rule TDLib does not have: a field the type does not declare is refused, so that a
 * misspelt optional field in our own requests fails a test instead of being silently dropped.
 */

/** The JSON type names TDLib's messages use. */
function jsonType(value: unknown): string {
	if (value === null || value === undefined) return 'Null'
	if (Array.isArray(value)) return 'Array'
	switch (typeof value) {
		case 'number':
			return 'Number'
		case 'boolean':
			return 'Boolean'
		case 'string':
			return 'String'
		default:
			return 'Object'
	}
}

class ParseError extends Error {}
class StrictError extends Error {}

const INTEGER_TEXT = /^(0|-?[1-9][0-9]*)$/
const RANGES = {
	int32: [-(2n ** 31n), 2n ** 31n - 1n],
	int64: [-(2n ** 63n), 2n ** 63n - 1n],
} as const

/** `to_integer_safe<T>`: the number's JSON text, or the string, as a decimal integer in range. */
function checkInteger(value: unknown, bits: 'int32' | 'int64'): void {
	if (typeof value !== 'number' && typeof value !== 'string') {
		// TDLib's int32 reader says Number, its int64 reader String or Number; both take either.
		const expected = bits === 'int32' ? 'Number' : 'String or Number'
		throw new ParseError(`Expected ${expected}, but receive ${jsonType(value)}`)
	}
	const text = typeof value === 'number' ? JSON.stringify(value) : value
	const [min, max] = RANGES[bits]
	if (!INTEGER_TEXT.test(text) || BigInt(text) < min || BigInt(text) > max) {
		throw new ParseError(`Can't parse as an integer string "${text}"`)
	}
}

const BASE64_CHAR = /^[A-Za-z0-9+/]$/

/** `base64_decode`: standard alphabet, padded to a multiple of 4. */
function checkBase64(text: string): void {
	if (text.length % 4 !== 0) throw new ParseError('Wrong padding length')
	const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0
	for (let i = 0; i < text.length - padding; i++) {
		if (!BASE64_CHAR.test(text[i]!)) throw new ParseError('Wrong character in the string')
	}
}

interface Context {
	strict: boolean
}

function parseValue(value: unknown, kind: FieldKind, ctx: Context): void {
	if (value === null || value === undefined) return
	switch (kind.kind) {
		case 'int32':
			checkInteger(value, 'int32')
			return
		case 'int53':
		case 'int64':
		case 'number':
			checkInteger(value, 'int64')
			return
		case 'double':
			if (typeof value !== 'number') throw new ParseError(`Expected Number, but receive ${jsonType(value)}`)
			return
		case 'string':
			if (typeof value !== 'string') throw new ParseError(`Expected String, but receive ${jsonType(value)}`)
			return
		case 'bytes':
			if (typeof value !== 'string') throw new ParseError(`Expected String, but receive ${jsonType(value)}`)
			checkBase64(value)
			return
		case 'Bool':
			if (typeof value === 'boolean') return
			// TDLib reads an int32 as a Bool (non-zero is true).
			try {
				checkInteger(value, 'int32')
			} catch {
				throw new ParseError(`Expected Boolean, but receive ${jsonType(value)}`)
			}
			return
		case 'vector':
			if (!Array.isArray(value)) throw new ParseError(`Expected Array, but receive ${jsonType(value)}`)
			for (const item of value) parseValue(item, kind.of, ctx)
			return
		case 'object':
			parseObject(value, kind.type, ctx)
			return
	}
}

function parseObject(value: unknown, type: string, ctx: Context): void {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		throw new ParseError(`Expected Object, but receive ${jsonType(value)}`)
	}
	const object = value as Record<string, unknown>
	let name = type
	// A field of one exact constructor ignores `@type`; a field of a class reads it first.
	if (isTdClass(type)) {
		const tag = object._
		if (tag === null || tag === undefined) throw new ParseError(`Can't find field "@type"`)
		if (typeof tag === 'number') {
			// TDLib takes a number as a constructor id (crc32 of the TL line); the emulator knows none.
			const id = (Math.trunc(tag) | 0) >>> 0
			throw new ParseError(`Unknown constructor 0x${id.toString(16).padStart(8, '0')}`)
		}
		if (typeof tag !== 'string') {
			throw new ParseError(`Expected String or Integer, but receive ${jsonType(tag)}`)
		}
		if (!constructorsOf(type).includes(tag)) throw new ParseError(`Unknown class "${tag}"`)
		name = tag
	}
	parseFields(object, name, constructorFields(name) ?? [], ctx)
}

function parseFields(object: Record<string, unknown>, name: string, fields: Fields, ctx: Context): void {
	for (const [field, kind] of fields) parseValue(object[field], kind, ctx)
	if (!ctx.strict) return
	for (const key of Object.keys(object)) {
		if (key === '_' || key === '@extra' || fields.some(([f]) => f === key)) continue
		throw new StrictError(`emulator: "${key}" is not a field of ${name} (real TDLib would ignore it)`)
	}
}

/**
 * Null when TDLib 1.8.65 would parse `request` (tdl's form: `_` for `@type`), else the error message
 * TDLib answers with code 400.
 */
export function tdlibParseError(request: unknown, opts: { strict?: boolean } = {}): string | null {
	try {
		if (typeof request !== 'object' || request === null || Array.isArray(request)) {
			throw new ParseError(`Expected Object, but receive ${jsonType(request)}`)
		}
		const object = request as Record<string, unknown>
		const tag = object._
		if (tag === null || tag === undefined) throw new ParseError(`Can't find field "@type"`)
		if (typeof tag === 'number') {
			const id = (Math.trunc(tag) | 0) >>> 0
			throw new ParseError(`Unknown constructor 0x${id.toString(16).padStart(8, '0')}`)
		}
		if (typeof tag !== 'string')
			throw new ParseError(`Expected String or Integer, but receive ${jsonType(tag)}`)
		const fields = functionFields(tag)
		if (!fields) throw new ParseError(`Unknown class "${tag}"`)
		parseFields(object, tag, fields, { strict: opts.strict === true })
		return null
	} catch (err) {
		if (err instanceof ParseError) return PARSE_FAILED + err.message
		if (err instanceof StrictError) return err.message
		throw err
	}
}
