import { kickFromBasicGroup, setChannelStatus } from '../members/status'
import { requireChat } from '../messages/access'
import { postService } from '../messages/service'
import { chatObject, chatTitle, lastMessage } from '../objects'
import { fail, type Handlers, type Session } from '../session'
import type { ChatRecord } from '../world'
import { publicChats, publicUsername } from './usernames'

/** TDLib's `clean_username`: dots removed, lower case; then one leading `@` dropped. */
function cleanUsername(raw: string): string {
	const cleaned = raw.replaceAll('.', '').toLowerCase()
	return cleaned.startsWith('@') ? cleaned.slice(1) : cleaned
}

/** The chat `chatId` if this client knows it: a chat of its account, or a public group. */
export function knownChat(s: Session, chatId: number | undefined): ChatRecord {
	const own = s.world.chatFor(s.userId, chatId ?? 0)
	if (own) return own
	// A user's private chat is known only once opened (createPrivateChat, searchPublicChat) or
	// written in: TDLib's load_dialog answers "Chat not found" for a user account before that.
	for (const chat of publicChats(s.world).byUsername.values()) if (chat.id === chatId) return chat
	return fail('Chat not found')
}

const usernameOf = (s: Session, chat: ChatRecord): string => {
	if (chat.kind === 'private') return s.world.users.get(s.world.chatIdFor(s.userId, chat))?.username ?? ''
	return publicUsername(s.world, chat) ?? ''
}

/** TDLib's search of titles and usernames: each word of the query begins a word of the chat's. */
function matches(s: Session, chat: ChatRecord, query: string): boolean {
	const words = `${chatTitle(s.world, chat, s.userId)} ${usernameOf(s, chat)}`.toLowerCase().split(/[\s_]+/)
	const name = usernameOf(s, chat).toLowerCase()
	return query
		.toLowerCase()
		.split(/\s+/)
		.filter(Boolean)
		.every((q) => name.startsWith(q) || words.some((w) => w.startsWith(q)))
}

/** The account's chats in the main list's order (newest message first). */
function mainList(s: Session): ChatRecord[] {
	return s.world
		.chatsOf(s.userId)
		.sort(
			(a, b) =>
				(lastMessage(b)?.date ?? 0) - (lastMessage(a)?.date ?? 0) ||
				s.world.chatIdFor(s.userId, b) - s.world.chatIdFor(s.userId, a),
		)
}

/** What a `SearchChatTypeFilter` lets through. */
function ofType(chat: ChatRecord, filter: { _: string } | undefined): boolean {
	switch (filter?._) {
		case 'searchChatTypeFilterChannel':
			return chat.kind === 'channel'
		case 'searchChatTypeFilterBot':
			// No emulated user is a bot.
			return false
		default:
			return true
	}
}

/** The server's shortest query for a public search (TDLib's MIN_SEARCH_PUBLIC_DIALOG_PREFIX_LEN). */
const MIN_PUBLIC_QUERY = 4

export const publicChatHandlers: Handlers = {
	/** Chats the account knows whose title or username starts with the query, in the main list's order. */
	searchChats(s, req) {
		const limit = req.limit ?? 0
		if (limit <= 0) fail('Parameter limit must be positive')
		const query = (req.query ?? '').trim()
		// An empty query lists the recently found chats: the emulator keeps none.
		if (!query) return { _: 'chats', total_count: 0, chat_ids: [] }
		const ids = mainList(s)
			.filter((c) => ofType(c, req.type_filter) && matches(s, c, query))
			.map((c) => s.world.chatIdFor(s.userId, c))
		return { _: 'chats', total_count: ids.length, chat_ids: ids.slice(0, limit) }
	},
	/**
	 * Public chats (users with a username, the public groups) matching the query, except those in the
	 * account's chat list, as the server's `contacts.search` answers TDLib; nothing for a short query.
	 */
	searchPublicChats(s, req) {
		const query = cleanUsername(req.query ?? '').trim()
		if (query.length < MIN_PUBLIC_QUERY) return { _: 'chats', total_count: 0, chat_ids: [] }
		const ids: number[] = []
		// Users by name or username, except those the account has messages with (in its chat list);
		// TDLib then knows the chat of each one found (get_peers_dialog_ids: force_create_dialog).
		for (const user of s.world.users.values()) {
			const inList = (s.world.privateChat(s.userId, user.id)?.lastServerId ?? 0) > 0
			if (!user.username || user.id === s.userId || inList) continue
			// The filters are bots (the emulator has none) and channels.
			if (req.type_filter) continue
			const words = `${user.firstName} ${user.lastName} ${user.username}`.toLowerCase().split(/\s+/)
			if (query.split(/\s+/).every((q) => words.some((w) => w.startsWith(q)))) ids.push(user.id)
		}
		for (const id of ids) s.world.openPrivateChat(s.userId, id)
		for (const chat of publicChats(s.world).byUsername.values()) {
			if (!chat.members.has(s.userId) && ofType(chat, req.type_filter) && matches(s, chat, query))
				ids.push(chat.id)
		}
		return { _: 'chats', total_count: ids.length, chat_ids: ids }
	},
	/** Joins a public supergroup or channel (`channels.joinChannel`); a private chat cannot be joined. */
	joinChat(s, req) {
		const chat = knownChat(s, req.chat_id)
		if (chat.kind === 'private') fail("Can't join private chats")
		const joined = { _: 'chatJoinResultSuccess' as const, chat_id: chat.id }
		if (chat.members.has(s.userId)) return joined
		if (!s.world.addMember(chat, s.userId, 'member')) fail('CHANNEL_PRIVATE')
		postService(s.world, chat, s.userId, { _: 'messageChatAddMembers', member_user_ids: [s.userId] })
		s.world.logEvent(chat, s.userId, { _: 'chatEventMemberJoined' })
		return joined
	},
	/** Leaves a group: a basic group's `deleteChatUser` of oneself, a supergroup's status `left`. */
	leaveChat(s, req) {
		const chat = requireChat(s, req.chat_id)
		if (chat.kind === 'private') fail("Can't leave private chats")
		if (chat.kind === 'basicGroup') return kickFromBasicGroup(s, chat, s.userId, false)
		return setChannelStatus(s, chat, s.userId, { kind: 'left' })
	},

	searchPublicChat(s, req) {
		const username = cleanUsername(req.username ?? '')
		// TDLib's own check, before any request to the server (its code is 200).
		if (username === '') fail('Username is invalid', 200)
		for (const user of s.world.users.values()) {
			if (user.username?.toLowerCase() === username) {
				const chat = s.world.openPrivateChat(s.userId, user.id)
				return chatObject(s.world, chat, s.userId)
			}
		}
		const group = publicChats(s.world).byUsername.get(username)
		if (group) return chatObject(s.world, group, s.userId)
		// The server's answer to contacts.resolveUsername for a name nobody holds.
		return fail('USERNAME_NOT_OCCUPIED')
	},
}
