import type * as Td from 'tdlib-types'
import { requireChat } from '../messages/access'
import { postService } from '../messages/service'
import { fail, type Handlers, type Session } from '../session'
import type { ChatRecord, World } from '../world'
import { canInvite, newMember } from './rights'

/** Adding members: `addChatMember`, `addChatMembers`, and the add that other changes end in. */

/** Users whose privacy settings let nobody add them to groups (Telegram answers with `failedToAddMember`). */
export const SEED_REFUSES_INVITES: readonly number[] = [1005]

/**
 * The users of this world who refuse to be added to groups. Seeded with Eve: the privacy domain owns
 * the rules (`userPrivacySettingAllowChatInvites`); until it answers for them, this set stands in.
 */
export const refusesInvites = (world: World) =>
	world.store(
		'members.refusesInvites',
		() => new Set(SEED_REFUSES_INVITES.filter((id) => world.users.has(id))),
	)

/** Basic groups hold at most 200 members (Telegram's `chat_size_max`). */
export const BASIC_GROUP_MAX_MEMBERS = 200

export const failedToAdd = (userIds: readonly number[]): Td.failedToAddMembers => ({
	_: 'failedToAddMembers',
	failed_to_add_members: userIds.map((user_id) => ({
		_: 'failedToAddMember',
		user_id,
		premium_would_allow_invite: false,
		premium_required_to_send_messages: false,
	})),
})

export function requireUser(world: World, userId: number) {
	if (!world.users.has(userId)) fail('User not found')
}

/**
 * `userId` joins `chat`, added by the session's user, as the server does it once TDLib's checks
 * passed: false (nobody added) when the user's privacy settings refuse it.
 */
export function invite(s: Session, chat: ChatRecord, userId: number, announce = true): boolean {
	if (refusesInvites(s.world).has(userId)) return false
	chat.members.set(userId, newMember('member', s.userId, s.world.now()))
	// A new group's first members are in its creation message instead.
	if (announce)
		postService(s.world, chat, s.userId, { _: 'messageChatAddMembers', member_user_ids: [userId] })
	s.world.logEvent(chat, s.userId, {
		_: 'chatEventMemberInvited',
		user_id: userId,
		status: { _: 'chatMemberStatusMember', member_until_date: 0 },
	})
	return true
}

/** TDLib's `add_chat_participant` and the server's `messages.addChatUser`. */
export function addToBasicGroup(
	s: Session,
	chat: ChatRecord,
	userId: number,
	forwardLimit: number,
): Td.failedToAddMembers {
	if (forwardLimit < 0) fail("Can't forward negative number of messages")
	if (userId !== s.userId && !canInvite(chat, s.userId))
		fail('Not enough rights to invite members to the group chat')
	requireUser(s.world, userId)
	if (chat.members.has(userId)) fail('USER_ALREADY_PARTICIPANT')
	if (chat.members.size >= BASIC_GROUP_MAX_MEMBERS) fail('USERS_TOO_MUCH')
	return failedToAdd(invite(s, chat, userId) ? [] : [userId])
}

/**
 * TDLib's `add_channel_participant(s)` and the server's `channels.inviteToChannel`: members already
 * in are skipped, and so is the account itself, which is in (it sees the chat).
 */
export function addToSupergroup(
	s: Session,
	chat: ChatRecord,
	userIds: readonly number[],
): Td.failedToAddMembers {
	if (userIds.length === 1 && userIds[0] === s.userId) return failedToAdd([])
	if (!canInvite(chat, s.userId)) fail('Not enough rights to invite members to the supergroup chat')
	for (const id of userIds) requireUser(s.world, id)
	const others = [...new Set(userIds)].filter((id) => id !== s.userId && !chat.members.has(id))
	// The server refuses the whole call for a banned user: an administrator unbans first.
	if (others.some((id) => s.world.isBanned(chat, id))) fail('USER_KICKED')
	return failedToAdd(others.filter((id) => !invite(s, chat, id)))
}

export const memberAddHandlers: Handlers = {
	addChatMember(s, req) {
		const chat = requireChat(s, req.chat_id)
		const userId = req.user_id ?? 0
		if (chat.kind === 'private') return fail("Can't add members to a private chat")
		if (chat.kind === 'basicGroup') return addToBasicGroup(s, chat, userId, req.forward_limit ?? 0)
		return addToSupergroup(s, chat, [userId])
	},
	addChatMembers(s, req) {
		const chat = requireChat(s, req.chat_id)
		const ids = req.user_ids ?? []
		if (chat.kind === 'private') return fail("Can't add members to a private chat")
		if (chat.kind === 'basicGroup') {
			if (ids.length !== 1) fail("Can't add many members at once to a basic group chat")
			return addToBasicGroup(s, chat, ids[0]!, 0)
		}
		return addToSupergroup(s, chat, ids)
	},
}
