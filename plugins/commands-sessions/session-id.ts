import { documented, INT64_SCHEMA, isIntegral, isMissing, toInt64 } from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { SessionsErrors as E } from './errors'

/**
 * A session id as TDLib's int64 string, or the wire string saying why it is none. TDLib's ids are
 * random 64-bit values, mostly past 2^53: a JSON integer keeps every digit (the gateway's frame parse
 * reads one past 2^53 whole), and so does a string of digits. One spelling per id ("007" is 7), so
 * comparing with TDLib's strings is comparing numbers.
 */
export function sessionIdOf(value: unknown): { id: string } | { error: string } {
	if (!isIntegral(value)) return { error: E.SESSION_ID_TYPE }
	const id = toInt64(value)
	return id === undefined ? { error: E.SESSION_ID_RANGE } : { id }
}

/** `session_id`: required; the output is TDLib's int64 string. */
export const sessionIdField = documented(
	v.pipe(
		v.optional(v.unknown(), null),
		v.check((x) => !isMissing(x), E.SESSION_ID_REQUIRED),
		v.rawTransform(({ dataset, addIssue, NEVER }) => {
			const parsed = sessionIdOf(dataset.value)
			if ('id' in parsed) return parsed.id
			addIssue({ message: parsed.error })
			return NEVER
		}),
	),
	{ ...INT64_SCHEMA, description: "TDLib's session id (int64): a JSON integer or a string of digits" },
	{ required: true, errors: [E.SESSION_ID_TYPE, E.SESSION_ID_RANGE] },
)
