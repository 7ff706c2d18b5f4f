import { chatOf } from './objects'

/**
 * TDLib's chat, member and link objects as the Bot API names them (docs/bot-api.md#objects):
 * `ChatMember` from `chatMember`, `ChatPermissions` ↔ `chatPermissions`, `ChatAdministratorRights`
 * ↔ `chatAdministratorRights`, `ChatInviteLink` from `chatInviteLink`, `ChatFullInfo` from `chat`
 * and its full info. A user whom only an id names here is a `User` with an empty `first_name`
 * (the callers fill in the names they looked up).
 */
type Td = Record<string, unknown>
const obj = (x: unknown): Td => (typeof x === 'object' && x !== null ? (x as Td) : {})
const str = (x: unknown) => (typeof x === 'string' ? x : undefined)
const num = (x: unknown) => (typeof x === 'number' ? x : 0)
const bool = (x: unknown) => x === true

export type BotUser = { id: number; is_bot: boolean; first_name: string; [k: string]: unknown }
/** Names by user id, as the method looked them up (get_user); an id not there gets an empty name. */
export type Users = ReadonlyMap<number, BotUser>
export const userById = (users: Users, id: number): BotUser =>
	users.get(id) ?? { id, is_bot: false, first_name: '' }

/** The Bot API's ChatPermissions fields and TDLib's chatPermissions fields they stand for. */
const PERMISSIONS: ReadonlyArray<readonly [bot: string, td: string]> = [
	['can_send_messages', 'can_send_basic_messages'],
	['can_send_audios', 'can_send_audios'],
	['can_send_documents', 'can_send_documents'],
	['can_send_photos', 'can_send_photos'],
	['can_send_videos', 'can_send_videos'],
	['can_send_video_notes', 'can_send_video_notes'],
	['can_send_voice_notes', 'can_send_voice_notes'],
	['can_send_polls', 'can_send_polls'],
	['can_send_other_messages', 'can_send_other_messages'],
	['can_add_web_page_previews', 'can_add_link_previews'],
	['can_change_info', 'can_change_info'],
	['can_invite_users', 'can_invite_users'],
	['can_pin_messages', 'can_pin_messages'],
	['can_manage_topics', 'can_create_topics'],
]
const MEDIA = [
	'can_send_audios',
	'can_send_documents',
	'can_send_photos',
	'can_send_videos',
	'can_send_video_notes',
	'can_send_voice_notes',
] as const

/** TDLib's `chatPermissions` as a Bot API `ChatPermissions`. */
export function permissionsOf(td: unknown): Record<string, boolean> {
	const p = obj(td)
	return Object.fromEntries(PERMISSIONS.map(([bot, name]) => [bot, bool(p[name])]))
}

/**
 * A Bot API `ChatPermissions` (its fields each a boolean, checked by the caller) as TDLib's
 * `chatPermissions`. Without `independent` the Bot API's older reading holds: polls, other messages
 * and link previews imply the media and text messages, a medium implies text messages. TDLib's
 * rights the Bot API has no name for (reactions, member tags) are left allowed.
 */
export function tdPermissions(given: Readonly<Record<string, boolean>>, independent: boolean) {
	const p = { ...given }
	if (!independent) {
		if (p.can_send_other_messages || p.can_add_web_page_previews || p.can_send_polls)
			p.can_send_messages = true
		if (p.can_send_other_messages || p.can_add_web_page_previews) for (const m of MEDIA) p[m] = true
		if (MEDIA.some((m) => p[m])) p.can_send_messages = true
	}
	const td: Record<string, unknown> = {
		_: 'chatPermissions',
		can_react_to_messages: true,
		can_edit_tag: true,
	}
	for (const [bot, name] of PERMISSIONS) td[name] = p[bot] === true
	return td
}

/** The Bot API's ChatAdministratorRights fields (TDLib's chatAdministratorRights has the same names). */
export const ADMIN_RIGHTS = [
	'is_anonymous',
	'can_manage_chat',
	'can_delete_messages',
	'can_manage_video_chats',
	'can_restrict_members',
	'can_promote_members',
	'can_change_info',
	'can_invite_users',
	'can_post_stories',
	'can_edit_stories',
	'can_delete_stories',
	'can_post_messages',
	'can_edit_messages',
	'can_pin_messages',
	'can_manage_topics',
	'can_manage_direct_messages',
] as const

/** TDLib's `chatAdministratorRights` as a Bot API `ChatAdministratorRights`. */
export function rightsOf(td: unknown): Record<string, boolean> {
	const r = obj(td)
	return Object.fromEntries(ADMIN_RIGHTS.map((name) => [name, bool(r[name])]))
}

/** A Bot API `ChatAdministratorRights` (booleans, checked by the caller) as TDLib's. */
export function tdRights(given: Readonly<Record<string, boolean>>) {
	const td: Record<string, unknown> = { _: 'chatAdministratorRights', can_manage_tags: false }
	for (const name of ADMIN_RIGHTS) td[name] = given[name] === true
	return td
}

/** A date as the Bot API gives one: left out when TDLib says 0 (never). */
const dated = (name: string, date: unknown) => (num(date) > 0 ? { [name]: num(date) } : {})

