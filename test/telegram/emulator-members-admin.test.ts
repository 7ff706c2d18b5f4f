import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type * as Td from 'tdlib-types'
import { SEED_CHATS } from '../../src/emulator'
import { TdError } from '../../src/runtime/telegram/types'
import { login, startRuntime, type TestRuntime } from '../supervisor/helpers'

const BOB = 1 // 1002, no 2FA password
const ALICE = 2 // 1001
const CAROL = 3 // 1003, 2FA password `secret-2fa`; owner of the seed's News channel
const U = { alice: 1001, bob: 1002, carol: 1003, dave: 1004, eve: 1005 }

const user = (user_id: number): Td.messageSenderUser => ({ _: 'messageSenderUser', user_id })

async function tdError(p: Promise<unknown>): Promise<string> {
	try {
		await p
	} catch (err) {
		expect(err).toBeInstanceOf(TdError)
		return (err as TdError).message
	}
	throw new Error('expected a TdError')
}

let t: TestRuntime
const invoke: TestRuntime['rt']['invoke'] = (id, req, opts) => t.rt.invoke(id, req, opts)
const member = (who: number, chat_id: number, userId: number) =>
	invoke(who, { _: 'getChatMember', chat_id, member_id: user(userId) })

async function supergroup(owner: number, members: number[], is_channel = false) {
	const chat = await invoke(owner, { _: 'createNewSupergroupChat', title: 'Fresh', is_channel })
	await invoke(owner, { _: 'addChatMembers', chat_id: chat.id, user_ids: members })
	return chat.id
}

beforeAll(async () => {
	t = await startRuntime()
	await login(t.rt, BOB, '9996621234')
	await login(t.rt, ALICE, '9996611111')
	await login(t.rt, CAROL, '9996631111')
	await invoke(CAROL, { _: 'checkAuthenticationPassword', password: 'secret-2fa' })
})
afterAll(() => t.stop())

describe('emulator members: new groups', () => {
	it('creates supergroups, channels and basic groups owned by the account', async () => {
		const made = await invoke(BOB, { _: 'createNewSupergroupChat', title: ' Board ', is_forum: true })
		expect(made).toMatchObject({ title: 'Board', type: { _: 'chatTypeSupergroup', is_channel: false } })
		expect(made.id).toBeLessThan(-1_000_000_000_000)
		const sg = made.type._ === 'chatTypeSupergroup' ? made.type.supergroup_id : 0
		expect(await invoke(BOB, { _: 'getSupergroup', supergroup_id: sg })).toMatchObject({
			is_forum: true,
			status: { _: 'chatMemberStatusCreator' },
		})
		const channel = await invoke(BOB, { _: 'createNewSupergroupChat', title: 'Cast', is_channel: true })
		expect(channel.type).toMatchObject({ _: 'chatTypeSupergroup', is_channel: true })
		expect(channel.id).not.toBe(made.id)
		const basic = await invoke(BOB, {
			_: 'createNewBasicGroupChat',
			user_ids: [U.alice, U.eve],
			title: 'Two',
		})
		expect(basic.failed_to_add_members.failed_to_add_members.map((f) => f.user_id)).toEqual([U.eve])
		expect(await invoke(ALICE, { _: 'getChat', chat_id: basic.chat_id })).toMatchObject({
			title: 'Two',
			type: { _: 'chatTypeBasicGroup' },
		})
		expect(await tdError(invoke(BOB, { _: 'createNewSupergroupChat', title: '  ' }))).toBe(
			'Title must be non-empty',
		)
		expect(await tdError(invoke(BOB, { _: 'createNewBasicGroupChat', user_ids: [9], title: 'x' }))).toBe(
			'User not found',
		)
	})
})

describe('emulator members: tags', () => {
	it('sets a member tag with the right to manage tags, and logs the change', async () => {
		const chat_id = await supergroup(BOB, [U.alice, U.dave])
		const tag = (who: number, user_id: number, value: string, chat = chat_id) =>
			invoke(who, { _: 'setChatMemberTag', chat_id: chat, user_id, tag: value })
		await tag(BOB, U.alice, 'Deputy')
		expect((await member(BOB, chat_id, U.alice)).tag).toBe('Deputy')
		expect(await tdError(tag(ALICE, U.dave, 'x'))).toBe('CHAT_ADMIN_REQUIRED')
		expect(await tdError(tag(BOB, U.dave, 'seventeen letters'))).toBe('ADMIN_RANK_INVALID')
		expect(await tdError(tag(BOB, U.dave, 'boss 👑'))).toBe('ADMIN_RANK_EMOJI_NOT_ALLOWED')
		expect(await tdError(tag(BOB, U.eve, 'x'))).toBe('USER_NOT_PARTICIPANT')
		expect(await tdError(tag(BOB, U.alice, 'x', U.alice))).toBe(
			"Chat member tag can't be changed in private chats",
		)
		expect(await tdError(tag(BOB, U.alice, 'x', SEED_CHATS.channel))).toBe('CHANNEL_INVALID')
		const log = await invoke(BOB, {
			_: 'getChatEventLog',
			chat_id,
			query: '',
			from_event_id: 0,
			limit: 1,
			user_ids: [],
		})
		expect(log.events[0]?.action).toEqual({
			_: 'chatEventMemberTagChanged',
			user_id: U.alice,
			old_tag: '',
			new_tag: 'Deputy',
		})
	})
})

