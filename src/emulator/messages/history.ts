import type * as Td from 'tdlib-types'
import { markRead, unreadCount } from '../chats/read-state'
import { messageObject } from '../objects'
import { fail, type Handlers, OK, type Session } from '../session'
import { type ChatRecord, MESSAGE_ID_SHIFT, type MessageRecord } from '../world'
import { requireChat } from './access'

/**
 * Reading: a chat's history, searching one chat or all of them, and marking messages as read, with
 * TDLib's checks in its order and words (`MessagesManager::get_dialog_history`,
 * `search_dialog_messages`, `view_messages`).
 */

const MAX_HISTORY = 100

/** Server ids of a chat, newest first. */
const newestFirst = (chat: ChatRecord) => [...chat.messages.keys()].sort((a, b) => b - a)

/** `from_message_id` as a server id; 0 (or past the newest) is the newest. */
const fromServerId = (id: number) =>
	id === 0 || id / MESSAGE_ID_SHIFT > 2 ** 31 ? Number.POSITIVE_INFINITY : id / MESSAGE_ID_SHIFT

/** The media kind a `SearchMessagesFilter` selects; null: every message (the empty filter). */
const FILTER_CONTENT: Record<string, readonly string[] | null> = {
	searchMessagesFilterEmpty: null,
	searchMessagesFilterAnimation: ['messageAnimation'],
	searchMessagesFilterAudio: ['messageAudio'],
	searchMessagesFilterDocument: ['messageDocument'],
	searchMessagesFilterPhoto: ['messagePhoto'],
	searchMessagesFilterVideo: ['messageVideo'],
	searchMessagesFilterVoiceNote: ['messageVoiceNote'],
	searchMessagesFilterPhotoAndVideo: ['messagePhoto', 'messageVideo'],
	searchMessagesFilterVideoNote: ['messageVideoNote'],
	searchMessagesFilterVoiceAndVideoNote: ['messageVoiceNote', 'messageVideoNote'],
}

/** The words of a message: its text or caption. */
function textOf(m: MessageRecord): string {
	const c = m.content as { text?: Td.formattedText; caption?: Td.formattedText }
	return (c.text?.text ?? c.caption?.text ?? '').toLowerCase()
}

/** What a search keeps: the query's words all in the text, the sender, the media kind. */
function matcher(
	query: string,
	senderId: number | undefined,
	filter: Td.SearchMessagesFilter$Input | undefined,
) {
	const words = query.toLowerCase().split(/\s+/).filter(Boolean)
	const kinds = FILTER_CONTENT[filter?._ ?? 'searchMessagesFilterEmpty']
	if (kinds === undefined) fail('The filter is not supported')
	return (m: MessageRecord) =>
		(senderId === undefined || m.senderId === senderId) &&
		(!kinds || kinds.includes(m.content._)) &&
		words.every((w) => textOf(m).includes(w))
}

/** What a `SearchMessagesChatTypeFilter` lets through: a group is a basic group or a supergroup. */
const CHAT_TYPE_KINDS: Record<string, readonly ChatRecord['kind'][]> = {
	searchMessagesChatTypeFilterPrivate: ['private'],
	searchMessagesChatTypeFilterGroup: ['basicGroup', 'supergroup'],
	searchMessagesChatTypeFilterChannel: ['channel'],
}

function senderOf(s: Session, sender: Td.MessageSender$Input | undefined): number | undefined {
	if (!sender) return undefined
	if (sender._ === 'messageSenderUser') return sender.user_id ?? 0
	// A chat as sender: in the emulator only channels post as themselves.
	return s.world.chatFor(s.userId, sender.chat_id ?? 0) ? -1 : 0
}

