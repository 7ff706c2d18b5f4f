import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type * as Td from 'tdlib-types'
import { SEED_CHATS } from '../../../src/emulator'
import { createMessagingFixture, type MessagingFixture } from '../../helpers-ws'
import { type Members, memberIds, membersSession, U, user } from './support'

// The group loads alone: with it, only the account and userbot plugins.
let f: MessagingFixture
let m: Members
beforeAll(async () => {
	f = await createMessagingFixture({ PLUGINS: 'accounts,userbots,commands-members' })
	m = await membersSession(f)
})
afterAll(() => f.stop())

describe('commands-members alone', () => {
	it('serves its commands and no other group’s', async () => {
		expect((await m.run('get_chat_members', { chat_id: SEED_CHATS.supergroup })).payload.type).toBe(
			'get_chat_members',
		)
		expect(await m.errorOf('add_chat_administrator', { chat_id: 1, user_id: 2 })).toBe('unknown action')
	})
})

describe('get_chat_members', () => {
	it('lists a supergroup’s members with TDLib’s defaults: recent, offset 0, limit 50', async () => {
		const reply = await m.run('get_chat_members', { chat_id: SEED_CHATS.supergroup })
		expect(reply.payload.type).toBe('get_chat_members')
		const result = reply.payload.result as Td.chatMembers
		expect(result._).toBe('chatMembers')
		expect(result.total_count).toBe(4)
		expect(memberIds(result)).toEqual([U.eve, U.carol, U.alice, U.bob])
		expect(result.members[3]).toMatchObject({
			member_id: user(U.bob),
			status: { _: 'chatMemberStatusCreator' },
		})
		const page = await m.run('get_chat_members', { chat_id: SEED_CHATS.supergroup, offset: 1, limit: 2 })
		expect(memberIds(page.payload.result)).toEqual([U.carol, U.alice])
		expect((page.payload.result as Td.chatMembers).total_count).toBe(4)
	})

	it('takes member_filter as a type name or an object, and a query', async () => {
		const list = async (fields: Record<string, unknown>) => {
			const reply = await m.run('get_chat_members', { chat_id: SEED_CHATS.supergroup, ...fields })
			expect(reply.payload.type).toBe('get_chat_members')
			return memberIds(reply.payload.result)
		}
		expect(await list({ member_filter: 'supergroupMembersFilterAdministrators' })).toEqual([U.alice, U.bob])
		expect(await list({ member_filter: { '@type': 'supergroupMembersFilterSearch', query: 'car' } })).toEqual(
			[U.carol],
		)
		// The command's query wins over the filter's own; a query alone searches.
		expect(
			await list({ member_filter: { _: 'supergroupMembersFilterSearch', query: 'car' }, query: 'eve' }),
		).toEqual([U.eve])
		expect(await list({ query: 'alice' })).toEqual([U.alice])
		expect(await list({ member_filter: 'supergroupMembersFilterMention', query: 'bo' })).toEqual([U.bob])
	})

	it('lists a basic group from its full info, sliced, and filters it through TDLib', async () => {
		const all = await m.run('get_chat_members', { chat_id: SEED_CHATS.basicGroup })
		expect(all.payload.result).toMatchObject({ _: 'chatMembers', total_count: 4 })
		expect(memberIds(all.payload.result)).toEqual([U.alice, U.bob, U.carol, U.dave])
		const page = await m.run('get_chat_members', { chat_id: SEED_CHATS.basicGroup, offset: 1, limit: 2 })
		expect(page.payload.result).toMatchObject({ total_count: 4 })
		expect(memberIds(page.payload.result)).toEqual([U.bob, U.carol])
		const admins = await m.run('get_chat_members', {
			chat_id: SEED_CHATS.basicGroup,
			member_filter: 'supergroupMembersFilterAdministrators',
		})
		expect(admins.payload.result).toMatchObject({ total_count: 2 })
		expect(memberIds(admins.payload.result).sort()).toEqual([U.alice, U.bob])
		const found = await m.run('get_chat_members', { chat_id: SEED_CHATS.basicGroup, query: 'da' })
		expect(memberIds(found.payload.result)).toEqual([U.dave])
		const banned = await m.run('get_chat_members', {
			chat_id: SEED_CHATS.basicGroup,
			member_filter: 'supergroupMembersFilterBanned',
		})
		expect(banned.payload.result).toEqual({ _: 'chatMembers', total_count: 0, members: [] })
	})

	it('lists a private chat as its other user', async () => {
		const reply = await m.run('get_chat_members', { chat_id: U.alice })
		expect(reply.payload.result).toEqual({
			_: 'chatMembers',
			total_count: 1,
			members: [
				{
					_: 'chatMember',
					member_id: user(U.alice),
					tag: '',
					inviter_user_id: U.bob,
					joined_chat_date: 0,
					status: { _: 'chatMemberStatusMember', member_until_date: 0 },
				},
			],
		})
		const none = await m.run('get_chat_members', { chat_id: U.alice, query: 'bob' })
		expect(none.payload.result).toEqual({ _: 'chatMembers', total_count: 0, members: [] })
		const alice = await m.run('get_chat_members', { chat_id: U.alice, query: 'ali' })
		expect(memberIds(alice.payload.result)).toEqual([U.alice])
	})

	it('answers its errors and TDLib’s', async () => {
		const error = (fields: Record<string, unknown>) => m.errorOf('get_chat_members', fields)
		expect(await error({})).toBe('chat_id is required')
		expect(await error({ chat_id: SEED_CHATS.supergroup, limit: 0 })).toBe('Parameter limit must be positive')
		expect(await error({ chat_id: SEED_CHATS.supergroup, offset: -1 })).toBe(
			'Parameter offset must be non-negative',
		)
		expect(await error({ chat_id: SEED_CHATS.supergroup, member_filter: 'recent' })).toBe(
			'member_filter: unknown TDLib type',
		)
		expect(
			await error({ chat_id: SEED_CHATS.supergroup, member_filter: 'chatMembersFilterAdministrators' }),
		).toBe('member_filter: chatMembersFilterAdministrators is not allowed here')
		expect(await error({ chat_id: SEED_CHATS.supergroup, member_filter: 7 })).toBe(
			'member_filter must be a type name or an object',
		)
		expect(
			await error({
				chat_id: SEED_CHATS.supergroup,
				member_filter: { _: 'supergroupMembersFilterSearch', query: 5 },
			}),
		).toBe('member_filter.query must be a string')
		expect(
			await error({
				chat_id: SEED_CHATS.supergroup,
				member_filter: 'supergroupMembersFilterAdministrators',
				query: 'x',
			}),
		).toBe("query can't be used with this member_filter")
		expect(await error({ chat_id: SEED_CHATS.supergroup, query: ['x'] })).toBe('query must be a string')
		expect(await error({ chat_id: 424242 })).toBe('Chat not found')
		// A channel's member list is for its administrators: Alice is a subscriber of the seed's channel.
		expect(await m.errorOf('get_chat_members', { chat_id: SEED_CHATS.channel }, m.aliceBot)).toBe(
			'Member list is inaccessible',
		)
	})
})

