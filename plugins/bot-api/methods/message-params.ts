import { badRequest } from '../answer'
import { entitiesOf, parseModeOf } from '../entities'
import { tdMessageId } from '../objects'
import { boolOf, intOf, jsonOf, objectOf, stringOf } from '../params'
import { type ChatUsername, chatRef, type Td } from './call'

/**
 * What the message methods (messages.ts, media.ts) read of the Bot API's parameters, turned into the
 * commands' own fields (docs/bot-api.md#entities-and-parse_mode): formatting, link previews, send
 * options, replies, threads, reactions.
 */

/** Telegram's own bound on a text's bytes before it is parsed (the Bot API server's). */
export const MAX_TEXT_BYTES = 1 << 15
/** The most ids one call takes: TDLib's forwardMessages bound, the Bot API's for its lists. */
export const MAX_IDS = 100

export type Params = Record<string, unknown>

/** A list of integers: a JSON list, or JSON in a string (a form, a query), 1 to MAX_IDS of them. */
export function idsOf(params: Params, name: string): number[] {
	const value = jsonOf(params, name, 'array')
	if (value === undefined) throw badRequest(`${name} is empty`)
	if (!Array.isArray(value)) throw badRequest(`can't parse ${name} JSON array`)
	if (value.length === 0) throw badRequest(`${name} is empty`)
	if (value.length > MAX_IDS) throw badRequest(`too many ${name} specified`)
	return value.map((item) => {
		const n = intOf({ [name]: item }, name)
		if (n === undefined || n <= 0) throw badRequest(`invalid ${name} specified`)
		return n
	})
}

/**
 * A text and its formatting, as the Bot API takes them: with `parse_mode` (any case; `none` or
 * empty for none) the command has TDLib parse the text, and `entities` are not read (as Telegram's
 * server does); without, the `entities` (Bot API MessageEntity) as TDLib's.
 */
export function formatted(params: Params, textName: string, entitiesName: string, modeName = 'parse_mode') {
	const text = stringOf(params, textName)
	if (text !== undefined && new TextEncoder().encode(text).length > MAX_TEXT_BYTES)
		throw badRequest(`${textName} is too long`)
	const parse_mode = parseModeOf(params, modeName)
	if (parse_mode) return { text, parse_mode }
	const entities = entitiesOf(params, entitiesName)
	return { text, ...(entities?.length ? { entities } : {}) }
}

/** `link_preview_options` (or the older `disable_web_page_preview`) as TDLib's linkPreviewOptions. */
export function linkPreview(params: Params) {
	const options = objectOf(params, 'link_preview_options')
	if (!options) {
		return boolOf(params, 'disable_web_page_preview')
			? { link_preview_options: { _: 'linkPreviewOptions', is_disabled: true } }
			: {}
	}
	const url = stringOf(options, 'url')
	return {
		link_preview_options: {
			_: 'linkPreviewOptions',
			is_disabled: boolOf(options, 'is_disabled') ?? false,
			...(url ? { url } : {}),
			force_small_media: boolOf(options, 'prefer_small_media') ?? false,
			force_large_media: boolOf(options, 'prefer_large_media') ?? false,
			show_above_text: boolOf(options, 'show_above_text') ?? false,
		},
	}
}

/** `disable_notification` and `protect_content` as TDLib's messageSendOptions. */
export function sendOptions(params: Params) {
	const silent = boolOf(params, 'disable_notification') ?? false
	const protect = boolOf(params, 'protect_content') ?? false
	return silent || protect
		? { options: { _: 'messageSendOptions', disable_notification: silent, protect_content: protect } }
		: {}
}

/**
 * The message replied to: `reply_parameters` (its `message_id`; `chat_id` only the message's own
 * chat; `quote` with `quote_entities` and `quote_position`), or the older `reply_to_message_id`.
 */
