import { documented, optionalInt } from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { ChatsErrors as E, MAX_HISTORY_LIMIT } from './errors'

/** A page's `limit`: 1..`max`, refused past it (in `outOfRange`) rather than cut, `defaultLimit` when left out. */
export const pageLimit = (max: number, outOfRange: string, defaultLimit: number) =>
	documented(
		v.pipe(
			optionalInt('limit'),
			v.check((n) => n === undefined || (n >= 1 && n <= max), outOfRange),
		),
		{ minimum: 1, maximum: max, default: defaultLimit },
	)

/** A message page's `limit`: 1..100, TDLib's own bound, refused past it rather than cut. */
export const historyLimit = (defaultLimit: number) =>
	pageLimit(MAX_HISTORY_LIMIT, E.HISTORY_LIMIT_RANGE, defaultLimit)

/** A list's `offset` into what was read: 0 or more, 0 when left out. */
export const pageOffset = documented(
	v.pipe(
		optionalInt('offset'),
		v.check((n) => n === undefined || n >= 0, E.OFFSET_NEGATIVE),
	),
	{ minimum: 0, default: 0 },
)

/** TDLib's negative offset: that many newer messages too (-99..0). */
export const historyOffset = documented(
	v.pipe(
		optionalInt('offset'),
		v.check((n) => n === undefined || (n <= 0 && n > -MAX_HISTORY_LIMIT), E.OFFSET_RANGE),
	),
	{ minimum: -99, maximum: 0, default: 0 },
)
