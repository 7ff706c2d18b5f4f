import { botEntities } from './entities'
import { mediaOf } from './objects-media'

/**
 * TDLib's objects as the Bot API names them (docs/bot-api.md#objects). A Bot API message id is the
 * server's: TDLib's id divided by 2^20.
 */
export const MESSAGE_ID_SHIFT = 2 ** 20

type Td = Record<string, unknown>
const str = (x: unknown) => (typeof x === 'string' ? x : undefined)
const obj = (x: unknown): Td => (typeof x === 'object' && x !== null ? (x as Td) : {})

export const botMessageId = (tdId: number) => Math.floor(tdId / MESSAGE_ID_SHIFT)
export const tdMessageId = (botId: number) => botId * MESSAGE_ID_SHIFT

/** A TDLib `user` as a Bot API `User` (a user account: `is_bot` false unless TDLib says it is a bot). */
export function userOf(user: Td) {
	const usernames = obj(user.usernames)
	const active = Array.isArray(usernames.active_usernames) ? usernames.active_usernames : []
	const username = str(active[0])
	const lastName = str(user.last_name)
	const language = str(user.language_code)
	return {
		id: user.id,
		is_bot: obj(user.type)._ === 'userTypeBot',
		first_name: str(user.first_name) ?? '',
		...(lastName ? { last_name: lastName } : {}),
		...(username ? { username } : {}),
		...(language ? { language_code: language } : {}),
		...(user.is_premium === true ? { is_premium: true } : {}),
	}
}

const CHAT_TYPES: Record<string, string> = {
	chatTypePrivate: 'private',
	chatTypeSecret: 'private',
	chatTypeBasicGroup: 'group',
	chatTypeSupergroup: 'supergroup',
}

/** A TDLib `chat` as a Bot API `Chat` (`ChatFullInfo` for getChat: the same fields, as far as TDLib's chat says). */
export function chatOf(chat: Td) {
	const type = obj(chat.type)
	const kind =
		type._ === 'chatTypeSupergroup' && type.is_channel === true
			? 'channel'
			: (CHAT_TYPES[String(type._)] ?? 'private')
	const title = str(chat.title) ?? ''
	return {
		id: chat.id,
		type: kind,
		...(kind === 'private' ? { first_name: title } : { title }),
	}
}

/** The smallest `Chat` the Bot API allows, from a chat id alone (TDLib's ids are the Bot API's). */
export function chatFromId(chatId: number) {
	return { id: chatId, type: chatId > 0 ? 'private' : chatId < -1e12 ? 'supergroup' : 'group' }
}

/**
 * What a message's content adds to its Bot API `Message`: a mapper per kind of content, each
 * answering the fields it knows (or undefined for a content that is not its own). The text part is
 * here; objects-media.ts's mapper (photo, document...) joins CONTENT_MAPPERS. A media message's
 * caption is read for every kind of content that has one.
 */
export type ContentMapper = (content: Td, message: Td) => Record<string, unknown> | undefined

/** `text` and its `entities`, `link_preview_options` (a text message). */
export const textContent: ContentMapper = (content) => {
	if (content._ !== 'messageText') return undefined
	const text = obj(content.text)
	const entities = botEntities(text)
	const preview = content.link_preview_options ? obj(content.link_preview_options) : undefined
	return {
		text: str(text.text) ?? '',
		...(entities ? { entities } : {}),
		...(preview
			? {
					link_preview_options: {
						...(preview.is_disabled === true ? { is_disabled: true } : {}),
						...(str(preview.url) ? { url: preview.url } : {}),
						...(preview.force_small_media === true ? { prefer_small_media: true } : {}),
						...(preview.force_large_media === true ? { prefer_large_media: true } : {}),
						...(preview.show_above_text === true ? { show_above_text: true } : {}),
					},
				}
			: {}),
	}
}

/** `caption` and its `caption_entities`, for a content with a caption (photo, video, document...). */
export const captionContent: ContentMapper = (content) => {
	if (content.caption === undefined || content.caption === null) return undefined
	const caption = obj(content.caption)
	const text = str(caption.text) ?? ''
	if (text === '') return {}
	const entities = botEntities(caption)
	return {
		caption: text,
		...(entities ? { caption_entities: entities } : {}),
		...(content.show_caption_above_media === true ? { show_caption_above_media: true } : {}),
	}
}

/** The content mappers, in order; their fields are merged (a later mapper's win). */
/** The media of a content (photo, document...: objects-media.ts), or none. */
const mediaContent: ContentMapper = (content) => mediaOf(content)

export const CONTENT_MAPPERS: readonly ContentMapper[] = [textContent, mediaContent, captionContent]

