import { documented, isUnicodeText, requiredValue } from 'userbot-gateway/plugin'
import * as v from 'valibot'

/**
 * String fields of this group: passwords, hints, codes and addresses that go to TDLib as they are.
 * Each is a JSON string of well-formed Unicode (UTF-8 cannot carry a lone surrogate, and TDLib would
 * refuse the whole request); anything else gets a sentence naming the field, never its value.
 */
const stringOf = (field: string) =>
	v.pipe(
		documented(v.unknown(), { type: 'string' }),
		v.check((x) => typeof x === 'string', `${field} must be a string`),
		v.check((x) => typeof x !== 'string' || isUnicodeText(x), `${field} must be valid Unicode text`),
		v.transform((x) => x as string),
	)

/** A required string: `missing` when absent, null or `""`, as every required field of every group. */
export const requiredString = (field: string, missing: string) =>
	v.pipe(requiredValue(missing, { type: 'string', minLength: 1 }), stringOf(field))

export const optionalText = (field: string) => v.optional(stringOf(field))
