import { rightsOf } from '../members/rights'
import { fail, type Session } from '../session'
import { type ChatRecord, MESSAGE_ID_SHIFT, type MessageRecord } from '../world'

/** Who may read and write where: the chat and message a request names, found for its account or refused. */

/** In a channel only administrators who may post write; in groups everyone who is in. */
export const canWrite = (chat: ChatRecord, userId: number) =>
	chat.kind !== 'channel' || rightsOf(chat, userId)?.can_post_messages === true

export function requireChat(s: Session, chatId: number | undefined, notFound = 'Chat not found'): ChatRecord {
	return s.world.chatFor(s.userId, chatId ?? 0) ?? fail(notFound)
}

export function requireMessage(s: Session, chat: ChatRecord, messageId: number | undefined): MessageRecord {
	return s.world.message(chat, messageId ?? 0) ?? fail('Message not found')
}

export function writable(s: Session, chatId: number | undefined, notFound?: string): ChatRecord {
	const chat = requireChat(s, chatId, notFound)
	if (!canWrite(chat, s.userId)) fail('Have no write access to the chat')
	return chat
}

export const isServerMessageId = (id: number) =>
	Number.isSafeInteger(id) && id > 0 && id % MESSAGE_ID_SHIFT === 0
