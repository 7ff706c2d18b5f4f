import type * as Td from 'tdlib-types'
import { fail, type Handlers, OK, type Session } from '../session'

/**
 * Block lists of each account: the main list (no messages, calls or stories) and the stories list.
 * A sender is on one list at most; blocking for stories takes it off the main list. Errors are
 * TDLib's (docs/tdlib-mapping.md#sessions-and-privacy; td/telegram/MessageSender.cpp).
 */

type ListName = 'blockListMain' | 'blockListStories'

interface Blocked {
	sender: Td.MessageSender
	list: ListName
	/** When it was put on its list: the newest come first, as Telegram lists them. */
	at: number
}

/** Per account: blocked senders by `user:<id>` or `chat:<id>`. */
const blockedOf = (s: Session): Map<string, Blocked> => {
	const accounts = s.world.store('block-lists', () => new Map<number, Map<string, Blocked>>())
	let blocked = accounts.get(s.userId)
	if (!blocked) {
		blocked = new Map()
		accounts.set(s.userId, blocked)
	}
	return blocked
}

/**
 * The sender as TDLib checks it (`get_message_sender_dialog_id` with access checked, then the block
 * list's own rules), with its key; throws TDLib's error for one it cannot block.
 */
function senderOf(s: Session, sender: Td.MessageSender$Input | undefined, blocking: boolean) {
	if (!sender) return fail('Message sender must be non-empty')
	const asUser = (userId: number) => {
		if (userId === s.userId) fail(blocking ? "Can't block self" : "Can't unblock self")
		return { key: `user:${userId}`, sender: { _: 'messageSenderUser', user_id: userId } } as const
	}
	if (sender._ === 'messageSenderUser') {
		const userId = sender.user_id ?? 0
		if (userId <= 0) fail('Invalid user identifier specified')
		if (!s.world.users.has(userId)) fail('Unknown user identifier specified')
		return asUser(userId)
	}
	const chatId = sender.chat_id ?? 0
	if (chatId === 0) fail('Invalid chat identifier specified')
	// A user's private chat stands for the user.
	if (chatId > 0) {
		if (!s.world.users.has(chatId)) fail('Unknown chat identifier specified')
		return asUser(chatId)
	}
	const chat = s.world.chatFor(s.userId, chatId) ?? fail('Unknown chat identifier specified')
	if (chat.kind === 'basicGroup') fail("Basic group chats can't be blocked")
	return { key: `chat:${chatId}`, sender: { _: 'messageSenderChat', chat_id: chatId } } as const
}

export const blockListHandlers: Handlers = {
	setMessageSenderBlockList(s, req) {
		const list = req.block_list?._
		const { key, sender } = senderOf(s, req.sender_id, list !== undefined)
		const blocked = blockedOf(s)
		if (list === undefined) blocked.delete(key)
		else blocked.set(key, { sender, list, at: s.world.now() })
		return OK
	},
	getBlockedMessageSenders(s, req) {
		const offset = req.offset ?? 0
		const limit = req.limit ?? 0
		if (offset < 0) fail('Parameter offset must be non-negative')
		if (limit <= 0) fail('Parameter limit must be positive')
		const list = req.block_list?._ ?? fail('Block list must be non-empty')
		const senders = [...blockedOf(s).values()]
			.filter((b) => b.list === list)
			.sort((a, b) => b.at - a.at)
			.map((b) => b.sender)
		// The server answers at most 100 at a time.
		return {
			_: 'messageSenders',
			total_count: senders.length,
			senders: senders.slice(offset, offset + Math.min(limit, 100)),
		}
	},
}
