import type * as Td from 'tdlib-types'

/**
 * The records of people in groups, as the emulated cloud keeps them, and the rights they may hold.
 * Below the world (world.ts stores them) and the rights checks (members/rights.ts reads them).
 */
export type Role = 'creator' | 'administrator' | 'member'

/**
 * One user present in a group or channel, as TDLib's `chatMember` describes them. A user who left
 * or was kicked has no record; a banned one has a `BanRecord` instead.
 */
export interface MemberRecord {
	role: Role
	/** Administrators: their rights (the owner has every right and no record of them). */
	rights?: Td.chatAdministratorRights
	/** Who made them administrator: that user and the owner may edit their rights (`can_be_edited`). */
	promotedBy?: number
	/** Supergroups: a member's own restrictions (`chatMemberStatusRestricted`, still a member). */
	restriction?: { permissions: Td.chatPermissions; until: number }
	/** The member's tag: an administrator's custom title since TDLib 1.8.65 (0-16 characters). */
	tag: string
	/** Who added or promoted them; 0 when unknown (a join by link, the seed's owners). */
	inviterUserId: number
	joinedDate: number
}

/** A supergroup's or channel's ban: out, and unable to come back until unbanned or `until` (0: never). */
export interface BanRecord {
	until: number
	bannedBy: number
	date: number
}
export type Rights = Omit<Td.chatAdministratorRights, '_'>

export const rights = (all: boolean, changes: Partial<Rights> = {}): Td.chatAdministratorRights => ({
	_: 'chatAdministratorRights',
	can_manage_chat: all,
	can_change_info: all,
	can_post_messages: all,
	can_edit_messages: all,
	can_delete_messages: all,
	can_invite_users: all,
	can_restrict_members: all,
	can_pin_messages: all,
	can_manage_topics: all,
	can_promote_members: all,
	can_manage_video_chats: all,
	can_post_stories: all,
	can_edit_stories: all,
	can_delete_stories: all,
	can_manage_direct_messages: all,
	can_manage_tags: all,
	is_anonymous: false,
	...changes,
})

export const OWNER_RIGHTS = rights(true)
export const NO_RIGHTS = rights(false)

/**
 * An administrator's rights when nobody chose them (the seed's administrators, a promotion in a
 * basic group, where rights are all or nothing): everything but promoting others, tags and stories.
 */
export const ADMIN_RIGHTS = rights(true, {
	can_promote_members: false,
	can_post_stories: false,
	can_edit_stories: false,
	can_delete_stories: false,
	can_manage_direct_messages: false,
	can_manage_tags: false,
})

export function newMember(
	role: Role,
	inviterUserId: number,
	joinedDate: number,
	adminRights: Td.chatAdministratorRights = ADMIN_RIGHTS,
): MemberRecord {
	const record: MemberRecord = { role, tag: '', inviterUserId, joinedDate }
	if (role === 'administrator') {
		record.rights = adminRights
		record.promotedBy = inviterUserId
	}
	return record
}
