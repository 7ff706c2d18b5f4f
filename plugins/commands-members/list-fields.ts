import { documented, isUnicodeText, optionalInt } from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { MembersErrors as E } from './errors'

/** Fields of the commands that read lists (members, recent actions). */

/** A search query: text TDLib can carry (no lone surrogate). */
export const queryField = (field: string) =>
	v.optional(
		v.pipe(
			documented(v.unknown(), { type: 'string' }),
			v.check((x) => typeof x === 'string', `${field} must be a string`),
			v.check((x) => typeof x !== 'string' || isUnicodeText(x), `${field} must be valid Unicode text`),
			v.transform((x) => x as string),
		),
	)

/** How many items to return: positive, checked with TDLib's words. */
export const limitField = () =>
	documented(
		v.pipe(
			optionalInt('limit'),
			v.check((x) => x === undefined || x > 0, E.LIMIT_NOT_POSITIVE),
		),
		{ minimum: 1, default: 50 },
	)

/** How many items to skip: zero or more, checked with TDLib's words. */
export const offsetField = () =>
	documented(
		v.pipe(
			optionalInt('offset'),
			v.check((x) => x === undefined || x >= 0, E.OFFSET_NEGATIVE),
		),
		{ minimum: 0, default: 0 },
	)
