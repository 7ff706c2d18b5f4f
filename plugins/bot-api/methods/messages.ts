import { BotError, badRequest } from '../answer'
import { botMessageId, messageOf, tdMessageId } from '../objects'
import { boolOf, intOf, stringOf } from '../params'
import { type Call, chatId, command, type Method, messageId, type Td } from './call'
import {
	formatted,
	idsOf,
	linkPreview,
	MAX_IDS,
	newCaption,
	noInline,
	optional,
	reactionsOf,
	replyTo,
	requiredFrom,
	sendOptions,
	thread,
} from './message-params'

/**
 * Sending, editing, forwarding, copying, deleting, pinning and reacting to messages, and the user
 * mode's reading extras (docs/bot-api.md#methods). Each runs the messages or chats command it maps
 * onto; what the Bot API adds (parse_mode, entities, reply_parameters, link_preview_options) is
 * turned into the command's own fields here and read by the command (TDLib's parser among them).
 */

/** What forward_message answered for its one target: its messages (null where TDLib could not). */
async function forwarded(call: Call, input: Record<string, unknown>): Promise<Array<Td | null>> {
	const result = (await command(call, 'forward_message', { ...input, wait_sent: true })) as unknown
	const first = (Array.isArray(result) ? result[0] : undefined) as { messages?: Array<Td | null> } | undefined
	const messages = first?.messages ?? []
	// A copy's answer is a `MessageId` without its chat: the messages sent are named here.
	call.own(messages)
	return messages
}

/** The Bot API's `MessageId` of each message that went (those TDLib could not are left out). */
const messageIds = (messages: Array<Td | null>) =>
	messages.filter((m): m is Td => m !== null).map((m) => ({ message_id: botMessageId(Number(m.id)) }))

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
