import { createHash, timingSafeEqual } from 'node:crypto'
import { requireChat } from '../messages/access'
import { fail, type Handlers, OK } from '../session'
import { memberStatus } from './objects'
import { canManageTags, isAdmin, memberPermissions, OWNER_RIGHTS } from './rights'

/** Member tags (an administrator's custom title since 1.8.65) and the transfer of a chat's ownership. */

/** A tag is 0-16 characters, no emoji (`chatMember.tag`). */
const MAX_TAG_LENGTH = 16
const EMOJI = /\p{Extended_Pictographic}/u

/** Compares two secrets in constant time (hashes of equal length, whatever the inputs' lengths). */
function sameSecret(a: string, b: string): boolean {
	const digest = (x: string) => createHash('sha256').update(x).digest()
	return timingSafeEqual(digest(a), digest(b))
}

export const memberAdminHandlers: Handlers = {
	setChatMemberTag(s, req) {
		const chat = requireChat(s, req.chat_id)
		if (chat.kind === 'private') return fail("Chat member tag can't be changed in private chats")
		// The server's answer: tags are for basic groups and supergroups only.
		if (chat.kind === 'channel') return fail('CHANNEL_INVALID')
		const userId = req.user_id ?? 0
		if (!s.world.users.has(userId)) fail('User not found')
		const member = chat.members.get(userId) ?? fail('USER_NOT_PARTICIPANT')
		const tag = req.tag ?? ''
		if ([...tag].length > MAX_TAG_LENGTH) fail('ADMIN_RANK_INVALID')
		if (EMOJI.test(tag)) fail('ADMIN_RANK_EMOJI_NOT_ALLOWED')
		const me = s.userId
		const allowed =
			userId === me
				? isAdmin(chat, me) || memberPermissions(chat, chat.members.get(me)).can_edit_tag
				: canManageTags(chat, me)
		if (!allowed) fail('CHAT_ADMIN_REQUIRED')
		if (member.tag === tag) return OK
		const old = member.tag
		member.tag = tag
		s.world.logEvent(chat, me, {
			_: 'chatEventMemberTagChanged',
			user_id: userId,
			old_tag: old,
			new_tag: tag,
		})
		return OK
	},
	transferChatOwnership(s, req) {
		const chat = requireChat(s, req.chat_id)
		const userId = req.user_id ?? 0
		if (!s.world.users.has(userId)) fail('User not found')
		const password = req.password ?? ''
		if (!password) fail('PASSWORD_HASH_INVALID')
		if (chat.kind !== 'supergroup' && chat.kind !== 'channel') fail("Can't transfer chat ownership")
		// The server checks the account's 2FA password (the seed's, or the one the security domain set).
		const own = s.world.users.get(s.userId)?.password
		if (!own) fail('PASSWORD_MISSING')
		if (!sameSecret(password, own!.value)) fail('PASSWORD_HASH_INVALID')
		const me = chat.members.get(s.userId)
		if (me?.role !== 'creator') fail('CHAT_ADMIN_REQUIRED')
		const target = chat.members.get(userId)
		if (!target || userId === s.userId) return fail('USER_ID_INVALID')
		const before = {
			mine: memberStatus(s.world, chat, s.userId, s.userId),
			theirs: memberStatus(s.world, chat, userId, s.userId),
		}
		Object.assign(target, {
			role: 'creator',
			rights: undefined,
			promotedBy: undefined,
			restriction: undefined,
		})
		// The former owner stays, as an administrator with every right, whom the new owner may edit.
		Object.assign(me!, { role: 'administrator', rights: { ...OWNER_RIGHTS }, promotedBy: userId })
		for (const [id, old] of [
			[userId, before.theirs],
			[s.userId, before.mine],
		] as const) {
			const now = memberStatus(s.world, chat, id, s.userId)
			s.world.logEvent(chat, s.userId, {
				_: 'chatEventMemberPromoted',
				user_id: id,
				old_status: old,
				new_status: now,
			})
		}
		return OK
	},
}
