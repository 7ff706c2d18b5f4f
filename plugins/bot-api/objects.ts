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

/** A TDLib `message` as a Bot API `Message`: its text (and entities' plain text), its sender and chat. */
export function messageOf(message: Td, chat?: Td) {
	const content = obj(message.content)
	const text = content._ === 'messageText' ? obj(content.text) : undefined
	const sender = obj(message.sender_id)
	const from =
		sender._ === 'messageSenderUser' ? { id: sender.user_id, is_bot: false, first_name: '' } : undefined
	const edited =
		typeof message.edit_date === 'number' && message.edit_date > 0 ? message.edit_date : undefined
	return {
		message_id: botMessageId(Number(message.id)),
		...(from ? { from } : {}),
		chat: chat ? chatOf(chat) : chatFromId(Number(message.chat_id)),
		date: message.date,
		...(edited ? { edit_date: edited } : {}),
		...(text ? { text: str(text.text) ?? '' } : {}),
		...mediaOf(content),
	}
}
