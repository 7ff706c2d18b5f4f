import { botMessageId, messageOf } from './objects'

/**
 * TDLib's updates of a user account as the Bot API's `Update` kinds (docs/bot-api.md#updates).
 * TDLib tells a user account no `updateChatMember`, `updateNewChatJoinRequest` nor
 * `updateMessageReaction(s)` (each "for bots only" in its schema): a member's change reaches it as a
 * service message, so `my_chat_member` and `chat_member` are read from those.
 */
export const UPDATE_TYPES = [
	'message',
	'edited_message',
	'channel_post',
	'edited_channel_post',
	'my_chat_member',
	'chat_member',
	'chat_join_request',
	'message_reaction',
] as const
export type UpdateType = (typeof UPDATE_TYPES)[number]

/** What Telegram sends when `allowed_updates` is empty or was never given: all but these. */
export const DEFAULT_TYPES: ReadonlySet<UpdateType> = new Set(
	UPDATE_TYPES.filter((t) => t !== 'chat_member' && t !== 'message_reaction'),
)

/** The TDLib kinds read here (forwarded by the supervisor whether or not a socket subscribes). */
export const TD_KINDS = [
	'updateNewMessage',
	'updateMessageSendSucceeded',
	'updateMessageContent',
	'updateMessageEdited',
] as const

type Td = Record<string, unknown>
const obj = (x: unknown): Td => (typeof x === 'object' && x !== null ? (x as Td) : {})

/** A `Message` of a channel has a chat of type `channel` (TDLib: `is_channel_post`). */
export function postOf(message: Td) {
	const m = messageOf(message)
	return message.is_channel_post === true ? { ...m, chat: { ...m.chat, type: 'channel' } } : m
}

/** A member's change, read from its service message: who, by whom, from which status to which. */
export interface MemberChange {
	userId: number
	body: {
		chat: ReturnType<typeof messageOf>['chat']
		from: { id: number; is_bot: false; first_name: string }
		date: unknown
		old_chat_member: { status: string; user: { id: number; is_bot: false; first_name: string } }
		new_chat_member: { status: string; user: { id: number; is_bot: false; first_name: string } }
	}
}

const user = (id: number) => ({ id, is_bot: false as const, first_name: '' })

/** The members' changes a service message tells of (none for any other message). */
export function memberChanges(message: Td): MemberChange[] {
	const content = obj(message.content)
	const sender = obj(message.sender_id)
	const actor = Number(sender.user_id ?? 0)
	const change = (userId: number, from: string, to: string): MemberChange => ({
		userId,
		body: {
			chat: postOf(message).chat,
			from: user(actor || userId),
			date: message.date,
			old_chat_member: { status: from, user: user(userId) },
			new_chat_member: { status: to, user: user(userId) },
		},
	})
	switch (content._) {
		case 'messageChatAddMembers': {
			const ids = Array.isArray(content.member_user_ids) ? content.member_user_ids : []
			return ids.filter((id) => Number.isSafeInteger(id)).map((id) => change(Number(id), 'left', 'member'))
		}
		case 'messageChatJoinByLink':
		case 'messageChatJoinByRequest':
			return actor ? [change(actor, 'left', 'member')] : []
		case 'messageChatDeleteMember': {
			const id = Number(content.user_id)
			if (!Number.isSafeInteger(id)) return []
			return [change(id, 'member', id === actor ? 'left' : 'kicked')]
		}
		default:
			return []
	}
}

/** The key of a message in the caches: its chat and its Bot API id. */
export const messageKey = (chatId: unknown, tdId: unknown) => `${chatId}:${botMessageId(Number(tdId))}`
