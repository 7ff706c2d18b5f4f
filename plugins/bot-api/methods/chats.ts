import { BotError, badRequest } from '../answer'
import { chatOf, userOf } from '../objects'
import {
	ADMIN_RIGHTS,
	type BotUser,
	chatFullInfoOf,
	chatMemberOf,
	inviteLinkOf,
	memberUserId,
	tdPermissions,
	tdRights,
	type Users,
	userProfilePhotosOf,
} from '../objects-chat'
import { boolOf, intOf, objectOf, requiredInt, stringOf } from '../params'
import { type Call, chatId, command, type Method, type Td } from './call'

/** The most members getChatAdministrators lists (TDLib's own page of a member list is 200). */
const MAX_ADMINISTRATORS = 200
/** TDLight's getChats: 100 chats at most a call, as the get_chats command. */
const MAX_CHATS = 100

const userId = (params: Record<string, unknown>) => requiredInt(params, 'user_id', 'user_id is empty')

const requiredText = (params: Record<string, unknown>, name: string, missing: string) => {
	const text = stringOf(params, name)
	if (text === undefined || text === '') throw badRequest(missing)
	return text
}

/** Left out of a command's input when the Bot API request left it out. */
const given = (input: Record<string, unknown>) =>
	Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined))

/** The users a method's objects name, each as a Bot API `User` (get_user); one not found keeps its id alone. */
async function usersOf(call: Call, ids: Iterable<number>): Promise<Users> {
	const users = new Map<number, BotUser>()
	for (const id of new Set(ids)) {
		if (id <= 0) continue
		try {
			users.set(id, userOf(obj((await command(call, 'get_user', { user_id: id })).user)) as BotUser)
		} catch {
			// A user the account cannot see: the object keeps the id, with an empty name.
		}
	}
	return users
}

const obj = (x: unknown): Td => (typeof x === 'object' && x !== null ? (x as Td) : {})

/** A get_chats or search_chats row (`type` TDLib's type name) as a Bot API `Chat`. */
const chatOfSummary = (row: unknown) => {
	const r = obj(row)
	return chatOf({ id: r.id, title: r.title, type: { _: r.type, is_channel: r.is_channel } })
}

const linkTerms = (params: Record<string, unknown>) =>
	given({
		name: stringOf(params, 'name'),
		expiration_date: intOf(params, 'expire_date'),
		member_limit: intOf(params, 'member_limit'),
		creates_join_request: boolOf(params, 'creates_join_request'),
	})

async function linkAnswer(call: Call, link: Td) {
	return inviteLinkOf(link, await usersOf(call, [Number(link.creator_user_id)]))
}

