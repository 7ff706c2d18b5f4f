import type * as Td from 'tdlib-types'
import { documented, optionalInt } from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { ChatsErrors as E } from './errors'
import { optionalText } from './strings'

/** The media kinds a message search can keep, by the name a client sends. */
const FILTERS = {
	photo: { _: 'searchMessagesFilterPhoto' },
	video: { _: 'searchMessagesFilterVideo' },
	document: { _: 'searchMessagesFilterDocument' },
	audio: { _: 'searchMessagesFilterAudio' },
	animation: { _: 'searchMessagesFilterAnimation' },
	voice_note: { _: 'searchMessagesFilterVoiceNote' },
	photo_and_video: { _: 'searchMessagesFilterPhotoAndVideo' },
} as const satisfies Record<string, Td.SearchMessagesFilter$Input>

/** `filter`: one media kind, or absent for every message. */
export const mediaFilter = documented(
	v.pipe(
		optionalText('filter'),
		v.check((s) => s === undefined || Object.hasOwn(FILTERS, s), E.FILTER),
	),
	{ enum: Object.keys(FILTERS) },
)

export const searchFilter = (name: string | undefined): Td.SearchMessagesFilter$Input | undefined =>
	name === undefined ? undefined : FILTERS[name as keyof typeof FILTERS]

/** TDLib's dates are int32 seconds: past that TDLib refuses the whole request. */
export const dateField = (field: string, message: string) =>
	documented(
		v.pipe(
			optionalInt(field),
			v.check((n) => n === undefined || (n >= 0 && n <= 2 ** 31 - 1), message),
		),
		{ minimum: 0, maximum: 2 ** 31 - 1, default: 0 },
	)
