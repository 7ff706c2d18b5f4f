import type * as Td from 'tdlib-types'
import { postService } from '../messages/service'
import { fail, type Handlers, OK, type Session } from '../session'
import type { ChatRecord } from '../world'
import {
	hashOf,
	type InviteLinkRecord,
	inviteState,
	isChatMember,
	isExpired,
	type JoinRequestRecord,
	joinRequestChat,
	linkObject,
	logLinkEvent,
	manageableChat,
} from './records'

/**
 * Joining by link (the invited account's side), join requests and the members who joined by a link
 * (the administrators' side). `joinChatByInviteLink` and `checkChatInviteLink` are what other
 * emulated accounts call in tests; they answer with the server's errors.
 */

/** A link the invited user may use: TDLib's format check, then the server's. */
function usableLink(s: Session, link: string | undefined): InviteLinkRecord {
	const hash = hashOf(link ?? '')
	if (hash === undefined) return fail('Wrong invite link')
	const record = inviteState(s.world).links.get(hash) ?? fail('INVITE_HASH_INVALID')
	// Code 406, as the server sends it: TDLib says such messages must not be shown to a user.
	if (record.isRevoked || isExpired(s.world, record)) fail('INVITE_HASH_EXPIRED', 406)
	return record
}

/**
 * Makes the user a member through `link`, counts them on it and logs the join, all at one moment: the
 * server has one participant date, so the member list, the link's members and the log agree on it.
 */
function admit(s: Session, link: InviteLinkRecord, userId: number, approverId: number) {
	const chat = link.chat
	// The clock moves here; addMember dates the member with the clock as it stands.
	const date = s.world.now()
	if (!s.world.addMember(chat, userId, 'member')) return
	link.members.push({ userId, date, approverId })
	postService(
		s.world,
		chat,
		userId,
		approverId === 0 ? { _: 'messageChatJoinByLink' } : { _: 'messageChatJoinByRequest' },
	)
	const invite_link = linkObject(s.world, link)
	logLinkEvent(
		s.world,
		chat,
		userId,
		approverId === 0
			? { _: 'chatEventMemberJoinedByInviteLink', invite_link, via_chat_folder_invite_link: false }
			: { _: 'chatEventMemberJoinedByRequest', approver_user_id: approverId, invite_link },
		date,
	)
}

function inviteLinkChatType(chat: ChatRecord): Td.InviteLinkChatType {
	if (chat.kind === 'basicGroup') return { _: 'inviteLinkChatTypeBasicGroup' }
	if (chat.kind === 'channel') return { _: 'inviteLinkChatTypeChannel' }
	return { _: 'inviteLinkChatTypeSupergroup' }
}

/** Newest first; past an offset `(date, user id)`, what comes after it in that order. */
function page<T>(
	items: T[],
	key: (t: T) => [number, number],
	offset: [number, number] | null,
	limit: number,
) {
	const sorted = items.sort((a, b) => {
		const [da, ua] = key(a)
		const [db, ub] = key(b)
		return db - da || ub - ua
	})
	const after = offset
		? sorted.filter((t) => {
				const [d, u] = key(t)
				return d < offset[0] || (d === offset[0] && u < offset[1])
			})
		: sorted
	return after.slice(0, Math.min(limit, 100))
}

function requestsOf(s: Session, chat: ChatRecord, link: string): JoinRequestRecord[] {
	const requests = inviteState(s.world).requests.filter((q) => q.chat === chat)
	if (link === '') return requests
	const hash = hashOf(link)
	return requests.filter((q) => q.link.hash === hash)
}

function matches(s: Session, userId: number, query: string): boolean {
	if (query === '') return true
	const u = s.world.users.get(userId)
	const text = `${u?.firstName ?? ''} ${u?.lastName ?? ''} ${u?.username ?? ''}`.toLowerCase()
	return text.includes(query.toLowerCase())
}

function settle(s: Session, requests: JoinRequestRecord[], approve: boolean) {
	const state = inviteState(s.world)
	for (const q of requests) {
		state.requests.splice(state.requests.indexOf(q), 1)
		if (approve) admit(s, q.link, q.userId, s.userId)
	}
}

