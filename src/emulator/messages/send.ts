import type * as Td from 'tdlib-types'
import type { TdUpdate } from '../../runtime/telegram/types'
import { messageObject } from '../objects'
import { fail, type Session } from '../session'
import { type ChatRecord, MESSAGE_ID_SHIFT, type MessageRecord } from '../world'
import { isServerMessageId, requireChat, writable } from './access'
import { withCaption } from './content'
import { sendFailed, sendRefusal } from './send-failures'

/** A message sent: its topic and reply checked, stored, TDLib's temporary copy then the final one. */

/**
 * The topic of a message to send, checked as TDLib's `MessageTopic::get_send_message_topic` does,
 * with its error strings (docs/tdlib-mapping.md#messages).
 */
export function sendTopic(
	chat: ChatRecord,
	topic: Td.MessageTopic$Input | undefined,
): Td.MessageTopic | undefined {
	switch (topic?._) {
		case undefined:
			return undefined
		case 'messageTopicThread': {
			const id = topic.message_thread_id ?? 0
			if (chat.kind !== 'supergroup') fail("Chat doesn't have threads")
			if (!isServerMessageId(id)) fail('Invalid message thread identifier specified')
			return { _: 'messageTopicThread', message_thread_id: id }
		}
		case 'messageTopicForum': {
			const id = topic.forum_topic_id ?? 0
			if (!Number.isInteger(id) || id <= 0 || id >= 2 ** 31) fail('Invalid topic identifier specified')
			if (chat.kind !== 'supergroup' || !chat.isForum) fail('Chat is not a forum')
			return { _: 'messageTopicForum', forum_topic_id: id }
		}
		case 'messageTopicDirectMessages':
			return fail('Chat is not an administered channel direct messages chat')
		default:
			return fail('Chat is not the Saved Messages chat')
	}
}

export function replyTo(
	s: Session,
	chat: ChatRecord,
	reply: Td.InputMessageReplyTo$Input | undefined,
): number | undefined {
	if (reply?._ !== 'inputMessageReplyToMessage') return undefined
	// TDLib sends without the reply when the replied message is gone.
	return s.world.message(chat, reply.message_id ?? 0)?.serverId
}

/**
 * Emulator-only (client.ts): another device of the account sends `text` to the chat. The cloud
 * stores it and every member's client hears of it, this account's own client too: the sent message,
 * outgoing, with no `sending_state` (this client never had a temporary copy of it).
 */
export function sendFromOtherDevice(s: Session, chatId: number, text: string): Td.message {
	const chat = writable(s, chatId)
	const record = s.world.addMessage(
		chat,
		s.userId,
		{ _: 'messageText', text: { _: 'formattedText', text, entities: [] } } as Td.messageText,
		{},
	)
	s.world.notify(chat.members.keys(), (viewer) => ({
		_: 'updateNewMessage',
		message: messageObject(s.world, chat, record, viewer),
	}))
	return messageObject(s.world, chat, record, s.userId)
}

/**
 * Stores the message and answers with TDLib's temporary copy (pending, id one above the final
 * one); `updateMessageSendSucceeded` with the final message follows on the next turn, or
 * `updateMessageSendFailed` when the cloud refuses it (send-failures.ts).
 */
export function send(
	s: Session,
	chat: ChatRecord,
	content: Td.MessageContent,
	extra: Partial<MessageRecord>,
): Td.message {
	const record = s.world.addMessage(chat, s.userId, content, extra)
	const tempId = record.serverId * MESSAGE_ID_SHIFT + 1
	const temp: Td.message = {
		...messageObject(s.world, chat, record, s.userId, tempId),
		sending_state: { _: 'messageSendingStatePending', sending_id: 0 },
	}
	s.emit({ _: 'updateNewMessage', message: temp })
	const refused = sendRefusal(content)
	// Refused by the cloud: it never had the message; the client hears why on the next turn.
	if (refused) chat.messages.delete(record.serverId)
	setTimeout(() => {
		if (refused) return s.emit(sendFailed(temp, refused))
		const update: TdUpdate = {
			_: 'updateMessageSendSucceeded',
			message: messageObject(s.world, chat, record, s.userId),
			old_message_id: tempId,
		}
		s.emit(update)
		// Then every other member hears of it, as TDLib tells them: the final message, in their chat.
		s.world.notify(
			chat.members.keys(),
			(viewer) => ({ _: 'updateNewMessage', message: messageObject(s.world, chat, record, viewer) }),
			s,
		)
	}, 0)
	return temp
}

/**
 * `sendMessage` of an `inputMessageForwarded`: a forward of one message or, with
 * `copy_options.send_copy`, a copy without its sender whose caption `replace_caption` replaces.
 */
export function sendForwarded(
	s: Session,
	to: ChatRecord,
	input: Td.inputMessageForwarded$Input,
	extra: Pick<MessageRecord, 'replyTo' | 'topic' | 'protectedContent'>,
): Td.message {
	const from = requireChat(s, input.from_chat_id, 'Chat to forward messages from not found')
	const copy = input.copy_options
	const sendCopy = copy?.send_copy ?? false
	const m = s.world.message(from, input.message_id ?? 0)
	if (!m) return fail(sendCopy ? "The message can't be copied" : "The message can't be forwarded")
	const content =
		sendCopy && copy?.replace_caption
			? withCaption(m.content, copy.new_caption, copy.new_show_caption_above_media ?? false)
			: m.content
	return send(s, to, content, { ...extra, forwardedFrom: sendCopy ? undefined : m.senderId })
}

/** `protect_content` of a send's options, as the message record keeps it. */
export const protectedBy = (options: Td.messageSendOptions$Input | undefined) =>
	options?.protect_content ? { protectedContent: true } : {}
