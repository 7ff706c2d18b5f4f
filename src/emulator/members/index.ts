import type * as Td from 'tdlib-types'
import { requireChat } from '../messages/access'
import { fail, type Handlers, OK } from '../session'
import { MESSAGE_ID_SHIFT } from '../world'
import { memberAddHandlers } from './add'
import { memberAdminHandlers } from './admin'
import { newGroupHandlers } from './create'
import { memberListHandlers } from './list'
import { eventLogHandlers } from './log'
import { canDeleteMessages } from './rights'
import { kickFromBasicGroup, nextOf, setBasicGroupStatus, setChannelStatus, untilDate } from './status'

/**
 * Chat members: statuses, administrator rights and tags, bans, adding and removing, ownership, the
 * event log, and creating groups to hold them. One file per part beside this one; this one changes
 * statuses and puts the parts together.
 */

const userOf = (sender: Td.MessageSender$Input | undefined) =>
	sender?._ === 'messageSenderUser' ? (sender.user_id ?? 0) : undefined

const statusHandlers: Handlers = {
	setChatMemberStatus(s, req) {
		const chat = requireChat(s, req.chat_id)
		if (chat.kind === 'private') return fail("Chat member status can't be changed in private chats")
		const next = nextOf(s, chat, req.status)
		const userId = userOf(req.member_id)
		if (userId === undefined) {
			// Another chat as a member: only supergroups know of those, and only to ban or unban them.
			if (chat.kind === 'basicGroup')
				return next.kind === 'left' ? OK : fail("Chats can't be members of basic groups")
			return next.kind === 'banned' || next.kind === 'left'
				? OK
				: fail('Other chats can be only banned or unbanned')
		}
		if (chat.kind === 'basicGroup') return setBasicGroupStatus(s, chat, userId, next)
		return setChannelStatus(s, chat, userId, next)
	},
	banChatMember(s, req) {
		const chat = requireChat(s, req.chat_id)
		if (chat.kind === 'private') return fail("Can't ban members in private chats")
		const userId = userOf(req.member_id)
		if (chat.kind === 'basicGroup') {
			if (userId === undefined) return fail("Can't ban chats in basic groups")
			// A basic group has no ban list: the member is removed, with their messages if asked.
			return kickFromBasicGroup(s, chat, userId, req.revoke_messages === true)
		}
		if (userId === undefined) return OK
		return setChannelStatus(s, chat, userId, {
			kind: 'banned',
			until: untilDate(s, req.banned_until_date ?? 0),
		})
	},
	deleteChatMessagesBySender(s, req) {
		const chat = requireChat(s, req.chat_id)
		const senderId = userOf(req.sender_id) ?? 0
		if (!s.world.users.has(senderId)) fail('Message sender not found')
		if (chat.kind !== 'supergroup' && chat.kind !== 'channel')
			fail('All messages from a sender can be deleted only in supergroup chats')
		if (chat.kind === 'channel') fail('The method is available only in regular supergroup chats')
		if (!canDeleteMessages(chat, s.userId))
			fail('Need delete messages administrator right in the supergroup chat')
		const ids: number[] = []
		for (const [serverId, m] of chat.messages) {
			if (m.senderId !== senderId) continue
			chat.messages.delete(serverId)
			ids.push(serverId * MESSAGE_ID_SHIFT)
		}
		if (ids.length > 0) {
			s.emit({
				_: 'updateDeleteMessages',
				chat_id: chat.id,
				message_ids: ids,
				is_permanent: true,
				from_cache: false,
			})
		}
		return OK
	},
}

export const memberHandlers: Handlers = {
	...memberListHandlers,
	...memberAddHandlers,
	...statusHandlers,
	...memberAdminHandlers,
	...eventLogHandlers,
	...newGroupHandlers,
}
