import type * as Td from 'tdlib-types'
import { fail, type Handlers, OK, type Session } from '../session'
import type { ChatRecord, World } from '../world'
import { joinHandlers } from './joins'
import {
	cleanLinkName,
	hashOf,
	type InviteLinkRecord,
	inviteState,
	linkObject,
	logLinkEvent,
	manageableChat,
	newLink,
	primaryLink,
	requireLink,
} from './records'

/**
 * Invite links (primary, additional, subscription), join requests, and joining by link. Checks run in
 * TDLib's order with TDLib's words (DialogInviteLinkManager); what the server decides (dates, limits,
 * someone else's link) answers with the server's error names.
 */

/** `member_limit` is 0-99999 (TDLib's documentation of createChatInviteLink). */
const MAX_MEMBER_LIMIT = 99_999
/** Test-DC subscription periods (60, 300 seconds) and the production one (30 days). */
const SUBSCRIPTION_PERIODS = new Set([60, 300, 2_592_000])
/** The server's `stars_subscription_amount_max`. */
const MAX_SUBSCRIPTION_STARS = 10_000
/** TDLib's own bound on a subscription price (StarSubscriptionPricing). */
const MAX_STAR_COUNT = 1_000_000_000

const REQUEST_LIMIT = "Member limit can't be specified for links requiring administrator approval"
const EMPTY_LINK = 'Invite link must be non-empty'

/** TDLib sends an expiry or a limit only when positive: anything else means none. */
const positive = (n: number | undefined) => Math.max(0, n ?? 0)

/** The server's checks of a link's terms. */
function checkTerms(world: World, expirationDate: number, memberLimit: number) {
	if (expirationDate > 0 && expirationDate <= world.now()) fail('EXPIRE_DATE_INVALID')
	if (memberLimit > MAX_MEMBER_LIMIT) fail('USAGE_LIMIT_INVALID')
}

function revoke(s: Session, record: InviteLinkRecord) {
	record.isRevoked = true
	logLinkEvent(s.world, record.chat, s.userId, {
		_: 'chatEventInviteLinkRevoked',
		invite_link: linkObject(s.world, record),
	})
}

function remove(s: Session, record: InviteLinkRecord) {
	inviteState(s.world).links.delete(record.hash)
	logLinkEvent(s.world, record.chat, s.userId, {
		_: 'chatEventInviteLinkDeleted',
		invite_link: linkObject(s.world, record),
	})
}

/** Applies an edit and logs it with the link before and after. */
function edit(s: Session, record: InviteLinkRecord, change: Partial<InviteLinkRecord>): Td.chatInviteLink {
	const before = linkObject(s.world, record)
	Object.assign(record, change, { editDate: s.world.now() })
	const after = linkObject(s.world, record)
	logLinkEvent(s.world, record.chat, s.userId, {
		_: 'chatEventInviteLinkEdited',
		old_invite_link: before,
		new_invite_link: after,
	})
	return after
}

/** Newest first, the primary link ahead of the others (as Telegram lists them). */
function sortLinks(links: InviteLinkRecord[]): InviteLinkRecord[] {
	return links.sort(
		(a, b) => Number(b.isPrimary) - Number(a.isPrimary) || b.date - a.date || a.hash.localeCompare(b.hash),
	)
}

function creatorOf(s: Session, userId: number | undefined): number {
	const id = userId ?? 0
	if (!s.world.users.has(id)) fail('User not found')
	return id
}

function linksOf(world: World, chat: ChatRecord, creatorId: number, revoked: boolean) {
	return [...inviteState(world).links.values()].filter(
		(r) => r.chat === chat && r.creatorId === creatorId && r.isRevoked === revoked,
	)
}