export const historyHandlers: Handlers = {
	/**
	 * Newest first from `from_message_id` (included; 0: the newest) moved by `offset` (negative: that
	 * many newer ones too), at most `limit` (up to 100). As TDLib's, the first call on a chat whose
	 * history this client never fetched answers with the last message alone: that is all TDLib holds
	 * before it asks the server; the next calls answer full pages.
	 */
	getChatHistory(s, req) {
		let limit = req.limit ?? 0
		const offset = req.offset ?? 0
		if (limit <= 0) fail('Parameter limit must be positive')
		if (limit > MAX_HISTORY) limit = MAX_HISTORY
		if (offset > 0) fail('Parameter offset must be non-positive')
		if (offset <= -MAX_HISTORY) fail('Parameter offset must be greater than -100')
		if (offset < -limit) fail('Parameter offset must be greater than or equal to -limit')
		if (limit === -offset) limit++
		const fromId = req.from_message_id ?? 0
		if (
			fromId < 0 ||
			(fromId !== 0 && fromId % MESSAGE_ID_SHIFT !== 0 && fromId / MESSAGE_ID_SHIFT < 2 ** 31)
		)
			fail('Invalid value of parameter from_message_id specified')
		const chat = requireChat(s, req.chat_id)
		const chatId = req.chat_id ?? 0
		const ids = newestFirst(chat)
		const from = fromServerId(fromId)
		let at = ids.findIndex((id) => id <= from)
		if (at === -1) at = ids.length
		const start = Math.max(0, at + offset)
		let page = ids.slice(start, at + offset + limit)
		if (!s.historyLoaded.has(chatId) && from === Number.POSITIVE_INFINITY) {
			page = page.slice(0, 1)
			if (!req.only_local) s.historyLoaded.add(chatId)
		} else if (!req.only_local) s.historyLoaded.add(chatId)
		const messages = page.map((id) => messageObject(s.world, chat, chat.messages.get(id)!, s.userId))
		return { _: 'messages', total_count: messages.length, messages }
	},
	/**
	 * Messages of one chat with the query's words, from a sender, of a media kind; newest first,
	 * before `from_message_id` (0: from the newest), as the server's `messages.search` pages.
	 */
	searchChatMessages(s, req) {
		let limit = req.limit ?? 0
		const offset = req.offset ?? 0
		if (limit <= 0) fail('Parameter limit must be positive')
		if (limit > MAX_HISTORY) limit = MAX_HISTORY
		if (limit <= -offset) fail('Parameter limit must be greater than -offset')
		if (offset > 0) fail('Parameter offset must be non-positive')
		const fromId = req.from_message_id ?? 0
		if (
			fromId < 0 ||
			(fromId !== 0 && fromId % MESSAGE_ID_SHIFT !== 0 && fromId / MESSAGE_ID_SHIFT < 2 ** 31)
		)
			fail('Parameter from_message_id must be identifier of a chat message or 0')
		const chat = requireChat(s, req.chat_id)
		const keep = matcher(req.query ?? '', senderOf(s, req.sender_id), req.filter)
		const found = newestFirst(chat).filter((id) => keep(chat.messages.get(id)!))
		const from = fromServerId(fromId)
		let at = found.findIndex((id) => id < from)
		if (at === -1) at = found.length
		const start = Math.max(0, at + offset)
		const page = found.slice(start, at + offset + limit)
		const last = page.at(-1)
		const more = last !== undefined && found.indexOf(last) < found.length - 1
		return {
			_: 'foundChatMessages',
			total_count: found.length,
			messages: page.map((id) => messageObject(s.world, chat, chat.messages.get(id)!, s.userId)),
			next_from_message_id: more ? last * MESSAGE_ID_SHIFT : 0,
		}
	},
	/**
	 * Messages of every chat of the account with the query's words, newest first by (date, chat,
	 * message); `offset` is the previous answer's `next_offset` (ours: the last one's position).
	 */
	searchMessages(s, req) {
		const limit = Math.min(req.limit ?? 0, MAX_HISTORY)
		if (limit <= 0) fail('Parameter limit must be positive')
		const query = req.query ?? ''
		const empty = { _: 'foundMessages' as const, total_count: 0, messages: [], next_offset: '' }
		if (req.chat_list?._ === 'chatListArchive') return empty
		const keep = matcher(query, undefined, req.filter)
		// The server searches nothing without words or a filter.
		if (!query.trim() && (!req.filter || req.filter._ === 'searchMessagesFilterEmpty')) return empty
		const minDate = req.min_date ?? 0
		const maxDate = req.max_date || Number.POSITIVE_INFINITY
		const hits: Array<{ key: [number, number, number]; chat: ChatRecord; m: MessageRecord }> = []
		const kinds = req.chat_type_filter ? CHAT_TYPE_KINDS[req.chat_type_filter._] : undefined
		for (const chat of s.world.chatsOf(s.userId)) {
			if (kinds && !kinds.includes(chat.kind)) continue
			const chatId = s.world.chatIdFor(s.userId, chat)
			for (const m of chat.messages.values()) {
				if (m.date < minDate || m.date > maxDate || !keep(m)) continue
				hits.push({ key: [m.date, chatId, m.serverId], chat, m })
			}
		}
		const cmp = (a: [number, number, number], b: [number, number, number]) =>
			b[0] - a[0] || b[1] - a[1] || b[2] - a[2]
		hits.sort((a, b) => cmp(a.key, b.key))
		const after = /^(-?\d+),(-?\d+),(\d+)$/.exec(req.offset ?? '')
		const cursor = after
			? ([Number(after[1]), Number(after[2]), Number(after[3])] as [number, number, number])
			: null
		const rest = cursor ? hits.filter((h) => cmp(cursor, h.key) < 0) : hits
		const page = rest.slice(0, limit)
		const last = page.at(-1)
		return {
			_: 'foundMessages',
			total_count: hits.length,
			messages: page.map((h) => messageObject(s.world, h.chat, h.m, s.userId)),
			next_offset: last && rest.length > page.length ? last.key.join(',') : '',
		}
	},
	/** Reads the chat up to the newest of the messages viewed; the account's clients hear the new count. */
	viewMessages(s, req) {
		const chat = requireChat(s, req.chat_id)
		let newest = 0
		for (const id of req.message_ids ?? []) {
			if (!Number.isInteger(id) || id <= 0) fail('Invalid message identifier')
			const m = s.world.message(chat, id)
			if (m && m.serverId > newest) newest = m.serverId
		}
		if (newest > 0 && markRead(s.world, s.userId, chat, newest)) {
			s.world.notify([s.userId], (viewer) => ({
				_: 'updateChatReadInbox',
				chat_id: s.world.chatIdFor(viewer, chat),
				last_read_inbox_message_id: newest * MESSAGE_ID_SHIFT,
				unread_count: unreadCount(s.world, viewer, chat),
			}))
		}
		return OK
	},
}
