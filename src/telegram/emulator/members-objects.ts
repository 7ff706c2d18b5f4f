import type * as Td from 'tdlib-types'
import { canEditAdmin, rightsOf } from './members-rights'
import type { ChatRecord, World } from './world'

/** TDLib's `ChatMemberStatus` and `chatMember` objects, built from member records as one viewer sees them. */

/** The status of `userId` in `chat`, as `viewerId` sees it (`can_be_edited` depends on the viewer). */
export function memberStatus(
	world: World,
	chat: ChatRecord,
	userId: number,
	viewerId: number,
): Td.ChatMemberStatus {
	const member = chat.members.get(userId)
	if (!member) {
		if (!world.isBanned(chat, userId)) return { _: 'chatMemberStatusLeft' }
		return { _: 'chatMemberStatusBanned', banned_until_date: chat.banned.get(userId)?.until ?? 0 }
	}
	switch (member.role) {
		case 'creator':
			return { _: 'chatMemberStatusCreator', is_anonymous: false, is_member: true }
		case 'administrator':
			return {
				_: 'chatMemberStatusAdministrator',
				can_be_edited: canEditAdmin(chat, viewerId, member),
				rights: rightsOf(chat, userId)!,
			}
	}
	const restriction = member.restriction
	if (restriction && (restriction.until === 0 || restriction.until > world.clock)) {
		return {
			_: 'chatMemberStatusRestricted',
			is_member: true,
			restricted_until_date: restriction.until,
			permissions: restriction.permissions,
		}
	}
	return { _: 'chatMemberStatusMember', member_until_date: 0 }
}

/** `userId` as a `chatMember` of `chat`: present, banned or (no record) left. */
export function chatMemberObject(
	world: World,
	chat: ChatRecord,
	userId: number,
	viewerId: number,
): Td.chatMember {
	const member = chat.members.get(userId)
	const ban = member ? undefined : chat.banned.get(userId)
	return {
		_: 'chatMember',
		member_id: { _: 'messageSenderUser', user_id: userId },
		tag: member?.tag ?? '',
		inviter_user_id: member?.inviterUserId ?? ban?.bannedBy ?? 0,
		joined_chat_date: member?.joinedDate ?? ban?.date ?? 0,
		status: memberStatus(world, chat, userId, viewerId),
	}
}
