import { randomBytes } from 'node:crypto'
import type * as Td from 'tdlib-types'
import { rightsOf } from '../members/rights'
import { requireChat } from '../messages/access'
import { fail, type Session } from '../session'
import type { ChatRecord, World } from '../world'

/**
 * The invites domain's records: invite links (primary, additional, subscription), the members who
 * joined through each, and pending join requests. Kept in the world's `invites` store; TDLib-shaped
 * objects are built from them on every answer, so counters are always current.
 */

export interface LinkMemberRecord {
	userId: number
	date: number
	/** 0 for a direct join; the administrator who approved the request otherwise. */
	approverId: number
}

export interface InviteLinkRecord {
	hash: string
	chat: ChatRecord
	creatorId: number
	name: string
	date: number
	editDate: number
	/** 0: never expires. */
	expirationDate: number
	/** 0: no limit. Always 0 when the link creates join requests. */
	memberLimit: number
	createsJoinRequest: boolean
	/** One active primary link per administrator, as TDLib's `chatInviteLink.is_primary` says. */
	isPrimary: boolean
	isRevoked: boolean
	pricing?: { period: number; starCount: number }
	members: LinkMemberRecord[]
}

export interface JoinRequestRecord {
	chat: ChatRecord
	userId: number
	date: number
	link: InviteLinkRecord
}

interface InviteState {
	/** By hash: a hash is unique across the world, as Telegram's are. */
	links: Map<string, InviteLinkRecord>
	requests: JoinRequestRecord[]
}

export const inviteState = (world: World): InviteState =>
	world.store<InviteState>('invites', () => ({ links: new Map(), requests: [] }))

/** TDLib 1.8.65 writes invite links in this form. */
const linkOf = (hash: string) => `https://t.me/+${hash}`

/** The link forms TDLib's `LinkManager::get_dialog_invite_link_hash` reads: t.me/+…, t.me/joinchat/…, tg://join?invite=…. */
const LINK_FORMS = [
	/^(?:https?:\/\/)?(?:www\.)?(?:t\.me|telegram\.me|telegram\.dog)\/(?:\+|joinchat\/)([A-Za-z0-9_-]+)\/?$/i,
	/^tg:(?:\/\/)?join\?invite=([A-Za-z0-9_-]+)$/i,
]

export function hashOf(link: string): string | undefined {
	for (const form of LINK_FORMS) {
		const m = form.exec(link.trim())
		if (m) return m[1]
	}
	return undefined
}

/**
 * The one place this domain reads the members model (owned by the members domain: world.ts members,
 * objects.ts statuses, members.ts). Should that model grow richer statuses, only these three change.
 */
const roleOf = (chat: ChatRecord, userId: number) => chat.members.get(userId)?.role
export const isChatMember = (chat: ChatRecord, userId: number) => roleOf(chat, userId) !== undefined
export const isChatOwner = (chat: ChatRecord, userId: number) => roleOf(chat, userId) === 'creator'
/**
 * TDLib's `can_manage_invite_links`: an administrator with `can_invite_users` (members/rights.ts has
 * each administrator's rights); ordinary members never manage links, whatever the chat's permissions
 * let them do.
 */
export const canManageInviteLinks = (chat: ChatRecord, userId: number) =>
	rightsOf(chat, userId)?.can_invite_users === true

/**
 * TDLib's `can_manage_dialog_invite_links`: the chat must be known, a group, and the user an
 * administrator with can_invite_users (the owner, with `creatorOnly`), with TDLib's words.
 */
export function manageableChat(s: Session, chatId: number | undefined, creatorOnly = false): ChatRecord {
	const chat = requireChat(s, chatId)
	if (chat.kind === 'private') fail("Can't invite members to a private chat")
	const allowed = creatorOnly ? isChatOwner(chat, s.userId) : canManageInviteLinks(chat, s.userId)
	if (!allowed) fail('Not enough rights to manage chat invite link')
	return chat
}