export const joinHandlers: Handlers = {
	joinChatByInviteLink(s, req) {
		const link = usableLink(s, req.invite_link)
		const chat = link.chat
		if (isChatMember(chat, s.userId)) fail('USER_ALREADY_PARTICIPANT')
		if (link.pricing) fail('STARS_PAYMENT_REQUIRED')
		if (link.createsJoinRequest) {
			const state = inviteState(s.world)
			// A second request while one is pending changes nothing: the first one stands.
			if (!state.requests.some((q) => q.chat === chat && q.userId === s.userId)) {
				state.requests.push({ chat, userId: s.userId, date: s.world.now(), link })
			}
			return { _: 'chatJoinResultRequestSent' }
		}
		if (link.memberLimit > 0 && link.members.length >= link.memberLimit) fail('USERS_TOO_MUCH')
		admit(s, link, s.userId, 0)
		return { _: 'chatJoinResultSuccess', chat_id: chat.id }
	},

	checkChatInviteLink(s, req) {
		const link = usableLink(s, req.invite_link)
		const chat = link.chat
		return {
			_: 'chatInviteLinkInfo',
			chat_id: isChatMember(chat, s.userId) ? chat.id : 0,
			accessible_for: 0,
			type: inviteLinkChatType(chat),
			title: chat.title,
			accent_color_id: Math.abs(chat.id) % 7,
			description: '',
			member_count: chat.members.size,
			member_user_ids: [],
			subscription_info: link.pricing
				? {
						_: 'chatInviteLinkSubscriptionInfo',
						pricing: {
							_: 'starSubscriptionPricing',
							period: link.pricing.period,
							star_count: link.pricing.starCount,
						},
						can_reuse: false,
						form_id: '0',
					}
				: undefined,
			creates_join_request: link.createsJoinRequest,
			is_public: false,
		}
	},

	getChatJoinRequests(s, req) {
		const chat = joinRequestChat(s, req.chat_id)
		const limit = req.limit ?? 0
		if (limit <= 0) fail('Parameter limit must be positive')
		const query = req.query ?? ''
		const found = requestsOf(s, chat, req.invite_link ?? '').filter((q) => matches(s, q.userId, query))
		const offset = req.offset_request
		const requests = page(
			found,
			(q) => [q.date, q.userId],
			offset ? [offset.date ?? 0, offset.user_id ?? 0] : null,
			limit,
		)
		return {
			_: 'chatJoinRequests',
			total_count: found.length,
			requests: requests.map((q) => ({ _: 'chatJoinRequest', user_id: q.userId, date: q.date, bio: '' })),
		}
	},

	processChatJoinRequest(s, req) {
		const chat = joinRequestChat(s, req.chat_id)
		const request =
			inviteState(s.world).requests.find((q) => q.chat === chat && q.userId === req.user_id) ??
			fail('HIDE_REQUESTER_MISSING')
		settle(s, [request], req.approve ?? false)
		return OK
	},

	processChatJoinRequests(s, req) {
		const chat = joinRequestChat(s, req.chat_id)
		// An empty link is every pending request of the chat, as TDLib documents it.
		settle(s, requestsOf(s, chat, req.invite_link ?? ''), req.approve ?? false)
		return OK
	},

	getChatInviteLinkMembers(s, req) {
		const chat = manageableChat(s, req.chat_id)
		const limit = req.limit ?? 0
		if (limit <= 0) fail('Parameter limit must be positive')
		if (!req.invite_link) fail('Invite link must be non-empty')
		const hash = hashOf(req.invite_link ?? '')
		const link = hash === undefined ? undefined : inviteState(s.world).links.get(hash)
		if (!link || link.chat !== chat) return fail('INVITE_HASH_INVALID')
		// Subscriptions never lapse in the emulator: nobody left for an unpaid period.
		const joined = req.only_with_expired_subscription ? [] : [...link.members]
		const offset = req.offset_member
		const members = page(
			joined,
			(m) => [m.date, m.userId],
			offset ? [offset.joined_chat_date ?? 0, offset.user_id ?? 0] : null,
			limit,
		)
		return {
			_: 'chatInviteLinkMembers',
			total_count: joined.length,
			members: members.map((m) => ({
				_: 'chatInviteLinkMember',
				user_id: m.userId,
				joined_chat_date: m.date,
				via_chat_folder_invite_link: false,
				approver_user_id: m.approverId,
			})),
		}
	},
}
