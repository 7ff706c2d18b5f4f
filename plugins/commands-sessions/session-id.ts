import { documented } from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { SessionsErrors as E } from './errors'

const DIGITS = /^-?\d{1,25}$/
const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n

/**
 * A session id as TDLib's int64 string, or the wire string saying why it is none. TDLib's ids are
 * random 64-bit values, mostly past 2^53: a string keeps every digit; a JSON number does only up to
 * 2^53, so a bigger one is refused rather than rounded to some other session's id.
 */
export function sessionIdOf(value: unknown): { id: string } | { error: string } {
	if (typeof value === 'number') {
		if (Number.isSafeInteger(value)) return { id: String(value) }
		return { error: Number.isInteger(value) ? E.SESSION_ID_IMPRECISE : 'session_id must be an integer' }
	}
	if (typeof value !== 'string' || !DIGITS.test(value)) return { error: 'session_id must be an integer' }
	const n = BigInt(value)
	if (n < INT64_MIN || n > INT64_MAX) return { error: E.SESSION_ID_RANGE }
	// One spelling per id ("007" is 7), so comparing with TDLib's strings is comparing numbers.
	return { id: n.toString() }
}

/** `session_id`: required; the output is TDLib's int64 string. */
export const sessionIdField = documented(
	v.pipe(
		v.optional(v.unknown(), null),
		v.check((x) => x !== null && x !== undefined, E.SESSION_ID_REQUIRED),
		v.rawTransform(({ dataset, addIssue, NEVER }) => {
			const parsed = sessionIdOf(dataset.value)
			if ('id' in parsed) return parsed.id
			addIssue({ message: parsed.error })
			return NEVER
		}),
	),
	{
		type: ['integer', 'string'],
		pattern: '^-?[0-9]{1,25}$',
		description: "TDLib's session id (int64): a string of digits, or a JSON integer up to 2^53",
	},
	{ required: true, errors: ['session_id must be an integer', E.SESSION_ID_IMPRECISE, E.SESSION_ID_RANGE] },
)