/** The user a TDLib `chatMember` is (a chat posting as itself has no Bot API `ChatMember`: its id). */
export const memberUserId = (member: unknown): number => {
	const sender = obj(obj(member).member_id)
	return sender._ === 'messageSenderUser' ? num(sender.user_id) : num(sender.chat_id)
}

/** TDLib's `chatMember` as a Bot API `ChatMember`, by its status. */
export function chatMemberOf(member: unknown, users: Users) {
	const m = obj(member)
	const status = obj(m.status)
	const user = userById(users, memberUserId(m))
	const tag = str(m.tag)
	const title = tag ? { custom_title: tag } : {}
	switch (status._) {
		case 'chatMemberStatusCreator':
			return { status: 'creator', user, is_anonymous: bool(status.is_anonymous), ...title }
		case 'chatMemberStatusAdministrator':
			return {
				status: 'administrator',
				user,
				can_be_edited: bool(status.can_be_edited),
				...rightsOf(status.rights),
				...title,
			}
		case 'chatMemberStatusRestricted':
			return {
				status: 'restricted',
				user,
				is_member: bool(status.is_member),
				...permissionsOf(status.permissions),
				until_date: num(status.restricted_until_date),
			}
		case 'chatMemberStatusLeft':
			return { status: 'left', user }
		case 'chatMemberStatusBanned':
			return { status: 'kicked', user, until_date: num(status.banned_until_date) }
		default:
			return { status: 'member', user, ...dated('until_date', status.member_until_date) }
	}
}

/** TDLib's `chatInviteLink` as a Bot API `ChatInviteLink`. */
export function inviteLinkOf(link: unknown, users: Users) {
	const l = obj(link)
	const name = str(l.name)
	const pricing = obj(l.subscription_pricing)
	return {
		invite_link: str(l.invite_link) ?? '',
		creator: userById(users, num(l.creator_user_id)),
		creates_join_request: bool(l.creates_join_request),
		is_primary: bool(l.is_primary),
		is_revoked: bool(l.is_revoked),
		...(name ? { name } : {}),
		...dated('expire_date', l.expiration_date),
		...(num(l.member_limit) > 0 ? { member_limit: num(l.member_limit) } : {}),
		...(num(l.pending_join_request_count) > 0
			? { pending_join_request_count: num(l.pending_join_request_count) }
			: {}),
		...(num(pricing.period) > 0
			? { subscription_period: num(pricing.period), subscription_price: num(pricing.star_count) }
			: {}),
	}
}

const activeUsername = (x: unknown) => {
	const active = obj(x).active_usernames
	return Array.isArray(active) ? str(active[0]) : undefined
}

/**
 * What get_chat answers with `full_info` (TDLib's `chat`, its `full_info`, and the `user` or
 * `supergroup` behind it) as a Bot API `ChatFullInfo`, as far as TDLib's objects say.
 */
export function chatFullInfoOf(answer: Td) {
	const base = chatOf(answer) as Record<string, unknown>
	const full = obj(answer.full_info)
	const user = obj(answer.user)
	const supergroup = obj(answer.supergroup)
	const reactions = obj(answer.available_reactions)
	const out: Record<string, unknown> = {
		...base,
		accent_color_id: num(answer.accent_color_id),
		max_reaction_count: num(reactions.max_reaction_count),
	}
	if (base.type === 'private') {
		const first = str(user.first_name)
		const last = str(user.last_name)
		if (first !== undefined) out.first_name = first
		if (last) out.last_name = last
		const username = activeUsername(user.usernames)
		if (username) out.username = username
		const bio = str(obj(full.bio).text)
		if (bio) out.bio = bio
	} else {
		const username = activeUsername(supergroup.usernames)
		if (username) out.username = username
		if (supergroup.is_forum === true) out.is_forum = true
		const description = str(full.description)
		if (description) out.description = description
		const link = str(obj(full.invite_link).invite_link)
		if (link) out.invite_link = link
		out.permissions = permissionsOf(answer.permissions)
		if (num(full.slow_mode_delay) > 0) out.slow_mode_delay = num(full.slow_mode_delay)
		if (num(full.linked_chat_id) !== 0) out.linked_chat_id = num(full.linked_chat_id)
	}
	if (num(answer.message_auto_delete_time) > 0)
		out.message_auto_delete_time = num(answer.message_auto_delete_time)
	if (answer.has_protected_content === true) out.has_protected_content = true
	return out
}

/** TDLib's `photoSize` as a Bot API `PhotoSize`: the file ids are TDLib's remote ids. */
export function photoSizeOf(size: unknown) {
	const s = obj(size)
	const file = obj(s.photo)
	const remote = obj(file.remote)
	return {
		file_id: str(remote.id) ?? '',
		file_unique_id: str(remote.unique_id) ?? '',
		width: num(s.width),
		height: num(s.height),
		...(num(file.size) > 0 ? { file_size: num(file.size) } : {}),
	}
}

/** TDLib's `chatPhotos` as a Bot API `UserProfilePhotos`: each photo its sizes, smallest first. */
export function userProfilePhotosOf(photos: Td) {
	const list = Array.isArray(photos.photos) ? photos.photos : []
	return {
		total_count: num(photos.total_count),
		photos: list.map((p) => {
			const sizes = obj(p).sizes
			return (Array.isArray(sizes) ? sizes : []).map(photoSizeOf)
		}),
	}
}