/** The smallest `User` of an id alone (a sender, a mention): `first_name` is empty. */
const userFromId = (id: unknown) => ({ id, is_bot: false, first_name: '' })

/** `forward_origin` (Bot API `MessageOrigin`) of TDLib's `forward_info`. */
function forwardOrigin(info: Td) {
	const origin = obj(info.origin)
	const date = info.date
	const signature = str(origin.author_signature)
	const signed = signature ? { author_signature: signature } : {}
	switch (origin._) {
		case 'messageOriginUser':
			return { type: 'user', date, sender_user: userFromId(origin.sender_user_id) }
		case 'messageOriginHiddenUser':
			return { type: 'hidden_user', date, sender_user_name: str(origin.sender_name) ?? '' }
		case 'messageOriginChat':
			return { type: 'chat', date, sender_chat: chatFromId(Number(origin.sender_chat_id)), ...signed }
		case 'messageOriginChannel':
			return {
				type: 'channel',
				date,
				chat: { ...chatFromId(Number(origin.chat_id)), type: 'channel' },
				message_id: botMessageId(Number(origin.message_id)),
				...signed,
			}
		default:
			return undefined
	}
}

/**
 * `reply_to_message` of TDLib's `reply_to`: the message replied to by its id and chat (TDLib's
 * message names no more of it: `date` is 0), and the `quote` when the reply quotes part of it.
 */
function replyFields(replyTo: Td, message: Td) {
	if (replyTo._ !== 'messageReplyToMessage') return {}
	const chatId = Number(replyTo.chat_id ?? message.chat_id)
	const quote = replyTo.quote ? obj(replyTo.quote) : undefined
	const quoteText = quote ? obj(quote.text) : undefined
	const quoteEntities = quoteText ? botEntities(quoteText) : undefined
	return {
		reply_to_message: {
			message_id: botMessageId(Number(replyTo.message_id)),
			chat: chatFromId(chatId),
			date: 0,
		},
		...(quote && quoteText
			? {
					quote: {
						text: str(quoteText.text) ?? '',
						...(quoteEntities ? { entities: quoteEntities } : {}),
						position: quote.position ?? 0,
						...(quote.is_manual === true ? { is_manual: true } : {}),
					},
				}
			: {}),
	}
}

/** `message_thread_id` and `is_topic_message` of TDLib's `topic_id`. */
function topicFields(topic: Td) {
	if (topic._ === 'messageTopicForum')
		return { message_thread_id: topic.forum_topic_id, is_topic_message: true }
	if (topic._ === 'messageTopicThread')
		return { message_thread_id: botMessageId(Number(topic.message_thread_id)) }
	return {}
}

/**
 * A TDLib `message` as a Bot API `Message`: its sender (`from` for a user, `sender_chat` for a chat
 * or channel), chat, dates, reply, forward origin, topic, album, and what its content adds
 * (CONTENT_MAPPERS: text and entities, caption and caption entities).
 */
export function messageOf(message: Td, chat?: Td) {
	const content = obj(message.content)
	const sender = obj(message.sender_id)
	const botChat = chat ? chatOf(chat) : chatFromId(Number(message.chat_id))
	const from = sender._ === 'messageSenderUser' ? userFromId(sender.user_id) : undefined
	const senderChat =
		sender._ === 'messageSenderChat'
			? Number(sender.chat_id) === Number(message.chat_id)
				? botChat
				: chatFromId(Number(sender.chat_id))
			: undefined
	const edited =
		typeof message.edit_date === 'number' && message.edit_date > 0 ? message.edit_date : undefined
	const album = str(message.media_album_id)
	const signature = str(message.author_signature)
	const origin = message.forward_info ? forwardOrigin(obj(message.forward_info)) : undefined
	const fromContent = Object.assign({}, ...CONTENT_MAPPERS.map((map) => map(content, message) ?? {}))
	return {
		message_id: botMessageId(Number(message.id)),
		...(message.topic_id ? topicFields(obj(message.topic_id)) : {}),
		...(from ? { from } : {}),
		...(senderChat ? { sender_chat: senderChat } : {}),
		chat: botChat,
		date: message.date,
		...(origin ? { forward_origin: origin } : {}),
		...(message.reply_to ? replyFields(obj(message.reply_to), message) : {}),
		...(edited ? { edit_date: edited } : {}),
		...(message.can_be_saved === false ? { has_protected_content: true } : {}),
		...(album && album !== '0' ? { media_group_id: album } : {}),
		...(signature ? { author_signature: signature } : {}),
		...fromContent,
	}
}
