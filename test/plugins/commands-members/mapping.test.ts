import { describe, expect, it } from 'bun:test'
import * as v from 'valibot'
import { membersCommands } from '../../../plugins/commands-members'
import { PARSE_FAILED } from '../../../src/runtime/telegram/schema/types'
import { TdError } from '../../../src/runtime/telegram/types'
import { CommandError } from '../../../src/server/commands/define'
import { type Answer, stubContext } from '../../helpers-stub'

/**
 * The exact TDLib requests each members command builds (docs/tdlib-mapping.md#members), against a stub that
 * records them: what the emulator cannot show (the chunks of 20, a chat object without its id, a
 * TDLib without getBasicGroupFullInfo).
 */

const chatOf =
	(type: Record<string, unknown>, more: Answer = () => ({ _: 'ok' })): Answer =>
	(req) =>
		req._ === 'getChat' ? { _: 'chat', id: req.chat_id, type } : more(req)

const SUPERGROUP = { _: 'chatTypeSupergroup', supergroup_id: 77, is_channel: false }
const CHANNEL = { _: 'chatTypeSupergroup', supergroup_id: 78, is_channel: true }
const BASIC = { _: 'chatTypeBasicGroup', basic_group_id: 55 }
const PRIVATE = { _: 'chatTypePrivate', user_id: 9 }

const member = (user_id: number) => ({
	_: 'chatMember',
	member_id: { _: 'messageSenderUser', user_id },
	status: { _: 'chatMemberStatusMember', member_until_date: 0 },
})

async function runCommand(name: string, frame: Record<string, unknown>, answer: Answer) {
	const command = membersCommands.commands.find((c) => c.name === name)!
	const { ctx, requests } = stubContext(answer)
	const input = v.parse(command.input, frame)
	try {
		return { result: await command.run(input, ctx), requests, error: undefined }
	} catch (error) {
		return { result: undefined, requests, error }
	}
}

