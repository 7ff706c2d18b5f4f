import { toJsonSchema } from '@valibot/to-json-schema'
import { RE2JS } from 're2js'
import type { MessageContent } from 'tdlib-types'
import * as v from 'valibot'

/**
 * Event filters (docs/live-updates.md#filters): one object, the same on a WebSocket `subscribe` and
 * on a webhook endpoint (`filter`), checked here once, whole, before it is used. Every field is
 * optional; an absent or empty filter passes everything. What an event carries and how a filter is
 * matched against it is ./event-facets.ts.
 *
 * The `pattern` runs on RE2 (`re2js`), whose time is linear in the text: a client's expression never
 * meets JavaScript's backtracking `RegExp`.
 */

/** The bounds of a filter (docs/live-updates.md#filters). */
export const FILTER_LIMITS = {
	/** Ids in `chat_ids`, and in `sender_ids`. */
	ids: 100,
	/** Words in `contains`. */
	words: 50,
	/** Characters of one word. */
	wordLength: 64,
	/** Characters of `pattern`. */
	patternLength: 512,
	/** RE2's program size of the compiled `pattern` (its approximate cost per character of text). */
	programSize: 4000,
} as const

/**
 * The media kinds of `media`, each the TDLib 1.8.65 message contents it stands for. Every other
 * content (members joining, a title changed, a pinned message, calls, payments, gifts...) is
 * `service`. The names are the Bot API's where it has one (`voice` for TDLib's voice note).
 */
export const MEDIA_KINDS = {
	text: ['messageText', 'messageAnimatedEmoji'],
	photo: ['messagePhoto', 'messageExpiredPhoto'],
	video: ['messageVideo', 'messageExpiredVideo'],
	video_note: ['messageVideoNote', 'messageExpiredVideoNote'],
	voice: ['messageVoiceNote', 'messageExpiredVoiceNote'],
	audio: ['messageAudio'],
	document: ['messageDocument'],
	animation: ['messageAnimation'],
	sticker: ['messageSticker'],
	paid_media: ['messagePaidMedia'],
	rich_message: ['messageRichMessage'],
	location: ['messageLocation', 'messageLiveLocation'],
	venue: ['messageVenue'],
	contact: ['messageContact'],
	poll: ['messagePoll'],
	dice: ['messageDice', 'messageStakeDice'],
	game: ['messageGame'],
	invoice: ['messageInvoice'],
	story: ['messageStory'],
	checklist: ['messageChecklist'],
	unsupported: ['messageUnsupported'],
} as const satisfies Record<string, ReadonlyArray<MessageContent['_']>>

export type MediaKind = keyof typeof MEDIA_KINDS | 'service'
export const MEDIA_KIND_NAMES: readonly MediaKind[] = [
	...(Object.keys(MEDIA_KINDS) as MediaKind[]),
	'service',
]

const KIND_OF_CONTENT = new Map<string, MediaKind>(
	Object.entries(MEDIA_KINDS).flatMap(([kind, contents]) => contents.map((c) => [c, kind as MediaKind])),
)

/** The media kind of a TDLib message content type (`messagePhoto` → `photo`; a service message → `service`). */
export const mediaKindOf = (contentType: string): MediaKind => KIND_OF_CONTENT.get(contentType) ?? 'service'

/**
 * What a word is, for `contains` and for the text it is looked for in: a run of letters, combining
 * marks, digits and connectors (`_`), Unicode's word characters; anything else separates words.
 */
export const WORD = /[\p{L}\p{M}\p{N}\p{Pc}]+/gu
const ONE_WORD = /^[\p{L}\p{M}\p{N}\p{Pc}]+$/u

/** Words compare case-insensitively: NFC, then lower case (the same for a filter's words and a text's). */
export const foldWord = (word: string): string => word.normalize('NFC').toLowerCase()

/** The refusals of a filter, word for word (never quoting what was sent). */
export const FilterErrors = {
	NOT_AN_OBJECT: 'filter must be an object',
	UNKNOWN_FIELD: 'filter takes only chat_ids, sender_ids, outgoing, media, contains and pattern',
	CHAT_IDS: `filter.chat_ids must be a list of 1 to ${FILTER_LIMITS.ids} chat ids (integers)`,
	SENDER_IDS: `filter.sender_ids must be a list of 1 to ${FILTER_LIMITS.ids} user or chat ids (integers)`,
	OUTGOING: 'filter.outgoing must be true or false',
	MEDIA: 'filter.media must be a list of media kinds (docs/live-updates.md#filters)',
	CONTAINS: `filter.contains must be a list of 1 to ${FILTER_LIMITS.words} words, each of 1 to ${FILTER_LIMITS.wordLength} letters, digits or underscores`,
	PATTERN: `filter.pattern must be a string of 1 to ${FILTER_LIMITS.patternLength} characters`,
	PATTERN_INVALID: 'filter.pattern is not a valid regular expression (RE2 syntax)',
	PATTERN_TOO_COMPLEX: 'filter.pattern is too complex',
} as const

const isId = (x: unknown) => Number.isSafeInteger(x) && x !== 0

const ids = (message: string, what: string) =>
	v.optional(
		v.pipe(
			v.array(v.pipe(v.number(message), v.integer(message)), message),
			v.minLength(1, message),
			v.maxLength(FILTER_LIMITS.ids, message),
			v.check((list) => list.every(isId), message),
			v.metadata({ description: what }),
		),
	)

