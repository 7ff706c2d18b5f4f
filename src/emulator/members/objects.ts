import type * as Td from 'tdlib-types'
import type { ChatRecord, MemberRecord, World } from '../world'
import { canEditAdmin, rightsOf } from './rights'

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

/**
 * `chatMember.inviter_user_id`, "who invited/promoted/banned this member": TDLib reads a supergroup's
 * or channel's administrator from `channelParticipantAdmin`, whose `promoted_by` it gives here (it
 * even holds an administrator without one invalid); a basic group's administrator keeps who added
 * them (`chatParticipantAdmin.inviter_id`); a banned user, who banned them.
 */
function inviterOf(chat: ChatRecord, member: MemberRecord | undefined, bannedBy: number | undefined): number {
	if (!member) return bannedBy ?? 0
	if (member.role === 'administrator' && chat.kind !== 'basicGroup') return member.promotedBy ?? 0
	return member.inviterUserId
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
		inviter_user_id: inviterOf(chat, member, ban?.bannedBy),
		joined_chat_date: member?.joinedDate ?? ban?.date ?? 0,
		status: memberStatus(world, chat, userId, viewerId),
	}
}
