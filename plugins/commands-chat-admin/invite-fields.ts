import { documented, INTEGER_SCHEMA, requiredValue, toInt } from 'userbot-gateway/plugin'
import * as v from 'valibot'

/**
 * Field shapes shared by the invite-link commands. Dates, limits and counts are TDLib int32s: a
 * value past that range is refused here, in our words, rather than by TDLib's JSON parser (whose
 * message would repeat the value).
 */

const INT32_MIN = -(2 ** 31)
const INT32_MAX = 2 ** 31 - 1

export const optionalInt32 = (field: string) =>
	v.optional(
		v.pipe(
			documented(v.unknown(), { ...INTEGER_SCHEMA, minimum: -(2 ** 31), maximum: 2 ** 31 - 1 }),
			v.check((x) => toInt(x) !== undefined, `${field} must be an integer`),
			v.transform((x) => toInt(x) as number),
			v.check((n) => n >= INT32_MIN && n <= INT32_MAX, `${field} is out of range`),
		),
	)

/**
 * A required text field: absent, `null` and the empty string all read `missing`, as in every group
 * (an empty invite link names no link; TDLib would read it as every link of the chat).
 */
export const requiredText = (field: string, missing: string) =>
	v.pipe(
		requiredValue(missing, { type: 'string', minLength: 1 }),
		v.check((x) => typeof x === 'string', `${field} must be a string`),
		v.transform((x) => x as string),
	)

/**
 * `limit` of the list commands: the default of 50 (docs/protocol.md#limits-and-defaults), set explicitly
 * (docs/tdlib-mapping.md#conventions).
 */
export const DEFAULT_LIMIT = 50