/** TDLib's `can_manage_dialog_join_requests`, its join-request twin. */
export function joinRequestChat(s: Session, chatId: number | undefined): ChatRecord {
	const chat = requireChat(s, chatId)
	if (chat.kind === 'private') fail("The chat can't have join requests")
	if (!canManageInviteLinks(chat, s.userId)) fail('Not enough rights to manage chat join requests')
	return chat
}

/**
 * A link of `chat` named by the client, for an administrator: the server's answers for a link it
 * does not know and for another administrator's link touched by a non-owner.
 */
export function requireLink(s: Session, chat: ChatRecord, link: string): InviteLinkRecord {
	const hash = hashOf(link)
	const record = hash === undefined ? undefined : inviteState(s.world).links.get(hash)
	if (!record || record.chat !== chat) return fail('INVITE_HASH_INVALID')
	if (record.creatorId !== s.userId && !isChatOwner(chat, s.userId)) fail('CHAT_ADMIN_REQUIRED')
	return record
}

export function newLink(
	world: World,
	chat: ChatRecord,
	creatorId: number,
	fields: Partial<Omit<InviteLinkRecord, 'hash' | 'chat' | 'creatorId' | 'members'>> = {},
): InviteLinkRecord {
	const state = inviteState(world)
	let hash = randomBytes(12).toString('base64url')
	while (state.links.has(hash)) hash = randomBytes(12).toString('base64url')
	const record: InviteLinkRecord = {
		hash,
		chat,
		creatorId,
		name: '',
		date: world.now(),
		editDate: 0,
		expirationDate: 0,
		memberLimit: 0,
		createsJoinRequest: false,
		isPrimary: false,
		isRevoked: false,
		members: [],
		...fields,
	}
	state.links.set(hash, record)
	return record
}

/** The active primary link of `adminId` in `chat`, made on first need as Telegram does. */
export function primaryLink(world: World, chat: ChatRecord, adminId: number): InviteLinkRecord {
	for (const r of inviteState(world).links.values()) {
		if (r.chat === chat && r.creatorId === adminId && r.isPrimary && !r.isRevoked) return r
	}
	return newLink(world, chat, adminId, { isPrimary: true })
}

export const pendingRequests = (world: World, link: InviteLinkRecord) =>
	inviteState(world).requests.filter((q) => q.link === link)

export function linkObject(world: World, r: InviteLinkRecord): Td.chatInviteLink {
	return {
		_: 'chatInviteLink',
		invite_link: linkOf(r.hash),
		name: r.name,
		creator_user_id: r.creatorId,
		date: r.date,
		edit_date: r.editDate,
		expiration_date: r.expirationDate,
		subscription_pricing: r.pricing
			? { _: 'starSubscriptionPricing', period: r.pricing.period, star_count: r.pricing.starCount }
			: undefined,
		member_limit: r.memberLimit,
		member_count: r.members.length,
		// Subscriptions never lapse in the emulator: nobody has left for an unpaid period.
		expired_member_count: 0,
		pending_join_request_count: pendingRequests(world, r).length,
		creates_join_request: r.createsJoinRequest,
		is_primary: r.isPrimary,
		is_revoked: r.isRevoked,
	}
}

/** An expired link: its date has passed by the world's clock. */
export const isExpired = (world: World, r: InviteLinkRecord) =>
	r.expirationDate > 0 && r.expirationDate <= world.now()

/**
 * Appends to the chat's event log, which Telegram keeps for supergroups and channels only (a basic
 * group has no recent actions).
 */
export function logLinkEvent(
	world: World,
	chat: ChatRecord,
	userId: number,
	action: Td.ChatEventAction,
	date?: number,
) {
	if (chat.kind === 'supergroup' || chat.kind === 'channel') world.logEvent(chat, userId, action, date)
}

const CONTROL = /\p{Cc}/gu
/** TDLib's `clean_name(title, 32)`: control characters out, trimmed, at most 32 characters. */
export const cleanLinkName = (name: string | undefined) =>
	[...(name ?? '').replace(CONTROL, ' ').trim()].slice(0, 32).join('')
