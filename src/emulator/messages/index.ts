import type * as Td from 'tdlib-types'
import type { TdUpdate } from '../../runtime/telegram/types'
import { isAdmin } from '../members/rights'
import { messageObject } from '../objects'
import { fail, type Handlers, OK, type Session } from '../session'
import { type ChatRecord, MESSAGE_ID_SHIFT, type MessageRecord } from '../world'
import { requireChat, requireMessage, writable } from './access'
import { ALBUM_KINDS, messageContent, withCaption } from './content'
import { parseTextEntities } from './parse-text'
import { protectedBy, replyTo, send, sendForwarded, sendTopic } from './send'

/** The messages group: sending, forwarding, editing, pinning, reactions, auto-delete timers. */

/** The contents that carry a caption (editMessageCaption's). */
const CAPTIONED = new Set([
	'messagePhoto',
	'messageVideo',
	'messageAnimation',
	'messageDocument',
	'messageAudio',
	'messageVoiceNote',
])

/** An edit's outcome: the new content and its date, told to every member's client, the editor's too. */
function edited(s: Session, chat: ChatRecord, m: MessageRecord, content: Td.MessageContent): Td.message {
	m.content = content
	m.editDate = s.world.now()
	const messageId = m.serverId * MESSAGE_ID_SHIFT
	s.world.notify(chat.members.keys(), (viewer) => ({
		_: 'updateMessageContent',
		chat_id: s.world.chatIdFor(viewer, chat),
		message_id: messageId,
		new_content: m.content,
	}))
	s.world.notify(chat.members.keys(), (viewer) => ({
		_: 'updateMessageEdited',
		chat_id: s.world.chatIdFor(viewer, chat),
		message_id: messageId,
		edit_date: m.editDate,
	}))
	return messageObject(s.world, chat, m, s.userId)
}

const ttlValid = (t: number) => Number.isInteger(t) && t >= 0 && t <= 365 * 86_400 && t % 86_400 === 0