describe('get_chat_members mapping', () => {
	it('supergroups: getSupergroupMembers, the filter given its query, defaults 0 and 50', async () => {
		const { requests } = await runCommand(
			'get_chat_members',
			{ chat_id: -100, member_filter: 'supergroupMembersFilterBanned', query: 'x' },
			chatOf(SUPERGROUP),
		)
		expect(requests).toEqual([
			{ _: 'getChat', chat_id: -100 },
			{
				_: 'getSupergroupMembers',
				supergroup_id: 77,
				filter: { _: 'supergroupMembersFilterBanned', query: 'x' },
				offset: 0,
				limit: 50,
			},
		])
		const own = await runCommand(
			'get_chat_members',
			{ chat_id: -100, member_filter: { '@type': 'supergroupMembersFilterRestricted', query: 'own' } },
			chatOf(SUPERGROUP),
		)
		expect(own.requests[1]).toMatchObject({
			filter: { _: 'supergroupMembersFilterRestricted', query: 'own' },
		})
		const empty = await runCommand(
			'get_chat_members',
			{ chat_id: -100, member_filter: 'supergroupMembersFilterContacts', limit: 500, offset: 3 },
			chatOf(SUPERGROUP),
		)
		expect(empty.requests[1]).toEqual({
			_: 'getSupergroupMembers',
			supergroup_id: 77,
			filter: { _: 'supergroupMembersFilterContacts', query: '' },
			offset: 3,
			limit: 200,
		})
		const none = await runCommand('get_chat_members', { chat_id: -100 }, chatOf(SUPERGROUP))
		expect(none.requests[1]).toEqual({
			_: 'getSupergroupMembers',
			supergroup_id: 77,
			filter: undefined,
			offset: 0,
			limit: 50,
		})
		const search = await runCommand('get_chat_members', { chat_id: -100, query: 'q' }, chatOf(SUPERGROUP))
		expect(search.requests[1]).toMatchObject({ filter: { _: 'supergroupMembersFilterSearch', query: 'q' } })
	})

	it('basic groups: the full info sliced; with a filter, searchChatMembers up to offset+limit', async () => {
		const info: Answer = () => ({ _: 'basicGroupFullInfo', members: [1, 2, 3, 4].map(member) })
		const { requests, result } = await runCommand(
			'get_chat_members',
			{ chat_id: -5, offset: 1, limit: 2 },
			chatOf(BASIC, info),
		)
		expect(requests).toEqual([
			{ _: 'getChat', chat_id: -5 },
			{ _: 'getBasicGroupFullInfo', basic_group_id: 55 },
		])
		expect(result).toEqual({ _: 'chatMembers', total_count: 4, members: [member(2), member(3)] })
		const filtered = await runCommand(
			'get_chat_members',
			{
				chat_id: -5,
				offset: 1,
				limit: 2,
				member_filter: {
					_: 'supergroupMembersFilterMention',
					topic_id: { _: 'messageTopicForum', forum_topic_id: 3 },
				},
				query: 'a',
			},
			chatOf(BASIC, () => ({ _: 'chatMembers', total_count: 5, members: [1, 2, 3].map(member) })),
		)
		expect(filtered.requests[1]).toEqual({
			_: 'searchChatMembers',
			chat_id: -5,
			query: 'a',
			limit: 3,
			filter: { _: 'chatMembersFilterMention', topic_id: { _: 'messageTopicForum', forum_topic_id: 3 } },
		})
		expect(filtered.result).toEqual({ _: 'chatMembers', total_count: 5, members: [member(2), member(3)] })
	})

	it('private and secret chats: the other user, by getChatMember', async () => {
		for (const type of [PRIVATE, { _: 'chatTypeSecret', secret_chat_id: 4, user_id: 9 }]) {
			const { requests, result } = await runCommand(
				'get_chat_members',
				{ chat_id: 9 },
				chatOf(type, () => member(9)),
			)
			expect(requests[1]).toEqual({
				_: 'getChatMember',
				chat_id: 9,
				member_id: { _: 'messageSenderUser', user_id: 9 },
			})
			expect(result).toEqual({ _: 'chatMembers', total_count: 1, members: [member(9)] })
		}
	})

	it('answers the error table’s strings for a chat object without its id, and for a TDLib without the function', async () => {
		const error = async (type: Record<string, unknown>, more?: Answer) =>
			((await runCommand('get_chat_members', { chat_id: 1 }, chatOf(type, more))).error as Error).message
		expect(await error({ ...SUPERGROUP, supergroup_id: 0 })).toBe('supergroup_id is required')
		expect(await error({ _: 'chatTypeBasicGroup' })).toBe('basic_group_id is required')
		expect(await error({ _: 'chatTypePrivate', user_id: 0 })).toBe('user_id is required for private chat')
		expect(await error({ _: 'chatTypeSecret', secret_chat_id: 1 })).toBe(
			'user_id is required for private chat',
		)
		const unknown = await runCommand(
			'get_chat_members',
			{ chat_id: 1 },
			chatOf(BASIC, () => {
				throw new TdError(400, `${PARSE_FAILED}Unknown class "getBasicGroupFullInfo"`)
			}),
		)
		expect(unknown.error).toBeInstanceOf(CommandError)
		expect((unknown.error as Error).message).toBe('basic group info api is not configured')
		// Any other TDLib failure is TDLib's to word.
		const other = await runCommand(
			'get_chat_members',
			{ chat_id: 1 },
			chatOf(BASIC, () => {
				throw new TdError(400, 'Group not found')
			}),
		)
		expect(other.error).toBeInstanceOf(TdError)
	})
})

describe('get_chat_recent_actions mapping', () => {
	it('sends getChatEventLog with query, from_event_id, limit and the 1.8.65 filters', async () => {
		const plain = await runCommand('get_chat_recent_actions', { chat_id: -100 }, chatOf(CHANNEL))
		expect(plain.requests[1]).toEqual({
			_: 'getChatEventLog',
			chat_id: -100,
			query: '',
			from_event_id: '0',
			limit: 50,
			filters: undefined,
			user_ids: [],
		})
		const full = await runCommand(
			'get_chat_recent_actions',
			{
				chat_id: -100,
				query: 'q',
				limit: 10,
				from_event_id: '9223372036854775807',
				event_filters: { member_tag_changes: true, message_edits: false },
			},
			chatOf(SUPERGROUP),
		)
		expect(full.requests[1]).toEqual({
			_: 'getChatEventLog',
			chat_id: -100,
			query: 'q',
			from_event_id: '9223372036854775807',
			limit: 10,
			filters: { _: 'chatEventLogFilters', member_tag_changes: true, message_edits: false },
			user_ids: [],
		})
	})
})