export function replyTo(params: Params, chat: number | ChatUsername) {
	const reply = objectOf(params, 'reply_parameters')
	if (!reply) {
		const id = intOf(params, 'reply_to_message_id')
		return id === undefined
			? {}
			: { reply_to: { _: 'inputMessageReplyToMessage', message_id: tdMessageId(id) } }
	}
	const id = intOf(reply, 'message_id')
	if (id === undefined) throw badRequest('reply_parameters.message_id is empty')
	const replyChat = reply.chat_id
	const same = typeof chat === 'number' ? Number(replyChat) === chat : String(replyChat) === chat.username
	if (replyChat !== undefined && replyChat !== null && !same)
		throw badRequest('reply_parameters.chat_id must be the chat the message is sent to')
	const mode = stringOf(reply, 'quote_parse_mode')
	if (mode !== undefined && mode !== '' && mode.toLowerCase() !== 'none')
		throw badRequest('quote_parse_mode is not supported: give quote_entities')
	const quote = stringOf(reply, 'quote')
	const entities = entitiesOf(reply, 'quote_entities')
	return {
		reply_to: {
			_: 'inputMessageReplyToMessage',
			message_id: tdMessageId(id),
			...(quote
				? {
						quote: {
							_: 'inputTextQuote',
							text: { _: 'formattedText', text: quote, entities: entities ?? [] },
							position: intOf(reply, 'quote_position') ?? 0,
						},
					}
				: {}),
		},
	}
}

/** The topic or thread: the Bot API's `message_thread_id` is a server message id. */
export function thread(params: Params) {
	const id = intOf(params, 'message_thread_id')
	return id ? { message_thread_id: tdMessageId(id) } : {}
}

/** Bot API inline messages belong to bots. */
export function noInline(params: Params) {
	if (params.inline_message_id !== undefined) throw badRequest('inline messages are only for bots')
}

/** A copy's caption: the new one (its entities, or TDLib's parse of it), unless there is none. */
export function newCaption(params: Params) {
	if (stringOf(params, 'caption') === undefined) return {}
	const { text, parse_mode, entities } = formatted(params, 'caption', 'caption_entities') as {
		text: string
		parse_mode?: string
		entities?: Td[]
	}
	const above = boolOf(params, 'show_caption_above_media')
	return {
		new_caption: entities ? { _: 'formattedText', text, entities } : text,
		...(parse_mode ? { parse_mode } : {}),
		...(above !== undefined ? { show_caption_above_media: above } : {}),
	}
}

export const optional = (name: string, value: unknown) =>
	value === undefined || value === '' ? {} : { [name]: value }

/** `from_chat_id`: an integer, or `@username` (resolved by `command`). */
export const requiredFrom = (params: Params) => chatRef(params, 'from_chat_id', 'from_chat_id is empty')

/**
 * `reaction`: a list of Bot API ReactionType (`{type: "emoji", emoji}` or `{type: "custom_emoji",
 * custom_emoji_id}`) as TDLib's; absent or empty, the account's reactions are removed.
 */
export function reactionsOf(params: Params) {
	const value = jsonOf(params, 'reaction', 'object')
	if (value === undefined) return []
	if (!Array.isArray(value)) throw badRequest("can't parse reaction JSON object")
	if (value.length > 10) throw badRequest('too many reactions specified')
	return value.map((item) => {
		const o = (typeof item === 'object' && item !== null ? item : {}) as Params
		if (o.type === 'emoji' && typeof o.emoji === 'string' && o.emoji !== '')
			return { _: 'reactionTypeEmoji', emoji: o.emoji }
		const id = o.custom_emoji_id
		if (
			o.type === 'custom_emoji' &&
			(typeof id === 'string' || typeof id === 'number') &&
			/^\d{1,19}$/.test(String(id))
		)
			return { _: 'reactionTypeCustomEmoji', custom_emoji_id: String(id) }
		throw badRequest('invalid reaction specified')
	})
}