export const messageHandlers: Handlers = {
	// A static request of TDLib's: answered in any state, by TDLib's own parsers (parse-text/).
	parseTextEntities(_s, req) {
		const parsed = parseTextEntities(req.text ?? '', req.parse_mode)
		return parsed.ok ? parsed.text : fail(parsed.message)
	},
	getMessage(s, req) {
		const chat = requireChat(s, req.chat_id)
		return messageObject(s.world, chat, requireMessage(s, chat, req.message_id), s.userId)
	},
	sendMessage(s, req) {
		const chat = writable(s, req.chat_id)
		const topic = sendTopic(chat, req.topic_id)
		const input = req.input_message_content
		const reply = replyTo(s, chat, req.reply_to)
		const extra = { replyTo: reply, topic, ...protectedBy(req.options) }
		if (input?._ === 'inputMessageForwarded') return sendForwarded(s, chat, input, extra)
		return send(s, chat, messageContent(s.world, input, s.userId), extra)
	},
	sendMessageAlbum(s, req) {
		// TDLib counts before it looks for the chat, and reads each content before judging its kind.
		const inputs = req.input_message_contents ?? []
		if (inputs.length > 10) fail('Too many messages to send as an album')
		if (inputs.length === 0) fail('There are no messages to send')
		const chat = writable(s, req.chat_id)
		const topic = sendTopic(chat, req.topic_id)
		const contents = inputs.map((i) => {
			const content = messageContent(s.world, i, s.userId)
			if (!ALBUM_KINDS.has(i._)) fail('Invalid message content type')
			return content
		})
		const albumId = String(s.world.now())
		const reply = replyTo(s, chat, req.reply_to)
		const messages = contents.map((c) => send(s, chat, c, { albumId, replyTo: reply, topic }))
		return { _: 'messages', total_count: messages.length, messages }
	},
	deleteMessages(s, req) {
		const chat = requireChat(s, req.chat_id)
		const ids = req.message_ids ?? []
		for (const id of ids) if (!Number.isInteger(id) || id <= 0) fail('Invalid message identifier')
		const found = ids.map((id) => s.world.message(chat, id)).filter((m) => m !== undefined)
		for (const m of found) {
			if (m.senderId !== s.userId && !isAdmin(chat, s.userId)) fail("Message can't be deleted")
		}
		for (const m of found) chat.messages.delete(m.serverId)
		if (found.length) {
			const message_ids = found.map((m) => m.serverId * MESSAGE_ID_SHIFT)
			const deleted = (viewer: number): TdUpdate => ({
				_: 'updateDeleteMessages',
				chat_id: s.world.chatIdFor(viewer, chat),
				message_ids,
				is_permanent: true,
				from_cache: false,
			})
			s.emit(deleted(s.userId))
			// Revoked for everyone in groups and when asked; a private chat's copy only when `revoke`.
			if (chat.kind !== 'private' || req.revoke) s.world.notify(chat.members.keys(), deleted, s)
		}
		return OK
	},
	forwardMessages(s, req) {
		// TDLib's order: the count, the source chat, the target chat, then each identifier.
		const ids = req.message_ids ?? []
		if (ids.length > 100) fail('Too many messages to forward')
		if (ids.length === 0) fail('There are no messages to forward')
		const from = requireChat(s, req.from_chat_id, 'Chat to forward messages from not found')
		const to = writable(s, req.chat_id, 'Chat to forward messages to not found')
		for (let i = 0; i < ids.length; i++) {
			if (!Number.isInteger(ids[i]) || ids[i]! <= 0) fail('Invalid message identifier')
			if (i > 0 && ids[i]! <= ids[i - 1]!) fail('Message identifiers must be in a strictly increasing order')
		}
		if (req.topic_id) fail("Can't forward messages to a specific message thread")
		const messages = ids.map((id) => {
			const m = s.world.message(from, id)
			if (!m) return null
			const forwardedFrom = req.send_copy ? undefined : m.senderId
			return send(s, to, m.content, { forwardedFrom, ...protectedBy(req.options) })
		})
		return { _: 'messages', total_count: messages.length, messages }
	},
	editMessageText(s, req) {
		const chat = requireChat(s, req.chat_id)
		const m = requireMessage(s, chat, req.message_id)
		if (m.senderId !== s.userId) fail("Message can't be edited")
		if (m.content._ !== 'messageText') fail('There is no text in the message to edit')
		if (req.input_message_content?._ !== 'inputMessageText') fail('Invalid message content type')
		const content = messageContent(s.world, req.input_message_content, s.userId)
		if (JSON.stringify(content) === JSON.stringify(m.content)) fail('MESSAGE_NOT_MODIFIED')
		return edited(s, chat, m, content)
	},
	editMessageCaption(s, req) {
		// TDLib's order (MessagesManager::edit_message_caption): the message, its right to be edited,
		// a content that has a caption.
		const chat = requireChat(s, req.chat_id)
		const m = requireMessage(s, chat, req.message_id)
		if (m.senderId !== s.userId) fail("Message can't be edited")
		if (!CAPTIONED.has(m.content._)) fail('There is no caption in the message to edit')
		const content = withCaption(m.content, req.caption, req.show_caption_above_media ?? false)
		if (JSON.stringify(content) === JSON.stringify(m.content)) fail('MESSAGE_NOT_MODIFIED')
		return edited(s, chat, m, content)
	},
	pinChatMessage(s, req) {
		// TDLib's order: the chat, the right to pin, the message, then only_for_self.
		const chat = requireChat(s, req.chat_id)
		if (!isAdmin(chat, s.userId)) fail('Not enough rights to manage pinned messages in the chat')
		const m = requireMessage(s, chat, req.message_id)
		if (req.only_for_self && chat.kind !== 'private')
			fail("Messages can't be pinned only for self in the chat")
		m.pinned = true
		return OK
	},
	unpinChatMessage(s, req) {
		const chat = requireChat(s, req.chat_id)
		if (!isAdmin(chat, s.userId)) fail('Not enough rights to manage pinned messages in the chat')
		const m = requireMessage(s, chat, req.message_id)
		m.pinned = false
		return OK
	},
	unpinAllChatMessages(s, req) {
		const chat = requireChat(s, req.chat_id)
		if (!isAdmin(chat, s.userId)) fail('Not enough rights to manage pinned messages in the chat')
		for (const m of chat.messages.values()) m.pinned = false
		return OK
	},
	addMessageReaction(s, req) {
		const chat = requireChat(s, req.chat_id)
		const m = requireMessage(s, chat, req.message_id)
		const type = req.reaction_type
		if (type?._ === 'reactionTypePaid')
			fail('Use addPendingPaidMessageReaction instead to add the paid reaction')
		const emoji = type?._ === 'reactionTypeEmoji' ? (type.emoji ?? '') : ''
		if (!s.world.reactions.includes(emoji)) fail("The reaction isn't available for the message")
		// Without Premium an account holds one reaction: the new one displaces the old.
		for (const users of m.reactions.values()) users.delete(s.userId)
		const users = m.reactions.get(emoji) ?? new Set<number>()
		users.add(s.userId)
		m.reactions.set(emoji, users)
		return OK
	},
	removeMessageReaction(s, req) {
		const chat = requireChat(s, req.chat_id)
		const m = requireMessage(s, chat, req.message_id)
		// MessagesManager::remove_message_reaction: ok when the reaction was not chosen.
		const type = req.reaction_type
		if (type === undefined || type._ === 'reactionTypePaid') fail('Invalid reaction specified')
		const emoji = type?._ === 'reactionTypeEmoji' ? (type.emoji ?? '') : ''
		m.reactions.get(emoji)?.delete(s.userId)
		if (m.reactions.get(emoji)?.size === 0) m.reactions.delete(emoji)
		return OK
	},
	getDefaultMessageAutoDeleteTime(s) {
		const time = s.world.users.get(s.userId)?.defaultAutoDeleteTime ?? 0
		return { _: 'messageAutoDeleteTime', time }
	},
	setDefaultMessageAutoDeleteTime(s, req) {
		const value = req.message_auto_delete_time
		if (!value) return fail('New default message auto-delete time must be non-empty')
		const time = value.time ?? 0
		if (!ttlValid(time)) fail('TTL_PERIOD_INVALID')
		const user = s.world.users.get(s.userId)
		if (user) user.defaultAutoDeleteTime = time
		return OK
	},
	setChatMessageAutoDeleteTime(s, req) {
		// TDLib's order: the value, the chat and the right to write there, then the chat's kind and rights.
		const time = req.message_auto_delete_time ?? 0
		if (time < 0) fail("Message auto-delete time can't be negative")
		const chat = writable(s, req.chat_id)
		if (chat.kind === 'private' && (chat.members.has(777000) || chat.members.size === 1)) {
			fail("Message auto-delete time in the chat can't be changed")
		}
		if (!isAdmin(chat, s.userId)) fail('Not enough rights to change message auto-delete time in the chat')
		chat.autoDeleteTime = time
		return OK
	},
}
