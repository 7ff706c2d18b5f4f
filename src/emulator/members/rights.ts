import type * as Td from 'tdlib-types'
import type { ChatRecord, MemberRecord } from '../world'
import { ADMIN_RIGHTS, NO_RIGHTS, OWNER_RIGHTS, type Rights, rights } from './records'

export { ADMIN_RIGHTS, NO_RIGHTS, newMember, OWNER_RIGHTS } from './records'

/**
 * Who may do what in a group, as Telegram decides it (TDLib's `DialogParticipantStatus`): the owner
 * everything, an administrator their rights, anyone else the chat's member permissions (or their own
 * restrictions). Every rights check of the emulator goes through here.
 */

/** A chat's member permissions: all (groups, by default) or none (channels). */
export function defaultPermissions(all: boolean): Td.chatPermissions {
	return {
		_: 'chatPermissions',
		can_send_basic_messages: all,
		can_send_audios: all,
		can_send_documents: all,
		can_send_photos: all,
		can_send_videos: all,
		can_send_video_notes: all,
		can_send_voice_notes: all,
		can_send_polls: all,
		can_send_other_messages: all,
		can_add_link_previews: all,
		can_react_to_messages: all,
		can_edit_tag: false,
		can_change_info: false,
		can_invite_users: all,
		can_pin_messages: false,
		can_create_topics: false,
	}
}

/** The administrator rights of `userId` in `chat`: all for the owner, none (undefined) for a non-admin. */
export function rightsOf(chat: ChatRecord, userId: number): Td.chatAdministratorRights | undefined {
	const member = chat.members.get(userId)
	if (member?.role === 'creator') return OWNER_RIGHTS
	if (member?.role === 'administrator') return member.rights ?? ADMIN_RIGHTS
	return undefined
}

/** Private chats have no administrators: both users may do what an administrator may. */
export const isAdmin = (chat: ChatRecord, userId: number): boolean =>
	chat.kind === 'private' || rightsOf(chat, userId) !== undefined

/** What a member who is no administrator may do: their own restrictions, else the chat's permissions. */
export function memberPermissions(chat: ChatRecord, member: MemberRecord | undefined): Td.chatPermissions {
	return member?.restriction?.permissions ?? chat.permissions ?? defaultPermissions(chat.kind !== 'channel')
}

/** May `userId` add others to the chat? Channel members never may; group members if the chat lets them. */
export function canInvite(chat: ChatRecord, userId: number): boolean {
	const own = rightsOf(chat, userId)
	if (own) return own.can_invite_users
	const member = chat.members.get(userId)
	return chat.kind !== 'channel' && member !== undefined && memberPermissions(chat, member).can_invite_users
}

export const canRestrict = (chat: ChatRecord, userId: number): boolean =>
	rightsOf(chat, userId)?.can_restrict_members === true

/** Basic groups: only the owner names administrators ("Need owner rights in the group chat"). */
export const canPromote = (chat: ChatRecord, userId: number): boolean =>
	chat.kind === 'basicGroup'
		? chat.members.get(userId)?.role === 'creator'
		: rightsOf(chat, userId)?.can_promote_members === true

export const canManageTags = (chat: ChatRecord, userId: number): boolean =>
	rightsOf(chat, userId)?.can_manage_tags === true

export const canDeleteMessages = (chat: ChatRecord, userId: number): boolean =>
	rightsOf(chat, userId)?.can_delete_messages === true

/**
 * May `actorId` change what the administrator `target` may do, or remove them? The owner may, and so
 * may whoever promoted them (Telegram's rule, which TDLib reports as `can_be_edited`).
 */
export function canEditAdmin(chat: ChatRecord, actorId: number, target: MemberRecord): boolean {
	if (target.role === 'creator') return false
	return chat.members.get(actorId)?.role === 'creator' || target.promotedBy === actorId
}

const RIGHT_KEYS = Object.keys(NO_RIGHTS).filter((k) => k !== '_') as Array<keyof Rights>

/** True when `wanted` grants a right `own` lacks (an administrator can only hand on what they have). */
export function exceeds(wanted: Td.chatAdministratorRights, own: Td.chatAdministratorRights): boolean {
	return RIGHT_KEYS.some((k) => k !== 'is_anonymous' && wanted[k] && !own[k])
}

/**
 * Rights that make no sense in a chat kind, which TDLib clears before sending
 * (docs/tdlib-mapping.md#chat-administration-and-invites).
 */
const UNFIT: Record<'supergroup' | 'channel', Array<keyof Rights>> = {
	channel: ['can_pin_messages', 'can_manage_topics', 'can_manage_tags', 'is_anonymous'],
	supergroup: ['can_post_messages', 'can_edit_messages', 'can_manage_direct_messages'],
}

/**
 * A client's administrator rights as TDLib sends them: the rights unfit for the chat kind cleared,
 * `can_manage_chat` added when any right is set; null when none is, which TDLib turns into a plain
 * member (`DialogParticipantStatus::Administrator` with no flags).
 */
export function effectiveRights(
	chat: ChatRecord,
	input: Td.chatAdministratorRights$Input | undefined,
): Td.chatAdministratorRights | null {
	if (chat.kind === 'basicGroup') return input && RIGHT_KEYS.some((k) => input[k]) ? ADMIN_RIGHTS : null
	const out = rights(false)
	for (const k of RIGHT_KEYS) out[k] = input?.[k] === true
	if (chat.kind === 'supergroup' || chat.kind === 'channel') for (const k of UNFIT[chat.kind]) out[k] = false
	if (!RIGHT_KEYS.some((k) => out[k])) return null
	out.can_manage_chat = true
	return out
}