describe('add_chat_members mapping', () => {
	const ids = Array.from({ length: 45 }, (_, i) => 100 + i)

	it('sends a supergroup’s users 20 a call and merges the failures', async () => {
		const answer = chatOf(SUPERGROUP, (req) => ({
			_: 'failedToAddMembers',
			failed_to_add_members: (req.user_ids as number[])
				.slice(0, 1)
				.map((user_id) => ({ _: 'failedToAddMember', user_id })),
		}))
		const { requests, result } = await runCommand(
			'add_chat_members',
			{ chat_id: -100, user_ids: ids },
			answer,
		)
		expect(requests.slice(1)).toEqual([
			{ _: 'addChatMembers', chat_id: -100, user_ids: ids.slice(0, 20) },
			{ _: 'addChatMembers', chat_id: -100, user_ids: ids.slice(20, 40) },
			{ _: 'addChatMembers', chat_id: -100, user_ids: ids.slice(40) },
		])
		expect(result).toEqual({
			_: 'failedToAddMembers',
			failed_to_add_members: [100, 120, 140].map((user_id) => ({ _: 'failedToAddMember', user_id })),
		})
	})

	it('on a failing chunk, stops with the merged failures and the users not added', async () => {
		const answer = chatOf(SUPERGROUP, (req) => {
			if ((req.user_ids as number[])[0] === 120) throw new TdError(400, 'USER_KICKED')
			return { _: 'failedToAddMembers', failed_to_add_members: [{ _: 'failedToAddMember', user_id: 101 }] }
		})
		const { requests, error } = await runCommand('add_chat_members', { chat_id: -100, user_ids: ids }, answer)
		expect(requests).toHaveLength(3)
		expect(error).toBeInstanceOf(CommandError)
		expect((error as CommandError).message).toBe('USER_KICKED')
		expect((error as CommandError).result).toEqual({
			_: 'failedToAddMembers',
			failed_to_add_members: [{ _: 'failedToAddMember', user_id: 101 }],
			remaining_user_ids: ids.slice(20),
		})
	})

	it('sends a basic group’s users one addChatMember each, each user once', async () => {
		const answer = chatOf(BASIC, () => ({ _: 'failedToAddMembers', failed_to_add_members: [] }))
		const { requests } = await runCommand('add_chat_members', { chat_id: -5, user_ids: [3, '4', 3] }, answer)
		expect(requests.slice(1)).toEqual([
			{ _: 'addChatMember', chat_id: -5, user_id: 3, forward_limit: 0 },
			{ _: 'addChatMember', chat_id: -5, user_id: 4, forward_limit: 0 },
		])
	})

	it('lets an unexpected failure reach the gateway as it is, to be logged', async () => {
		const bug = new TypeError('a bug')
		const { error } = await runCommand(
			'add_chat_members',
			{ chat_id: -5, user_ids: [3] },
			chatOf(BASIC, () => {
				throw bug
			}),
		)
		expect(error).toBe(bug)
	})
})

describe('remove and restore mapping', () => {
	const sender = { _: 'messageSenderUser', user_id: 9 }

	it('remove_chat_member: Left plus deleteChatMessagesBySender in a supergroup, banChatMember elsewhere', async () => {
		const sg = await runCommand(
			'remove_chat_member',
			{ chat_id: -100, user_id: 9, revoke_messages: true },
			chatOf(SUPERGROUP),
		)
		expect(sg.requests.slice(1)).toEqual([
			{ _: 'setChatMemberStatus', chat_id: -100, member_id: sender, status: { _: 'chatMemberStatusLeft' } },
			{ _: 'deleteChatMessagesBySender', chat_id: -100, sender_id: sender },
		])
		const channel = await runCommand(
			'remove_chat_member',
			{ chat_id: -100, user_id: 9, revoke_messages: true },
			chatOf(CHANNEL),
		)
		expect(channel.requests.map((r) => r._)).toEqual(['getChat', 'setChatMemberStatus'])
		const basic = await runCommand(
			'remove_chat_member',
			{ chat_id: -5, user_id: 9, revoke_messages: true },
			chatOf(BASIC),
		)
		expect(basic.requests[1]).toEqual({
			_: 'banChatMember',
			chat_id: -5,
			member_id: sender,
			banned_until_date: 0,
			revoke_messages: true,
		})
		const plain = await runCommand('remove_chat_member', { chat_id: -100, user_id: 9 }, chatOf(SUPERGROUP))
		expect(plain.requests.map((r) => r._)).toEqual(['getChat', 'setChatMemberStatus'])
	})

	it('restore_chat_member: setChatMemberStatus(Member)', async () => {
		const { requests } = await runCommand('restore_chat_member', { chat_id: -100, user_id: 9 }, () => ({
			_: 'ok',
		}))
		expect(requests).toEqual([
			{ _: 'setChatMemberStatus', chat_id: -100, member_id: sender, status: { _: 'chatMemberStatusMember' } },
		])
	})
})
