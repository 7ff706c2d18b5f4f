import { BotError, badRequest } from '../answer'
import { entitiesOf, parseModeOf } from '../entities'
import { botMessageId, messageOf, tdMessageId } from '../objects'
import { intOf, objectOf, stringOf } from '../params'
import { type Call, type ChatUsername, chatId, command, type Method, messageId, type Td } from './call'

/**
 * Sending, editing, forwarding, copying, deleting, pinning and reacting to messages, and the user
 * mode's reading extras (docs/bot-api.md#methods). Each runs the messages or chats command it maps
 * onto; what the Bot API adds (parse_mode, entities, reply_parameters, link_preview_options) is
 * turned into the command's own fields here and read by the command (TDLib's parser among them).
 */

/** Telegram's own bound on a text's bytes before it is parsed (the Bot API server's). */
const MAX_TEXT_BYTES = 1 << 15
/** The most ids one call takes: TDLib's forwardMessages bound, the Bot API's for its lists. */
const MAX_IDS = 100

type Params = Record<string, unknown>

/** A boolean parameter: true/false, or their strings (a form, a query); undefined when absent. */
function boolOf(params: Params, name: string): boolean | undefined {
	const value = params[name]
	if (value === undefined || value === null || value === '') return undefined
	if (value === true || value === 'true' || value === '1' || value === 1) return true
	if (value === false || value === 'false' || value === '0' || value === 0) return false
	throw badRequest(`invalid ${name} specified`)
}

