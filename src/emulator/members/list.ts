import type * as Td from 'tdlib-types'
import { requireChat } from '../messages/access'
import { fail, type Handlers, type Session } from '../session'
import type { ChatRecord, World } from '../world'
import { chatMemberObject, memberStatus } from './objects'
import { isAdmin } from './rights'

/** Reading members: `getChatMember`, `getSupergroupMembers`, `getBasicGroupFullInfo`, `searchChatMembers`. */

/** TDLib's MAX_GET_CHANNEL_PARTICIPANTS: a larger limit is clamped, as the server does. */
const MAX_MEMBERS_PER_CALL = 200

type Kind = 'members' | 'contacts' | 'administrators' | 'restricted' | 'banned' | 'bots' | 'mention'

/** Names a query is matched against: every word of the name and the username, by prefix. */
export function matchesQuery(world: World, userId: number, query: string): boolean {
	const words = query.toLowerCase().split(/\s+/).filter(Boolean)
	if (words.length === 0) return true
	const user = world.users.get(userId)
	if (!user) return false
	const names = [user.firstName, user.lastName, user.username ?? ''].join(' ').toLowerCase().split(/\s+/)
	return words.every((w) => names.some((n) => n.startsWith(w)))
}

/**
 * Users of `chat` of one kind, matching `query`: present members newest first (as the server lists
 * "recent" members), then the banned. The emulator has no contacts and no bots.
 */
function select(world: World, chat: ChatRecord, viewerId: number, kind: Kind, query: string): number[] {
	const present = [...chat.members.keys()].reverse()
	const banned = [...chat.banned.keys()].filter((id) => world.isBanned(chat, id))
	const statusOf = (id: number) => memberStatus(world, chat, id, viewerId)._
	let ids: number[]
	switch (kind) {
		case 'members':
		case 'mention':
			ids = present
			break
		case 'administrators':
			ids = present.filter((id) =>
				['chatMemberStatusCreator', 'chatMemberStatusAdministrator'].includes(statusOf(id)),
			)
			break
		case 'restricted':
			ids = present.filter((id) => statusOf(id) === 'chatMemberStatusRestricted')
			break
		case 'banned':
			ids = banned
			break
		default:
			ids = []
	}
	return ids.filter((id) => matchesQuery(world, id, query))
}

const page = (
	world: World,
	chat: ChatRecord,
	viewerId: number,
	ids: number[],
	offset: number,
	limit: number,
): Td.chatMembers => ({
	_: 'chatMembers',
	total_count: ids.length,
	members: ids.slice(offset, offset + limit).map((id) => chatMemberObject(world, chat, id, viewerId)),
})

function supergroupKind(filter: Td.SupergroupMembersFilter$Input | undefined): { kind: Kind; query: string } {
	switch (filter?._) {
		case undefined:
		case 'supergroupMembersFilterRecent':
			return { kind: 'members', query: '' }
		case 'supergroupMembersFilterSearch':
			return { kind: 'members', query: filter.query ?? '' }
		case 'supergroupMembersFilterContacts':
			return { kind: 'contacts', query: filter.query ?? '' }
		case 'supergroupMembersFilterAdministrators':
			return { kind: 'administrators', query: '' }
		case 'supergroupMembersFilterRestricted':
			return { kind: 'restricted', query: filter.query ?? '' }
		case 'supergroupMembersFilterBanned':
			return { kind: 'banned', query: filter.query ?? '' }
		case 'supergroupMembersFilterMention':
			return { kind: 'mention', query: filter.query ?? '' }
		case 'supergroupMembersFilterBots':
			return { kind: 'bots', query: '' }
	}
}

function chatKind(filter: Td.ChatMembersFilter$Input | undefined): Kind {
	switch (filter?._) {
		case undefined:
		case 'chatMembersFilterMembers':
			return 'members'
		case 'chatMembersFilterContacts':
			return 'contacts'
		case 'chatMembersFilterAdministrators':
			return 'administrators'
		case 'chatMembersFilterMention':
			return 'mention'
		case 'chatMembersFilterRestricted':
			return 'restricted'
		case 'chatMembersFilterBanned':
			return 'banned'
		case 'chatMembersFilterBots':
			return 'bots'
	}
}

/** The supergroup or channel with this id, if the account is in it. */
function requireSupergroup(s: Session, supergroupId: number | undefined): ChatRecord {
	return s.world.supergroupFor(s.userId, supergroupId ?? 0) ?? fail('Supergroup not found')
}

/** A channel's member list is for its administrators only. */
function checkListable(s: Session, chat: ChatRecord) {
	if (chat.kind === 'channel' && !isAdmin(chat, s.userId)) fail('Member list is inaccessible')
}

function memberUserId(s: Session, chat: ChatRecord, sender: Td.MessageSender$Input | undefined): number {
	const userId = sender?._ === 'messageSenderUser' ? (sender.user_id ?? 0) : 0
	if (!s.world.users.has(userId)) fail('Member not found')
	if (chat.kind === 'private' && !chat.members.has(userId)) fail('Member not found')
	return userId
}

export const memberListHandlers: Handlers = {
	getChatMember(s, req) {
		const chat = requireChat(s, req.chat_id)
		const userId = memberUserId(s, chat, req.member_id)
		checkListable(s, chat)
		return chatMemberObject(s.world, chat, userId, s.userId)
	},
	getSupergroupMembers(s, req) {
		const limit = Math.min(req.limit ?? 0, MAX_MEMBERS_PER_CALL)
		const offset = req.offset ?? 0
		if (limit <= 0) fail('Parameter limit must be positive')
		if (offset < 0) fail('Parameter offset must be non-negative')
		const chat = requireSupergroup(s, req.supergroup_id)
		checkListable(s, chat)
		const { kind, query } = supergroupKind(req.filter)
		// Who is restricted or banned is the administrators' business (the server's answer).
		if ((kind === 'restricted' || kind === 'banned') && !isAdmin(chat, s.userId)) fail('CHAT_ADMIN_REQUIRED')
		return page(s.world, chat, s.userId, select(s.world, chat, s.userId, kind, query), offset, limit)
	},
	getBasicGroupFullInfo(s, req) {
		const chat =
			[...s.world.groups.values()].find(
				(c) => c.kind === 'basicGroup' && c.groupId === req.basic_group_id && c.members.has(s.userId),
			) ?? fail('Group not found')
		const creator = [...chat.members].find(([, m]) => m.role === 'creator')?.[0] ?? 0
		return {
			_: 'basicGroupFullInfo',
			description: '',
			creator_user_id: creator,
			// In the order they joined, as the server lists a basic group's participants.
			members: [...chat.members.keys()].map((id) => chatMemberObject(s.world, chat, id, s.userId)),
			can_hide_members: false,
			can_toggle_aggressive_anti_spam: false,
			bot_commands: [],
		}
	},
	searchChatMembers(s, req) {
		const chat = requireChat(s, req.chat_id)
		const limit = req.limit ?? 0
		if (limit < 0) fail('Parameter limit must be non-negative')
		checkListable(s, chat)
		const kind = chatKind(req.filter)
		const ids = select(s.world, chat, s.userId, kind, req.query ?? '')
		return page(s.world, chat, s.userId, ids, 0, Math.min(limit, MAX_MEMBERS_PER_CALL))
	},
}