const word = v.pipe(
	v.string(FilterErrors.CONTAINS),
	v.minLength(1, FilterErrors.CONTAINS),
	v.maxLength(FILTER_LIMITS.wordLength, FilterErrors.CONTAINS),
	v.check((w) => ONE_WORD.test(w), FilterErrors.CONTAINS),
)

/** The filter object as a client sends it: the one schema of both faces (and of their documents). */
export const EventFilterSchema = v.strictObject(
	{
		chat_ids: ids(FilterErrors.CHAT_IDS, 'only events of these chats'),
		sender_ids: ids(FilterErrors.SENDER_IDS, 'only messages sent by these users or chats'),
		outgoing: v.optional(
			v.pipe(
				v.boolean(FilterErrors.OUTGOING),
				v.metadata({ description: 'true: only messages the account sent; false: only those it received' }),
			),
		),
		media: v.optional(
			v.pipe(
				v.array(v.picklist(MEDIA_KIND_NAMES, FilterErrors.MEDIA), FilterErrors.MEDIA),
				v.minLength(1, FilterErrors.MEDIA),
				v.maxLength(MEDIA_KIND_NAMES.length, FilterErrors.MEDIA),
				v.metadata({ description: 'only messages whose content is of one of these kinds' }),
			),
		),
		contains: v.optional(
			v.pipe(
				v.array(word, FilterErrors.CONTAINS),
				v.minLength(1, FilterErrors.CONTAINS),
				v.maxLength(FILTER_LIMITS.words, FilterErrors.CONTAINS),
				v.metadata({ description: 'only messages whose text or caption has one of these words (any case)' }),
			),
		),
		pattern: v.optional(
			v.pipe(
				v.string(FilterErrors.PATTERN),
				v.minLength(1, FilterErrors.PATTERN),
				v.maxLength(FILTER_LIMITS.patternLength, FilterErrors.PATTERN),
				v.metadata({ description: 'only messages whose text or caption it matches (RE2 syntax, anywhere)' }),
			),
		),
	},
	FilterErrors.UNKNOWN_FIELD,
)

/** A filter as a client wrote it (checked): what is stored, and answered back. */
export type EventFilterInput = v.InferOutput<typeof EventFilterSchema>

/** A checked filter, ready to match (./event-facets.ts `passes`). */
export interface EventFilter {
	readonly chatIds?: ReadonlySet<number>
	readonly senderIds?: ReadonlySet<number>
	readonly outgoing?: boolean
	readonly media?: ReadonlySet<MediaKind>
	/** Folded (`foldWord`). */
	readonly words?: ReadonlySet<string>
	readonly pattern?: RE2JS
}

export type FilterParse =
	| { ok: true; filter: EventFilter | undefined; input: EventFilterInput | undefined }
	| { ok: false; error: string }

/**
 * Checks a filter as sent (`undefined` or `null`: none) and makes it ready to match. An empty one
 * (`{}`) is none: it passes everything. The error is one of `FilterErrors`, never the value.
 */
export function parseFilter(value: unknown): FilterParse {
	if (value === undefined || value === null) return { ok: true, filter: undefined, input: undefined }
	if (typeof value !== 'object' || Array.isArray(value))
		return { ok: false, error: FilterErrors.NOT_AN_OBJECT }
	const parsed = v.safeParse(EventFilterSchema, value, { abortPipeEarly: true })
	if (!parsed.success) return { ok: false, error: parsed.issues[0]?.message ?? FilterErrors.NOT_AN_OBJECT }
	const input = parsed.output
	let pattern: RE2JS | undefined
	if (input.pattern !== undefined) {
		try {
			pattern = RE2JS.compile(input.pattern)
		} catch {
			// RE2's own message quotes the pattern: ours never does.
			return { ok: false, error: FilterErrors.PATTERN_INVALID }
		}
		if (pattern.programSize() > FILTER_LIMITS.programSize)
			return { ok: false, error: FilterErrors.PATTERN_TOO_COMPLEX }
	}
	const filter: EventFilter = {
		...(input.chat_ids ? { chatIds: new Set(input.chat_ids) } : {}),
		...(input.sender_ids ? { senderIds: new Set(input.sender_ids) } : {}),
		...(input.outgoing !== undefined ? { outgoing: input.outgoing } : {}),
		...(input.media ? { media: new Set(input.media) } : {}),
		...(input.contains ? { words: new Set(input.contains.map(foldWord)) } : {}),
		...(pattern ? { pattern } : {}),
	}
	if (Object.keys(filter).length === 0) return { ok: true, filter: undefined, input: undefined }
	return { ok: true, filter, input }
}

/** The filter object's JSON Schema (draft-07), for the AsyncAPI and OpenAPI documents. */
export function filterJsonSchema(): Record<string, unknown> {
	const { $schema: _, ...schema } = toJsonSchema(EventFilterSchema, {
		errorMode: 'ignore',
		ignoreActions: ['check'],
	}) as Record<string, unknown>
	return {
		...schema,
		description:
			'Only the events that match every field given (docs/live-updates.md#filters); absent or {}: every event.',
	}
}