/** The account, its chats and their members (docs/bot-api.md#methods). */
export const CHAT_METHODS: Readonly<Record<string, Method>> = {
	getMe: async (call) => userOf(await command(call, 'get_me', {})),
	getChat: async (call) =>
		chatFullInfoOf(await command(call, 'get_chat', { chat_id: chatId(call.params), full_info: true })),

	getChatMember: async (call) => {
		const { params } = call
		const member = await command(call, 'get_chat_member', {
			chat_id: chatId(params),
			user_id: userId(params),
		})
		return chatMemberOf(member, await usersOf(call, [memberUserId(member)]))
	},
	getChatAdministrators: async (call) => {
		const input = {
			chat_id: chatId(call.params),
			limit: MAX_ADMINISTRATORS,
			member_filter: 'supergroupMembersFilterAdministrators',
		}
		const members = (await command(call, 'get_chat_members', input)).members
		const list = Array.isArray(members) ? members : []
		const users = await usersOf(call, list.map(memberUserId))
		return list.map((m) => chatMemberOf(m, users))
	},
	getChatMemberCount: async (call) => {
		const page = await command(call, 'get_chat_members', { chat_id: chatId(call.params), limit: 1 })
		return typeof page.total_count === 'number' ? page.total_count : 0
	},

	banChatMember: async (call) => {
		const { params } = call
		const input = given({
			chat_id: chatId(params),
			user_id: userId(params),
			until_date: intOf(params, 'until_date'),
			revoke_messages: boolOf(params, 'revoke_messages'),
		})
		await command(call, 'ban_chat_member', input)
		return true
	},
	// The Bot API's unban leaves the user out of the chat, free to join again: TDLib's status "left".
	unbanChatMember: async (call) => {
		const { params } = call
		const input = { chat_id: chatId(params), user_id: userId(params) }
		if (boolOf(params, 'only_if_banned') === true) {
			const member = await command(call, 'get_chat_member', input)
			if (obj(member.status)._ !== 'chatMemberStatusBanned') return true
		}
		await command(call, 'remove_chat_member', input)
		return true
	},
	restrictChatMember: async (call) => {
		const { params } = call
		const input = { chat_id: chatId(params), user_id: userId(params) }
		const permissions = objectOf(params, 'permissions')
		if (!permissions) throw badRequest('permissions are empty')
		const flags: Record<string, boolean> = {}
		for (const [name, value] of Object.entries(permissions)) {
			if (typeof value !== 'boolean') throw badRequest('invalid permissions specified')
			flags[name] = value
		}
		const independent = boolOf(params, 'use_independent_chat_permissions') === true
		await command(call, 'restrict_chat_member', {
			...input,
			permissions: tdPermissions(flags, independent),
			...given({ until_date: intOf(params, 'until_date') }),
		})
		return true
	},
	// All rights false demotes, as the Bot API says; any right true promotes with exactly those rights.
	promoteChatMember: async (call) => {
		const { params } = call
		const input = { chat_id: chatId(params), user_id: userId(params) }
		const flags: Record<string, boolean> = {}
		for (const name of ADMIN_RIGHTS) flags[name] = boolOf(params, name) === true
		if (!ADMIN_RIGHTS.some((name) => name !== 'is_anonymous' && flags[name])) {
			await command(call, 'remove_chat_administrator', input)
			return true
		}
		const rights = tdRights(flags)
		await command(call, 'add_chat_administrator', { ...input, rights, is_anonymous: flags.is_anonymous })
		return true
	},

	createChatInviteLink: async (call) => {
		const input = { chat_id: chatId(call.params), ...linkTerms(call.params) }
		return linkAnswer(call, await command(call, 'create_chat_invite_link', input))
	},
	editChatInviteLink: async (call) => {
		const { params } = call
		const input = {
			chat_id: chatId(params),
			invite_link: requiredText(params, 'invite_link', 'invite link is empty'),
			...linkTerms(params),
		}
		return linkAnswer(call, await command(call, 'edit_chat_invite_link', input))
	},
	revokeChatInviteLink: async (call) => {
		const { params } = call
		const link = requiredText(params, 'invite_link', 'invite link is empty')
		const answer = await command(call, 'revoke_chat_invite_link', {
			chat_id: chatId(params),
			invite_link: link,
		})
		const links = Array.isArray(answer.invite_links) ? (answer.invite_links as Td[]) : []
		const revoked = links.find((l) => l.is_revoked === true) ?? links[0] ?? {}
		return linkAnswer(call, revoked)
	},
	approveChatJoinRequest: async (call) => {
		const input = { chat_id: chatId(call.params), user_id: userId(call.params), approve: true }
		await command(call, 'process_chat_join_request', input)
		return true
	},
	declineChatJoinRequest: async (call) => {
		const input = { chat_id: chatId(call.params), user_id: userId(call.params), approve: false }
		await command(call, 'process_chat_join_request', input)
		return true
	},
	leaveChat: async (call) => {
		await command(call, 'leave_chat', { chat_id: chatId(call.params) })
		return true
	},
	sendChatAction: async (call) => {
		const { params } = call
		const action = requiredText(params, 'action', 'action is empty')
		try {
			await command(call, 'send_chat_action', { chat_id: chatId(params), chat_action: action })
		} catch (err) {
			// The command's list of actions, in the Bot API's words (which name its own parameter).
			if (err instanceof BotError && err.description.startsWith('Bad Request: chat_action must be'))
				throw badRequest('wrong parameter action in request')
			throw err
		}
		return true
	},

	getUserProfilePhotos: async (call) => {
		const { params } = call
		const input = given({
			user_id: userId(params),
			offset: intOf(params, 'offset'),
			limit: intOf(params, 'limit'),
		})
		return userProfilePhotosOf(await command(call, 'get_user_profile_photos', input))
	},

	// TDLight's user-mode extras (docs/bot-api.md#user-mode-extras-chats).
	getChats: async (call) => {
		const { params } = call
		const limit = Math.min(Math.max(intOf(params, 'limit') ?? MAX_CHATS, 1), MAX_CHATS)
		const page = await command(call, 'get_chats', given({ limit, offset: intOf(params, 'offset') }))
		return (Array.isArray(page.chats) ? page.chats : []).map(chatOfSummary)
	},
	searchPublicChats: async (call) => {
		const query = requiredText(call.params, 'query', 'query is empty')
		const found = await command(call, 'search_chats', { query, public: true, limit: MAX_CHATS })
		return (Array.isArray(found.chats) ? found.chats : []).map(chatOfSummary)
	},
	joinChat: async (call) => {
		const { params } = call
		const link = stringOf(params, 'invite_link')
		const input = link ? { invite_link: link } : { chat_id: chatId(params) }
		await command(call, 'join_chat', input)
		return true
	},
}
