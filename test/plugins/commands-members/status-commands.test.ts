import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type * as Td from 'tdlib-types'
import { createMessagingFixture, type MessagingFixture } from '../../helpers-ws'
import { type Members, membersSession, U, user } from './support'

/** get_chat_member, ban_chat_member and restrict_chat_member over the WebSocket, in fresh groups of Bob's. */
let f: MessagingFixture
let m: Members
beforeAll(async () => {
	f = await createMessagingFixture()
	m = await membersSession(f)
})
afterAll(() => f.stop())

const ok = async <T>(action: string, fields: Record<string, unknown>) => {
	const reply = await m.run(action, fields)
	if (reply.payload.type !== action) throw new Error(`${action}: ${reply.payload.error}`)
	return reply.payload.result as T
}

describe('get_chat_member', () => {
	it("answers TDLib's chatMember of one user, member or not", async () => {
		const { chatId } = await m.supergroup([U.alice])
		expect(await ok<Td.chatMember>('get_chat_member', { chat_id: chatId, user_id: U.bob })).toMatchObject({
			_: 'chatMember',
			member_id: user(U.bob),
			status: { _: 'chatMemberStatusCreator' },
		})
		expect((await ok<Td.chatMember>('get_chat_member', { chat_id: chatId, user_id: U.alice })).status._).toBe(
			'chatMemberStatusMember',
		)
		expect((await ok<Td.chatMember>('get_chat_member', { chat_id: chatId, user_id: U.carol })).status._).toBe(
			'chatMemberStatusLeft',
		)
		expect(await m.errorOf('get_chat_member', { chat_id: chatId })).toBe('user_id is required')
		expect(await m.errorOf('get_chat_member', { user_id: U.bob })).toBe('chat_id is required')
	})
})

describe('ban_chat_member', () => {
	it('bans a member for ever or until a date; refuses a date out of range', async () => {
		const { chatId } = await m.supergroup([U.alice, U.dave])
		expect(await ok('ban_chat_member', { chat_id: chatId, user_id: U.alice })).toEqual({ _: 'ok' })
		const banned = await ok<Td.chatMember>('get_chat_member', { chat_id: chatId, user_id: U.alice })
		expect(banned.status).toEqual({ _: 'chatMemberStatusBanned', banned_until_date: 0 })
		const until = Math.floor(Date.now() / 1000) + 7 * 86_400
		expect(await ok('ban_chat_member', { chat_id: chatId, user_id: U.dave, until_date: until })).toEqual({
			_: 'ok',
		})
		const dave = await ok<Td.chatMember>('get_chat_member', { chat_id: chatId, user_id: U.dave })
		expect(dave.status._).toBe('chatMemberStatusBanned')
		expect((dave.status as Td.chatMemberStatusBanned).banned_until_date).toBeGreaterThan(0)
		expect(await m.errorOf('ban_chat_member', { chat_id: chatId, user_id: U.dave, until_date: -1 })).toBe(
			'until_date must be between 0 and 2147483647',
		)
		expect(await m.errorOf('ban_chat_member', { chat_id: chatId, user_id: U.dave, until_date: 'soon' })).toBe(
			'until_date must be an integer',
		)
	})
})

describe('restrict_chat_member', () => {
	it("sets TDLib's chatPermissions for a member, and passes TDLib's refusals through", async () => {
		const { chatId } = await m.supergroup([U.alice])
		const permissions = { can_send_basic_messages: true, can_send_photos: false, can_invite_users: true }
		expect(await ok('restrict_chat_member', { chat_id: chatId, user_id: U.alice, permissions })).toEqual({
			_: 'ok',
		})
		const alice = await ok<Td.chatMember>('get_chat_member', { chat_id: chatId, user_id: U.alice })
		expect(alice.status).toMatchObject({
			_: 'chatMemberStatusRestricted',
			is_member: true,
			restricted_until_date: 0,
			permissions: { can_send_basic_messages: true, can_send_photos: false, can_invite_users: true },
		})
		expect(await m.errorOf('restrict_chat_member', { chat_id: chatId, user_id: U.alice })).toBe(
			'permissions is required',
		)
		expect(await m.errorOf('restrict_chat_member', { chat_id: U.alice, user_id: U.alice, permissions })).toBe(
			"Chat member status can't be changed in private chats",
		)
	})
})
