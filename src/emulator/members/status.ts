import type * as Td from 'tdlib-types'
import { postService } from '../messages/service'
import { fail, OK, type Session } from '../session'
import type { ChatRecord } from '../world'
import { addToBasicGroup, addToSupergroup, invite } from './add'
import { memberStatus } from './objects'
import {
	ADMIN_RIGHTS,
	canEditAdmin,
	canPromote,
	canRestrict,
	defaultPermissions,
	effectiveRights,
	exceeds,
	rightsOf,
} from './rights'

/**
 * Changing a member's status (`setChatMemberStatus`, `banChatMember`), with TDLib's checks and
 * words (`DialogParticipantManager::set_channel_participant_status_impl`, `set_chat_participant_status`,
 * `restrict_channel_participant`, `delete_chat_participant`) and then the server's.
 */

export type Next =
	| { kind: 'creator' }
	| { kind: 'administrator'; rights: Td.chatAdministratorRights }
	| { kind: 'member' }
	| { kind: 'restricted'; isMember: boolean; until: number; permissions: Td.chatPermissions }
	| { kind: 'banned'; until: number }
	| { kind: 'left' }

/** Bans and restrictions shorter than 30 seconds or longer than 366 days are for ever (TDLib's docs). */
export function untilDate(s: Session, until: number): number {
	const left = until - s.world.clock
	return until <= 0 || left < 30 || left > 366 * 86_400 ? 0 : until
}

function permissionsOf(input: Td.chatPermissions$Input | undefined): Td.chatPermissions {
	const out = defaultPermissions(false)
	for (const key of Object.keys(out) as Array<keyof Td.chatPermissions>) {
		if (key !== '_') out[key] = input?.[key] === true
	}
	return out
}

/** A requested status as TDLib reads it: rights that grant nothing make a plain member. */
export function nextOf(s: Session, chat: ChatRecord, status: Td.ChatMemberStatus$Input | undefined): Next {
	switch (status?._) {
		case 'chatMemberStatusCreator':
			return { kind: 'creator' }
		case 'chatMemberStatusAdministrator': {
			const rights = effectiveRights(chat, status.rights)
			return rights ? { kind: 'administrator', rights } : { kind: 'member' }
		}
		case 'chatMemberStatusRestricted':
			return {
				kind: 'restricted',
				isMember: status.is_member === true,
				until: untilDate(s, status.restricted_until_date ?? 0),
				permissions: permissionsOf(status.permissions),
			}
		case 'chatMemberStatusBanned':
			return { kind: 'banned', until: untilDate(s, status.banned_until_date ?? 0) }
		case 'chatMemberStatusLeft':
			return { kind: 'left' }
		default:
			return { kind: 'member' }
	}
}

function logChange(
	s: Session,
	chat: ChatRecord,
	userId: number,
	before: Td.ChatMemberStatus,
	promoted: boolean,
) {
	const after = memberStatus(s.world, chat, userId, s.userId)
	s.world.logEvent(
		chat,
		s.userId,
		promoted
			? { _: 'chatEventMemberPromoted', user_id: userId, old_status: before, new_status: after }
			: {
					_: 'chatEventMemberRestricted',
					member_id: { _: 'messageSenderUser', user_id: userId },
					old_status: before,
					new_status: after,
				},
	)
}

function sameStatus(before: Td.ChatMemberStatus, next: Next): boolean {
	switch (next.kind) {
		case 'administrator':
			return (
				before._ === 'chatMemberStatusAdministrator' &&
				JSON.stringify(before.rights) === JSON.stringify(next.rights)
			)
		case 'banned':
			return before._ === 'chatMemberStatusBanned' && before.banned_until_date === next.until
		case 'restricted':
			return false
		default:
			return before._ === `chatMemberStatus${next.kind[0]!.toUpperCase()}${next.kind.slice(1)}`
	}
}

/** The server's `channels.editAdmin`: promote, change rights, or demote to a member. */
function promote(s: Session, chat: ChatRecord, userId: number, before: Td.ChatMemberStatus, next: Next) {
	const me = s.userId
	if (userId === me) {
		if (next.kind === 'administrator') fail("Can't promote self")
	} else if (!canPromote(chat, me)) {
		fail('Not enough rights')
	}
	const target = chat.members.get(userId)
	if (target?.role === 'administrator' && userId !== me && !canEditAdmin(chat, me, target))
		fail('CHAT_ADMIN_REQUIRED')
	if (next.kind !== 'administrator') {
		if (target) {
			target.role = 'member'
			target.rights = undefined
			target.promotedBy = undefined
		}
		return logChange(s, chat, userId, before, true)
	}
	if (chat.members.get(me)?.role !== 'creator' && exceeds(next.rights, rightsOf(chat, me)!))
		fail('RIGHT_FORBIDDEN')
	if (!target) {
		// Telegram adds a user it is asked to promote, as an invite would.
		if (s.world.isBanned(chat, userId)) fail('USER_KICKED')
		if (!invite(s, chat, userId)) fail('USER_PRIVACY_RESTRICTED', 403)
	}
	const member = chat.members.get(userId)!
	member.role = 'administrator'
	member.rights = next.rights
	member.promotedBy = me
	member.restriction = undefined
	logChange(s, chat, userId, before, true)
}