describe('emulator members: ownership', () => {
	const transfer = (who: number, chat_id: number, user_id: number, password: string) =>
		invoke(who, { _: 'transferChatOwnership', chat_id, user_id, password })

	it('checks the account password, then hands the chat over; the old owner stays an administrator', async () => {
		const chat_id = await supergroup(CAROL, [U.bob, U.alice], true)
		expect(await tdError(transfer(CAROL, chat_id, U.bob, ''))).toBe('PASSWORD_HASH_INVALID')
		expect(await tdError(transfer(CAROL, chat_id, U.bob, 'wrong'))).toBe('PASSWORD_HASH_INVALID')
		expect(await tdError(transfer(CAROL, chat_id, U.eve, 'secret-2fa'))).toBe('USER_ID_INVALID')
		expect(await tdError(transfer(CAROL, chat_id, 9, 'secret-2fa'))).toBe('User not found')
		await transfer(CAROL, chat_id, U.bob, 'secret-2fa')
		expect((await member(BOB, chat_id, U.bob)).status._).toBe('chatMemberStatusCreator')
		expect((await member(BOB, chat_id, U.carol)).status).toMatchObject({
			_: 'chatMemberStatusAdministrator',
			can_be_edited: true,
			rights: { can_promote_members: true },
		})
		expect(await tdError(transfer(CAROL, chat_id, U.alice, 'secret-2fa'))).toBe('CHAT_ADMIN_REQUIRED')
	})

	it('answers PASSWORD_MISSING for an account without a password and refuses basic groups', async () => {
		const chat_id = await supergroup(BOB, [U.alice])
		expect(await tdError(transfer(BOB, chat_id, U.alice, 'anything'))).toBe('PASSWORD_MISSING')
		expect(await tdError(transfer(ALICE, SEED_CHATS.basicGroup, U.bob, 'x'))).toBe(
			"Can't transfer chat ownership",
		)
	})
})

describe('emulator members: event log', () => {
	it('lists the last events newest first, filtered, paged, for administrators of supergroups only', async () => {
		const chat_id = await supergroup(BOB, [U.alice, U.dave])
		const log = (
			filters?: Td.chatEventLogFilters$Input,
			from_event_id: number | string = 0,
			query = '',
			who = BOB,
		) =>
			invoke(who, { _: 'getChatEventLog', chat_id, query, from_event_id, limit: 10, filters, user_ids: [] })
		expect(await tdError(log(undefined, 0, '', ALICE))).toBe('Not enough rights to get event log')
		await invoke(BOB, {
			_: 'setChatMemberStatus',
			chat_id,
			member_id: user(U.alice),
			status: {
				_: 'chatMemberStatusAdministrator',
				rights: { _: 'chatAdministratorRights', can_invite_users: true },
			},
		})
		await invoke(BOB, {
			_: 'setChatMemberStatus',
			chat_id,
			member_id: user(U.dave),
			status: { _: 'chatMemberStatusLeft' },
		})
		const all = await log()
		expect(all.events.map((e) => e.action._)).toEqual([
			'chatEventMemberRestricted',
			'chatEventMemberPromoted',
			'chatEventMemberInvited',
			'chatEventMemberInvited',
		])
		expect(all.events.every((e) => typeof e.id === 'string' && e.member_id._ === 'messageSenderUser')).toBe(
			true,
		)
		const promotions = await log({ _: 'chatEventLogFilters', member_promotions: true })
		expect(promotions.events.map((e) => e.action)).toEqual([
			expect.objectContaining({
				_: 'chatEventMemberPromoted',
				user_id: U.alice,
				old_status: expect.objectContaining({ _: 'chatMemberStatusMember' }),
				new_status: expect.objectContaining({ _: 'chatMemberStatusAdministrator' }),
			}),
		])
		const older = await log(undefined, all.events[1]!.id)
		expect(older.events.map((e) => e.id)).toEqual(all.events.slice(2).map((e) => e.id))
		expect((await log(undefined, 0, 'bob')).events).toHaveLength(4)
		expect((await log(undefined, 0, 'alice')).events).toHaveLength(0)
		expect(
			await tdError(
				invoke(ALICE, {
					_: 'getChatEventLog',
					chat_id: SEED_CHATS.basicGroup,
					query: '',
					from_event_id: 0,
					limit: 5,
				}),
			),
		).toBe('Chat is not a supergroup chat')
	})
})
