import { documented, isUnicodeText, requiredValue } from 'userbot-gateway/plugin'
import * as v from 'valibot'

/**
 * The group's text fields (search queries, usernames, offsets) go to TDLib as they are: a JSON string
 * of well-formed Unicode (UTF-8 cannot carry a lone surrogate, and TDLib would refuse the whole
 * request); anything else is refused with a sentence naming the field, never its value.
 */
const stringOf = (field: string) =>
	v.pipe(
		documented(v.unknown(), { type: 'string' }),
		v.check((x) => typeof x === 'string', `${field} must be a string`),
		v.check((x) => typeof x !== 'string' || isUnicodeText(x), `${field} must be valid Unicode text`),
		v.transform((x) => x as string),
	)

export const optionalText = (field: string) => v.optional(stringOf(field))

/** A required string: `missing` when absent, null or `""`, as every required field of every group. */
export const requiredText = (field: string, missing = `${field} is required`) =>
	v.pipe(requiredValue(missing, { type: 'string', minLength: 1 }), stringOf(field))