/** The server's `channels.editBanned` (and leaving, for the account itself). */
function restrict(s: Session, chat: ChatRecord, userId: number, before: Td.ChatMemberStatus, next: Next) {
	const me = s.userId
	if (userId === me) {
		if (next.kind === 'restricted' || next.kind === 'banned') fail("Can't restrict self")
		if (next.kind === 'member') fail("Can't unrestrict self")
		chat.members.delete(me)
		s.world.logEvent(chat, me, { _: 'chatEventMemberLeft' })
		postService(s.world, chat, me, { _: 'messageChatDeleteMember', user_id: me }, [me])
		return
	}
	if (!canRestrict(chat, me)) fail('Not enough rights to restrict/unrestrict chat member')
	const target = chat.members.get(userId)
	if (target?.role === 'administrator' && !canEditAdmin(chat, me, target)) fail('USER_ADMIN_INVALID')
	const stays = next.kind === 'member' || (next.kind === 'restricted' && next.isMember)
	if (!stays) {
		// A kick (Left) leaves no ban behind: TDLib bans for a minute and lifts it a second later.
		chat.members.delete(userId)
		postService(s.world, chat, me, { _: 'messageChatDeleteMember', user_id: userId }, [userId])
		if (next.kind === 'banned')
			chat.banned.set(userId, { until: next.until, bannedBy: me, date: s.world.now() })
		else chat.banned.delete(userId)
		return logChange(s, chat, userId, before, false)
	}
	if (!target) {
		// Unban (or restrict while out), then add back: TDLib's two steps, the second one an add.
		chat.banned.delete(userId)
		logChange(s, chat, userId, before, false)
		const after = memberStatus(s.world, chat, userId, me)
		const failed = addToSupergroup(s, chat, [userId]).failed_to_add_members
		if (failed.length > 0) fail('USER_PRIVACY_RESTRICTED', 403)
		if (next.kind === 'restricted') {
			chat.members.get(userId)!.restriction = { permissions: next.permissions, until: next.until }
			logChange(s, chat, userId, after, false)
		}
		return
	}
	if (target.role === 'administrator') {
		target.role = 'member'
		target.rights = undefined
		target.promotedBy = undefined
	}
	target.restriction =
		next.kind === 'restricted' ? { permissions: next.permissions, until: next.until } : undefined
	logChange(s, chat, userId, before, false)
}

/** `setChatMemberStatus` in a supergroup or channel (`set_channel_participant_status_impl`). */
export function setChannelStatus(s: Session, chat: ChatRecord, userId: number, next: Next) {
	if (!s.world.users.has(userId)) fail('Member not found')
	const before = memberStatus(s.world, chat, userId, s.userId)
	const wasCreator = before._ === 'chatMemberStatusCreator'
	if (sameStatus(before, next) && !wasCreator) return OK
	if (next.kind === 'creator' || wasCreator) {
		if (!wasCreator) fail("Can't add another owner to the chat")
		if (next.kind !== 'creator') fail("Can't remove chat owner")
		if (userId !== s.userId) fail('Not enough rights to edit chat owner rights')
		return OK
	}
	const wasAdmin = before._ === 'chatMemberStatusAdministrator'
	if (next.kind === 'administrator' || (next.kind === 'member' && wasAdmin))
		promote(s, chat, userId, before, next)
	else if (next.kind === 'member' && before._ === 'chatMemberStatusLeft') {
		if (userId !== s.userId && addToSupergroup(s, chat, [userId]).failed_to_add_members.length > 0)
			fail('USER_PRIVACY_RESTRICTED', 403)
	} else restrict(s, chat, userId, before, next)
	return OK
}

/** TDLib's `delete_chat_participant` and the server's `messages.deleteChatUser`: a kick from a basic group. */
export function kickFromBasicGroup(s: Session, chat: ChatRecord, userId: number, revokeMessages: boolean) {
	const target = chat.members.get(userId)
	if (!target) fail('USER_NOT_PARTICIPANT')
	const me = s.userId
	const actor = chat.members.get(me)
	const allowed =
		userId === me ||
		actor?.role === 'creator' ||
		(target!.role === 'member' && (actor?.role === 'administrator' || target!.inviterUserId === me))
	if (!allowed) fail('CHAT_ADMIN_REQUIRED')
	chat.members.delete(userId)
	postService(s.world, chat, me, { _: 'messageChatDeleteMember', user_id: userId }, [userId])
	if (revokeMessages) {
		for (const [id, m] of chat.messages) if (m.senderId === userId) chat.messages.delete(id)
	}
	return OK
}

/** `setChatMemberStatus` in a basic group (`set_chat_participant_status`): admin or not, in or out. */
export function setBasicGroupStatus(s: Session, chat: ChatRecord, userId: number, next: Next) {
	if (next.kind === 'left' || next.kind === 'banned' || (next.kind === 'restricted' && !next.isMember))
		return kickFromBasicGroup(s, chat, userId, false)
	if (next.kind === 'creator') fail("Can't change owner in basic group chats")
	if (next.kind === 'restricted') fail("Can't restrict users in basic group chats")
	const participant = chat.members.get(userId)
	const addOrFail = () => {
		if (addToBasicGroup(s, chat, userId, 0).failed_to_add_members.length > 0)
			fail('USER_PRIVACY_RESTRICTED', 403)
	}
	if (!participant && next.kind !== 'administrator') {
		addOrFail()
		return OK
	}
	if (!canPromote(chat, s.userId)) fail('Need owner rights in the group chat')
	if (userId === s.userId) fail("Can't promote or demote self")
	if (!participant) addOrFail()
	const member = chat.members.get(userId)!
	const before = memberStatus(s.world, chat, userId, s.userId)
	member.role = next.kind === 'administrator' ? 'administrator' : 'member'
	member.rights = next.kind === 'administrator' ? ADMIN_RIGHTS : undefined
	member.promotedBy = next.kind === 'administrator' ? s.userId : undefined
	if (before._ !== memberStatus(s.world, chat, userId, s.userId)._) logChange(s, chat, userId, before, true)
	return OK
}
