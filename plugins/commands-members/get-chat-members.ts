import type { chatMember, chatMembers, SupergroupMembersFilter$Input } from 'tdlib-types'
import {
	type CommandContext,
	CommandError,
	defineCommand,
	documented,
	fields,
	PARSE_FAILED,
	requiredInt,
	TdError,
	tdObjectField,
} from 'userbot-gateway/plugin'
import { MembersErrors as E, MAX_MEMBERS_LIMIT } from './errors'
import { limitField, offsetField, queryField } from './list-fields'
import { chatMembersSearch, MEMBER_FILTER, supergroupFilter } from './member-filter'

interface Page {
	offset: number
	limit: number
}

const pageOf = (all: chatMember[], total: number, p: Page): chatMembers => ({
	_: 'chatMembers',
	total_count: total,
	members: all.slice(p.offset, p.offset + p.limit),
})

const userIdOf = (m: chatMember) => (m.member_id._ === 'messageSenderUser' ? m.member_id.user_id : 0)

/** What TDLib answers for a function it does not have (its JSON parser's words). */
const UNKNOWN_FUNCTION = `${PARSE_FAILED}Unknown class "getBasicGroupFullInfo"`

/**
 * A basic group's members: its full info, sliced here. The function is in every TDLib this service runs
 * (1.8.65); should the TDLib in use lack it, that is the "capability unavailable" of
 * docs/protocol.md#error-strings.
 */
async function basicGroupMembers(ctx: CommandContext, basicGroupId: number, p: Page): Promise<chatMembers> {
	try {
		const info = await ctx.invoke({ _: 'getBasicGroupFullInfo', basic_group_id: basicGroupId })
		return pageOf(info.members, info.members.length, p)
	} catch (err) {
		if (err instanceof TdError && err.message === UNKNOWN_FUNCTION)
			throw new CommandError(E.BASIC_GROUP_INFO_UNAVAILABLE)
		throw err
	}
}

/**
 * `get_chat_members`: `getChat`, then by chat kind
 * - supergroup or channel: `getSupergroupMembers` with the filter (TDLib's answer as it is);
 * - basic group: `getBasicGroupFullInfo`, sliced [offset, offset+limit);
 * - private or secret chat: the other user, by `getChatMember`.
 * With a filter or a query, a basic group's or private chat's members are searched by TDLib
 * (`searchChatMembers`, the same filter on the chat's own list) and sliced. Always `chatMembers
 * {total_count, members}`. A private chat's members are the other user only (the account is not
 * listed). limit defaults to 50 (clamped to 200, as TDLib does), offset to 0.
 */
export const getChatMembers = defineCommand({
	name: 'get_chat_members',
	policy: { action: 'read' },
	summary: 'Members of any chat: a page, a filter, a search.',
	result: { description: '`{total_count, members}`.', tdlib: 'chatMembers' },
	errors: [
		E.BASIC_GROUP_INFO_UNAVAILABLE,
		E.SUPERGROUP_ID_REQUIRED,
		E.BASIC_GROUP_ID_REQUIRED,
		E.PRIVATE_CHAT_USER_ID_REQUIRED,
	],
	examples: [{ chat_id: -1000000003001, limit: 20, member_filter: 'supergroupMembersFilterAdministrators' }],
	methods: [
		'getChat',
		'getSupergroupMembers',
		'getBasicGroupFullInfo',
		'getChatMember',
		'searchChatMembers',
		'createPrivateChat',
	],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		limit: documented(limitField(), { default: 50 }),
		offset: documented(offsetField(), { default: 0 }),
		query: queryField('query'),
		member_filter: tdObjectField<SupergroupMembersFilter$Input>('member_filter', MEMBER_FILTER, {
			strings: true,
		}),
	}),
	async run(input, ctx) {
		const filter = supergroupFilter(input.member_filter, input.query)
		const limit = Math.min(input.limit ?? 50, MAX_MEMBERS_LIMIT)
		const offset = input.offset ?? 0
		const chat = await ctx.invoke({ _: 'getChat', chat_id: input.chat_id })
		const type = chat.type
		if (type._ === 'chatTypeSupergroup') {
			// TDLib always fills it; a chat object without it cannot be asked about.
			if (!type.supergroup_id) throw new CommandError(E.SUPERGROUP_ID_REQUIRED)
			return ctx.invoke({
				_: 'getSupergroupMembers',
				supergroup_id: type.supergroup_id,
				filter,
				offset,
				limit,
			})
		}
		let peer = 0
		if (type._ === 'chatTypeBasicGroup') {
			if (!type.basic_group_id) throw new CommandError(E.BASIC_GROUP_ID_REQUIRED)
		} else {
			peer = type.user_id
			if (!peer) throw new CommandError(E.PRIVATE_CHAT_USER_ID_REQUIRED)
		}
		if (filter) {
			const search = chatMembersSearch(filter)
			const found = await ctx.invoke({
				_: 'searchChatMembers',
				chat_id: input.chat_id,
				query: search.query,
				limit: Math.min(offset + limit, MAX_MEMBERS_LIMIT),
				filter: search.filter,
			})
			if (!peer) return pageOf(found.members, found.total_count, { offset, limit })
			const others = found.members.filter((m) => userIdOf(m) === peer)
			return pageOf(others, others.length, { offset, limit })
		}
		if (type._ === 'chatTypeBasicGroup') return basicGroupMembers(ctx, type.basic_group_id, { offset, limit })
		const member = await ctx.invoke({
			_: 'getChatMember',
			chat_id: input.chat_id,
			member_id: { _: 'messageSenderUser', user_id: peer },
		})
		return pageOf([member], 1, { offset, limit })
	},
})