describe('get_chat_recent_actions', () => {
	it('reads the event log: newest first, filtered, paged, searched', async () => {
		const { chatId } = await m.supergroup([U.alice, U.dave])
		await m.td({
			_: 'setChatMemberStatus',
			chat_id: chatId,
			member_id: user(U.alice),
			status: {
				_: 'chatMemberStatusAdministrator',
				rights: { _: 'chatAdministratorRights', can_invite_users: true },
			},
		})
		const reply = await m.run('get_chat_recent_actions', { chat_id: chatId })
		expect(reply.payload.type).toBe('get_chat_recent_actions')
		const events = (reply.payload.result as Td.chatEvents).events
		expect(events.map((e) => e.action._)).toEqual([
			'chatEventMemberPromoted',
			'chatEventMemberInvited',
			'chatEventMemberInvited',
		])
		const invites = await m.run('get_chat_recent_actions', {
			chat_id: chatId,
			event_filters: { member_invites: true },
		})
		expect((invites.payload.result as Td.chatEvents).events.map((e) => e.action._)).toEqual([
			'chatEventMemberInvited',
			'chatEventMemberInvited',
		])
		const tagged = await m.run('get_chat_recent_actions', {
			chat_id: chatId,
			event_filters: { '@type': 'chatEventLogFilters', member_tag_changes: true },
		})
		expect(tagged.payload.result).toEqual({ _: 'chatEvents', events: [] })
		const older = await m.run('get_chat_recent_actions', {
			chat_id: chatId,
			from_event_id: events[0]!.id,
			limit: 1,
		})
		expect((older.payload.result as Td.chatEvents).events.map((e) => e.id)).toEqual([events[1]!.id])
		const byBob = await m.run('get_chat_recent_actions', { chat_id: chatId, query: 'bob' })
		expect((byBob.payload.result as Td.chatEvents).events).toHaveLength(3)
		const byEve = await m.run('get_chat_recent_actions', { chat_id: chatId, query: 'eve' })
		expect((byEve.payload.result as Td.chatEvents).events).toHaveLength(0)
	})

	it('answers its errors and TDLib’s', async () => {
		const error = (fields: Record<string, unknown>, bot?: number) =>
			m.errorOf('get_chat_recent_actions', fields, bot)
		expect(await error({})).toBe('chat_id is required')
		expect(await error({ chat_id: SEED_CHATS.basicGroup })).toBe(
			'Recent actions are available only for channels and supergroups',
		)
		expect(await error({ chat_id: U.alice })).toBe(
			'Recent actions are available only for channels and supergroups',
		)
		expect(
			await error({ chat_id: SEED_CHATS.supergroup, event_filters: { member_joins: true, bans: true } }),
		).toBe('event_filters: unknown field for chatEventLogFilters')
		expect(await error({ chat_id: SEED_CHATS.supergroup, event_filters: { member_joins: 'yes' } })).toBe(
			'event_filters.member_joins must be true or false',
		)
		expect(await error({ chat_id: SEED_CHATS.supergroup, from_event_id: 'latest' })).toBe(
			'from_event_id must be an integer',
		)
		expect(await error({ chat_id: SEED_CHATS.supergroup, from_event_id: -5 })).toBe(
			'from_event_id must not be negative',
		)
		expect(await error({ chat_id: SEED_CHATS.supergroup, limit: -1 })).toBe(
			'Parameter limit must be positive',
		)
		// Alice is a subscriber of the seed's channel, no administrator.
		expect(await error({ chat_id: SEED_CHATS.channel }, m.aliceBot)).toBe(
			'Not enough rights to get event log',
		)
	})
})