const linkHandlers: Handlers = {
	createChatInviteLink(s, req) {
		const memberLimit = positive(req.member_limit)
		const createsJoinRequest = req.creates_join_request ?? false
		if (createsJoinRequest && memberLimit > 0) fail(REQUEST_LIMIT)
		const chat = manageableChat(s, req.chat_id)
		const expirationDate = positive(req.expiration_date)
		checkTerms(s.world, expirationDate, memberLimit)
		const record = newLink(s.world, chat, s.userId, {
			name: cleanLinkName(req.name),
			expirationDate,
			memberLimit,
			createsJoinRequest,
		})
		return linkObject(s.world, record)
	},

	createChatSubscriptionInviteLink(s, req) {
		const period = req.subscription_pricing?.period ?? 0
		const starCount = req.subscription_pricing?.star_count ?? 0
		if (period <= 0 || starCount <= 0 || starCount > MAX_STAR_COUNT) {
			fail('Invalid subscription pricing specified')
		}
		const chat = manageableChat(s, req.chat_id)
		if (chat.kind !== 'channel' || starCount > MAX_SUBSCRIPTION_STARS) fail('PRICING_CHAT_INVALID')
		if (!SUBSCRIPTION_PERIODS.has(period)) fail('SUBSCRIPTION_PERIOD_INVALID')
		const record = newLink(s.world, chat, s.userId, {
			name: cleanLinkName(req.name),
			pricing: { period, starCount },
		})
		return linkObject(s.world, record)
	},

	editChatInviteLink(s, req) {
		const chat = manageableChat(s, req.chat_id)
		const memberLimit = positive(req.member_limit)
		const createsJoinRequest = req.creates_join_request ?? false
		if (createsJoinRequest && memberLimit > 0) fail(REQUEST_LIMIT)
		if (!req.invite_link) fail(EMPTY_LINK)
		const record = requireLink(s, chat, req.invite_link ?? '')
		if (record.isPrimary) fail('CHAT_INVITE_PERMANENT')
		if (record.isRevoked) fail('INVITE_HASH_EXPIRED')
		const expirationDate = positive(req.expiration_date)
		checkTerms(s.world, expirationDate, memberLimit)
		return edit(s, record, {
			name: cleanLinkName(req.name),
			expirationDate,
			memberLimit,
			createsJoinRequest,
		})
	},

	editChatSubscriptionInviteLink(s, req) {
		const chat = manageableChat(s, req.chat_id)
		if (!req.invite_link) fail(EMPTY_LINK)
		const record = requireLink(s, chat, req.invite_link ?? '')
		if (record.isRevoked) fail('INVITE_HASH_EXPIRED')
		return edit(s, record, { name: cleanLinkName(req.name) })
	},

	getChatInviteLink(s, req) {
		const chat = manageableChat(s, req.chat_id)
		if (!req.invite_link) fail(EMPTY_LINK)
		return linkObject(s.world, requireLink(s, chat, req.invite_link ?? ''))
	},

	getChatInviteLinks(s, req) {
		const creatorId = req.creator_user_id ?? 0
		const chat = manageableChat(s, req.chat_id, creatorId !== s.userId)
		creatorOf(s, creatorId)
		const limit = req.limit ?? 0
		if (limit <= 0) fail('Parameter limit must be positive')
		const revoked = req.is_revoked ?? false
		if (!revoked && creatorId === s.userId) primaryLink(s.world, chat, creatorId)
		const all = sortLinks(linksOf(s.world, chat, creatorId, revoked))
		let from = 0
		const offsetLink = req.offset_invite_link ?? ''
		const offsetDate = req.offset_date ?? 0
		if (offsetLink !== '' || offsetDate !== 0) {
			const offsetHash = hashOf(offsetLink)
			const at = all.findIndex((r) => r.hash === offsetHash)
			from = at >= 0 ? at + 1 : all.findIndex((r) => !r.isPrimary && r.date < offsetDate)
			if (from < 0) from = all.length
		}
		return {
			_: 'chatInviteLinks',
			total_count: all.length,
			invite_links: all.slice(from, from + Math.min(limit, 100)).map((r) => linkObject(s.world, r)),
		}
	},

	revokeChatInviteLink(s, req) {
		const chat = manageableChat(s, req.chat_id)
		if (!req.invite_link) fail(EMPTY_LINK)
		const record = requireLink(s, chat, req.invite_link ?? '')
		const links = [record]
		if (!record.isRevoked) {
			revoke(s, record)
			// Revoking a primary link gives its administrator a new one, returned after it.
			if (record.isPrimary) links.push(primaryLink(s.world, chat, record.creatorId))
		}
		return {
			_: 'chatInviteLinks',
			total_count: links.length,
			invite_links: links.map((r) => linkObject(s.world, r)),
		}
	},

	deleteRevokedChatInviteLink(s, req) {
		const chat = manageableChat(s, req.chat_id)
		if (!req.invite_link) fail(EMPTY_LINK)
		const record = requireLink(s, chat, req.invite_link ?? '')
		if (!record.isRevoked) fail('INVITE_REVOKED_MISSING')
		remove(s, record)
		return OK
	},

	deleteAllRevokedChatInviteLinks(s, req) {
		const creatorId = req.creator_user_id ?? 0
		const chat = manageableChat(s, req.chat_id, creatorId !== s.userId)
		creatorOf(s, creatorId)
		for (const record of linksOf(s.world, chat, creatorId, true)) remove(s, record)
		return OK
	},

	replacePrimaryChatInviteLink(s, req) {
		const chat = manageableChat(s, req.chat_id)
		const current = linksOf(s.world, chat, s.userId, false).find((r) => r.isPrimary)
		if (current) revoke(s, current)
		return linkObject(s.world, primaryLink(s.world, chat, s.userId))
	},
}

export const inviteHandlers: Handlers = { ...linkHandlers, ...joinHandlers }
