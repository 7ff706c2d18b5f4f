import { documented, optionalInt } from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { ChatsErrors as E, MAX_HISTORY_LIMIT } from './errors'

/** A message page's `limit`: 1..100, TDLib's own bound, refused past it rather than cut. */
export const historyLimit = (defaultLimit: number) =>
	documented(
		v.pipe(
			optionalInt('limit'),
			v.check((n) => n === undefined || (n >= 1 && n <= MAX_HISTORY_LIMIT), E.HISTORY_LIMIT_RANGE),
		),
		{ minimum: 1, maximum: MAX_HISTORY_LIMIT, default: defaultLimit },
	)

/** TDLib's negative offset: that many newer messages too (-99..0). */
export const historyOffset = documented(
	v.pipe(
		optionalInt('offset'),
		v.check((n) => n === undefined || (n <= 0 && n > -MAX_HISTORY_LIMIT), E.OFFSET_RANGE),
	),
	{ minimum: -99, maximum: 0, default: 0 },
)
