import { documented, INTEGER_SCHEMA, toInt } from 'userbot-gateway/plugin'
import * as v from 'valibot'

const INT32 = 2 ** 31

/**
 * An optional int32 (TDLib's `offset`, `limit`): a value TDLib's JSON parser would refuse is refused
 * here, in our words. Its sign is TDLib's to judge, in its words ("Parameter offset must be
 * non-negative").
 */
export const optionalInt32 = (field: string) =>
	v.optional(
		v.pipe(
			documented(v.unknown(), { ...INTEGER_SCHEMA, minimum: -(2 ** 31), maximum: 2 ** 31 - 1 }),
			v.check((x) => toInt(x) !== undefined, `${field} must be an integer`),
			v.transform((x) => toInt(x) as number),
			v.check((n) => n >= -INT32 && n < INT32, `${field} is out of range`),
		),
	)
