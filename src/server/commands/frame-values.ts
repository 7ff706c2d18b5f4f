/**
 * How a command's frame reads its values, whatever the field: integers as JSON numbers or digit
 * strings (int53 and int64), what counts as missing, and `null` as a field not sent.
 */

const INT = /^-?\d{1,16}$/

/**
 * Integers arrive as JSON numbers or as digit strings. TDLib's int53 fields (chat, message and user
 * ids, dates, counts) hold at most 2^53: past it (a `bigint` from the frame parse, a longer digit
 * string) there is no such number here.
 */
export function toInt(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined
	if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : undefined
	if (typeof value === 'string' && INT.test(value)) {
		const n = Number(value)
		return Number.isSafeInteger(n) ? n : undefined
	}
	return undefined
}

const DIGITS = /^-?\d+$/

/** An integer however large: a JSON integer (a `bigint` past 2^53) or a string of digits. */
export const isIntegral = (x: unknown): boolean =>
	typeof x === 'bigint' ||
	(typeof x === 'number' && Number.isInteger(x)) ||
	(typeof x === 'string' && DIGITS.test(x))

const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n

/**
 * An int64 as TDLib's string (one spelling per number: `"007"` is `"7"`), from a JSON integer of any
 * size (the frame parse keeps one past 2^53 whole, as a `bigint`) or a string of digits; `undefined`
 * for anything else or past the int64 range. A double past 2^53 that is no integer literal (`1e19`)
 * has lost its digits and is refused.
 */
export function toInt64(value: unknown): string | undefined {
	let n: bigint
	if (typeof value === 'bigint') n = value
	else if (typeof value === 'number' && Number.isSafeInteger(value)) n = BigInt(value)
	else if (typeof value === 'string' && value.length <= 25 && DIGITS.test(value)) n = BigInt(value)
	else return undefined
	return n >= INT64_MIN && n <= INT64_MAX ? n.toString() : undefined
}

/**
 * The one rule for a required field that is not there: absent, `null` or `""` (the error table of
 * docs/protocol.md#error-strings,
 * `<field> is required`). An empty password, code, link or id names nothing, so every command
 * answers it as it answers a missing one.
 */
export const isMissing = (x: unknown): boolean => x === undefined || x === null || x === ''

/**
 * The frame as a command's input reads it: a field whose value is `null` is a field not sent. So an
 * optional field at `null` takes its default, and a required one is `<field> is required`, in every
 * command alike. Copies only a frame that has a `null`.
 */
export function withoutNulls(frame: Record<string, unknown>): Record<string, unknown> {
	for (const key in frame) {
		// fromEntries defines each key as data: a `__proto__` key stays a key, never the prototype.
		if (frame[key] === null) return Object.fromEntries(Object.entries(frame).filter(([, x]) => x !== null))
	}
	return frame
}
