import { documented, INTEGER_SCHEMA, toInt } from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { MembersErrors as E } from './errors'

const INT32_MAX = 2 ** 31 - 1

/** A date until which a ban or a restriction holds: Unix time, a TDLib int32; 0 or left out is for ever. */
export const untilDateField = (field: string) =>
	v.optional(
		v.pipe(
			documented(v.unknown(), { ...INTEGER_SCHEMA, minimum: 0, maximum: INT32_MAX, default: 0 }),
			v.check((x) => toInt(x) !== undefined, `${field} must be an integer`),
			v.transform((x) => toInt(x) as number),
			v.check((n) => n >= 0 && n <= INT32_MAX, E.UNTIL_DATE_RANGE),
		),
	)
