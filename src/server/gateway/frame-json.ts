/**
 * The one parse of a command frame, lossless for integers. JSON has one number type and
 * `JSON.parse` reads every number as a double, so an int64 id past 2^53 sent as a JSON integer (a
 * session id such as `3088675158945946166`, as a Python or Go client writes it) would arrive as some
 * other number. Here an integer literal that a double cannot hold exactly arrives as a `bigint` with
 * every digit; the fields that take int64 ids read it (`src/server/commands/fields.ts`, the TDLib object
 * validator), every other field refuses it as it refuses any value of the wrong type.
 *
 * Only an integer literal changes: `1.5`, `1e20` and `12345678901234567890.0` stay the doubles
 * JSON.parse makes of them, and digits inside a string stay a string. The reviver that reads each
 * number's source text (the "JSON.parse source text access" of ES2025, in Bun and V8) costs several
 * times a plain parse, so only a frame that may hold such a literal pays for it, told cheaply:
 * - up to 512 characters (most commands), by a run of 16 digits in the text (2^53 has 16 digits);
 * - past that, where a text full of digits makes the scan cost more than the parse, by a plain
 *   `JSON.parse` and a walk of its values for an integral double past 2^53 (what such a literal
 *   becomes), which costs per value, not per character; only then is the frame parsed again.
 * `test/bench/frame-json.ts` measures each path against `JSON.parse`.
 */

const LONG_DIGITS = /\d{16}/
/** Frames up to this many characters are scanned; longer ones are parsed and walked. */
const SCAN_LIMIT = 512
/** JSON's integer literal: no fraction, no exponent (a leading zero is not JSON). */
const INTEGER_LITERAL = /^-?\d+$/

/** The third argument a reviver gets where the engine gives source text access. */
interface ReviverContext {
	source?: string
}

type Reviver = (this: unknown, key: string, value: unknown, context?: ReviverContext) => unknown

const parseWith = JSON.parse as (text: string, reviver?: Reviver) => unknown

function keepIntegers(_key: string, value: unknown, context?: ReviverContext): unknown {
	if (typeof value !== 'number' || Number.isSafeInteger(value)) return value
	const source = context?.source
	return source !== undefined && INTEGER_LITERAL.test(source) ? BigInt(source) : value
}

const imprecise = (x: unknown) => typeof x === 'number' && !Number.isSafeInteger(x) && Number.isInteger(x)

/** Whether a parsed value holds an integral double past 2^53 anywhere (walked without recursion). */
function holdsImprecise(value: unknown): boolean {
	if (typeof value !== 'object' || value === null) return imprecise(value)
	const stack: object[] = [value]
	for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
		const values: unknown[] = Array.isArray(node) ? node : Object.values(node)
		for (let i = 0; i < values.length; i++) {
			const x = values[i]
			if (typeof x === 'object') {
				if (x !== null) stack.push(x)
			} else if (imprecise(x)) return true
		}
	}
	return false
}

/** Parses a frame's text; throws as JSON.parse does on text that is not JSON. */
export function parseFrame(text: string): unknown {
	if (text.length <= SCAN_LIMIT)
		return LONG_DIGITS.test(text) ? parseWith(text, keepIntegers) : JSON.parse(text)
	const value = JSON.parse(text)
	return holdsImprecise(value) ? parseWith(text, keepIntegers) : value
}