/** A list of integers: a JSON list, or JSON in a string (a form, a query), 1 to MAX_IDS of them. */
function idsOf(params: Params, name: string): number[] {
	let value = params[name]
	if (value === undefined || value === null || value === '') throw badRequest(`${name} is empty`)
	if (typeof value === 'string') {
		try {
			value = JSON.parse(value)
		} catch {
			throw badRequest(`can't parse ${name} JSON array`)
		}
	}
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
function formatted(params: Params, textName: string, entitiesName: string, modeName = 'parse_mode') {
	const text = stringOf(params, textName)
	if (text !== undefined && new TextEncoder().encode(text).length > MAX_TEXT_BYTES)
		throw badRequest(`${textName} is too long`)
	const parse_mode = parseModeOf(params, modeName)
	if (parse_mode) return { text, parse_mode }
	const entities = entitiesOf(params, entitiesName)
	return { text, ...(entities?.length ? { entities } : {}) }
}

/** `link_preview_options` (or the older `disable_web_page_preview`) as TDLib's linkPreviewOptions. */
function linkPreview(params: Params) {
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
function sendOptions(params: Params) {
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
function thread(params: Params) {
	const id = intOf(params, 'message_thread_id')
	return id ? { message_thread_id: tdMessageId(id) } : {}
}

/** Bot API inline messages belong to bots. */
function noInline(params: Params) {
	if (params.inline_message_id !== undefined) throw badRequest('inline messages are only for bots')
}

/** What forward_message answered for its one target: its messages (null where TDLib could not). */
async function forwarded(call: Call, input: Record<string, unknown>): Promise<Array<Td | null>> {
	const result = (await command(call, 'forward_message', { ...input, wait_sent: true })) as unknown
	const first = (Array.isArray(result) ? result[0] : undefined) as { messages?: Array<Td | null> } | undefined
	return first?.messages ?? []
}

/** The Bot API's `MessageId` of each message that went (those TDLib could not are left out). */
const messageIds = (messages: Array<Td | null>) =>
	messages.filter((m): m is Td => m !== null).map((m) => ({ message_id: botMessageId(Number(m.id)) }))

/** A copy's caption: the new one (its entities, or TDLib's parse of it), unless there is none. */
function newCaption(params: Params) {
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

const found = (answer: Td) => (Array.isArray(answer.messages) ? (answer.messages as Td[]) : [])

export const MESSAGE_METHODS: Readonly<Record<string, Method>> = {
	sendMessage: async (call) => {
		const { params } = call
		const chat = chatId(params)
		const text = formatted(params, 'text', 'entities')
		if (text.text === undefined || text.text === '') throw badRequest('message text is empty')
		const input = {
			chat_id: chat,
			...text,
			...linkPreview(params),
			...sendOptions(params),
			...replyTo(params, chat),
			...thread(params),
			wait_sent: true,
		}
		return messageOf(await command(call, 'send_message', input))
	},
	editMessageText: async (call) => {
		const { params } = call
		noInline(params)
		const text = formatted(params, 'text', 'entities')
		if (text.text === undefined || text.text === '') throw badRequest('message text is empty')
		const input = { chat_id: chatId(params), message_id: messageId(params), ...text, ...linkPreview(params) }
		return messageOf(await command(call, 'edit_message', input))
	},
	editMessageCaption: async (call) => {
		const { params } = call
		noInline(params)
		// No caption: the caption is removed, as the Bot API does.
		const { text, ...format } = formatted(params, 'caption', 'caption_entities')
		const above = boolOf(params, 'show_caption_above_media')
		const input = {
			chat_id: chatId(params),
			message_id: messageId(params),
			caption: text ?? '',
			...format,
			...(above !== undefined ? { show_caption_above_media: above } : {}),
		}
		return messageOf(await command(call, 'edit_message', input))
	},
	deleteMessage: async (call) => {
		const { params } = call
		await command(call, 'delete_messages', {
			chat_id: chatId(params),
			message_ids: [messageId(params)],
			revoke: true,
		})
		return true
	},
	deleteMessages: async (call) => {
		const { params } = call
		const ids = idsOf(params, 'message_ids').map(tdMessageId)
		await command(call, 'delete_messages', { chat_id: chatId(params), message_ids: ids, revoke: true })
		return true
	},
	forwardMessage: async (call) => {
		const { params } = call
		const [message] = await forwarded(call, {
			to_chat_ids: [chatId(params)],
			from_chat_id: requiredFrom(params),
			message_ids: [messageId(params)],
			...sendOptions(params),
		})
		if (!message) throw badRequest('message to forward not found')
		return messageOf(message)
	},
	forwardMessages: async (call) => {
		const { params } = call
		const messages = await forwarded(call, {
			to_chat_ids: [chatId(params)],
			from_chat_id: requiredFrom(params),
			message_ids: idsOf(params, 'message_ids').map(tdMessageId),
			...sendOptions(params),
		})
		return messageIds(messages)
	},
	copyMessage: async (call) => {
		const { params } = call
		if (params.reply_parameters !== undefined || params.reply_to_message_id !== undefined)
			throw badRequest('a copy can not be sent as a reply yet')
		const [message] = await forwarded(call, {
			to_chat_ids: [chatId(params)],
			from_chat_id: requiredFrom(params),
			message_ids: [messageId(params)],
			send_copy: true,
			...newCaption(params),
			...sendOptions(params),
		})
		if (!message) throw badRequest('message to copy not found')
		return { message_id: botMessageId(Number(message.id)) }
	},
	copyMessages: async (call) => {
		const { params } = call
		const messages = await forwarded(call, {
			to_chat_ids: [chatId(params)],
			from_chat_id: requiredFrom(params),
			message_ids: idsOf(params, 'message_ids').map(tdMessageId),
			send_copy: true,
			remove_caption: boolOf(params, 'remove_caption') ?? false,
			...sendOptions(params),
		})
		return messageIds(messages)
	},
	pinChatMessage: async (call) => {
		const { params } = call
		await command(call, 'pin_message', {
			chat_id: chatId(params),
			message_id: messageId(params),
			disable_notification: boolOf(params, 'disable_notification') ?? false,
		})
		return true
	},
	unpinChatMessage: async (call) => {
		const { params } = call
		// Without message_id the Bot API unpins the newest pinned message, which no command looks up.
		if (intOf(params, 'message_id') === undefined)
			throw badRequest('message_id is required: the most recent pinned message is not looked up')
		await command(call, 'unpin_message', { chat_id: chatId(params), message_id: messageId(params) })
		return true
	},
	unpinAllChatMessages: async (call) => {
		await command(call, 'unpin_message', { chat_id: chatId(call.params), all: true })
		return true
	},
	setMessageReaction: async (call) => {
		const { params } = call
		const reactions = reactionsOf(params)
		await command(call, 'set_reaction', {
			chat_id: chatId(params),
			message_id: messageId(params),
			reaction: reactions,
			is_big: boolOf(params, 'is_big') ?? false,
			// The Bot API's reactions replace the account's: set_reaction removes the others.
			replace: true,
		})
		return true
	},
	// TDLight's user-mode extras (docs/bot-api.md#the-user-modes-message-extras).
	getMessages: async (call) => {
		const { params } = call
		const chat = chatId(params)
		const out: unknown[] = []
		// One get_message each, in order: a message the chat does not have is left out.
		for (const id of idsOf(params, 'message_ids')) {
			try {
				out.push(
					messageOf(await command(call, 'get_message', { chat_id: chat, message_id: tdMessageId(id) })),
				)
			} catch (err) {
				if (!(err instanceof BotError && err.description === 'Bad Request: message not found')) throw err
			}
		}
		return out
	},
	searchMessages: async (call) => {
		const { params } = call
		const chatType = stringOf(params, 'chat_filter') ?? stringOf(params, 'chat_type')
		const answer = await command(call, 'search_messages', {
			query: stringOf(params, 'query') ?? '',
			offset: stringOf(params, 'offset') ?? '',
			...optional('filter', stringOf(params, 'filter')),
			...optional('chat_type', chatType),
			...optional('min_date', intOf(params, 'min_date')),
			...optional('max_date', intOf(params, 'max_date')),
			limit: intOf(params, 'limit') ?? MAX_IDS,
		})
		return {
			total_count: answer.total_count,
			messages: found(answer).map((m) => messageOf(m)),
			next_offset: answer.next_offset ?? '',
		}
	},
	searchChatMessages: async (call) => {
		const { params } = call
		const from = intOf(params, 'from_message_id')
		const sender = intOf(params, 'sender_user_id') ?? intOf(params, 'sender_chat_id')
		const answer = await command(call, 'search_chat_messages', {
			chat_id: chatId(params),
			query: stringOf(params, 'query') ?? '',
			...optional('sender_id', sender),
			...optional('filter', stringOf(params, 'filter')),
			...optional('from_message_id', from === undefined ? undefined : tdMessageId(from)),
			limit: intOf(params, 'limit') ?? MAX_IDS,
		})
		return {
			total_count: answer.total_count,
			messages: found(answer).map((m) => messageOf(m)),
			next_from_message_id: botMessageId(Number(answer.next_from_message_id ?? 0)),
		}
	},
}

const optional = (name: string, value: unknown) =>
	value === undefined || value === '' ? {} : { [name]: value }

const requiredFrom = (params: Params) => {
	const from = intOf(params, 'from_chat_id')
	if (from === undefined) throw badRequest('from_chat_id is empty')
	return from
}

/**
 * `reaction`: a list of Bot API ReactionType (`{type: "emoji", emoji}` or `{type: "custom_emoji",
 * custom_emoji_id}`) as TDLib's; absent or empty, the account's reactions are removed.
 */
function reactionsOf(params: Params) {
	let value = params.reaction
	if (typeof value === 'string') {
		try {
			value = JSON.parse(value)
		} catch {
			throw badRequest("can't parse reaction JSON object")
		}
	}
	if (value === undefined || value === null || value === '') return []
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
