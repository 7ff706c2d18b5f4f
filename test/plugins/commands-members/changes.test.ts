import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type * as Td from 'tdlib-types'
import { SEED_CHATS } from '../../../src/emulator'
import { createMessagingFixture, type MessagingFixture } from '../../helpers-ws'
import { type Members, membersSession, U, user } from './support'

let f: MessagingFixture
let m: Members
beforeAll(async () => {
	f = await createMessagingFixture({ PLUGINS: 'accounts,userbots,commands-members' })
	m = await membersSession(f)
})
afterAll(() => f.stop())

const NONE = { _: 'failedToAddMembers', failed_to_add_members: [] }
const failedFor = (user_id: number) => ({
	_: 'failedToAddMember',
	user_id,
	premium_would_allow_invite: false,
	premium_required_to_send_messages: false,
})
/** The newest text message of the chat (service messages, as joins and removals, are skipped). */
const lastText = async (chat_id: number) => {
	// As TDLib's, the first history call on a chat not yet fetched holds its last message alone.
	await m.td({ _: 'getChatHistory', chat_id, from_message_id: 0, offset: 0, limit: 1, only_local: false })
	const history = await m.td({
		_: 'getChatHistory',
		chat_id,
		from_message_id: 0,
		offset: 0,
		limit: 100,
		only_local: false,
	})
	for (const message of history.messages) {
		if (message?.content._ === 'messageText') return message.content.text.text
	}
	return undefined
}

describe('add_chat_member', () => {
	it('adds a user and answers TDLib’s failedToAddMembers', async () => {
		const { chatId } = await m.supergroup()
		const reply = await m.run('add_chat_member', { chat_id: chatId, user_id: U.dave })
		expect(reply.payload).toMatchObject({ type: 'add_chat_member', result: NONE })
		expect(await m.statusOf(chatId, U.dave)).toBe('chatMemberStatusMember')
		// forward_limit goes to TDLib as it is (basic groups only); a negative one is TDLib's to refuse.
		const basic = await m.basicGroup([U.alice])
		const withHistory = await m.run('add_chat_member', { chat_id: basic, user_id: U.dave, forward_limit: 5 })
		expect(withHistory.payload).toMatchObject({ type: 'add_chat_member', result: NONE })
		expect(await m.errorOf('add_chat_member', { chat_id: basic, user_id: U.carol, forward_limit: -1 })).toBe(
			"Can't forward negative number of messages",
		)
	})

	it('is an error carrying the partial result when TDLib could not add the user', async () => {
		const { chatId } = await m.supergroup()
		const reply = await m.run('add_chat_member', { chat_id: chatId, user_id: U.eve })
		expect(reply.payload).toMatchObject({
			type: 'add_chat_member_error',
			error: 'failed to add user 1005',
			result: { _: 'failedToAddMembers', failed_to_add_members: [failedFor(U.eve)] },
		})
		expect(await m.statusOf(chatId, U.eve)).toBe('chatMemberStatusLeft')
	})

	it('passes TDLib errors through with the partial result', async () => {
		const reply = await m.run('add_chat_member', { chat_id: U.alice, user_id: U.dave })
		expect(reply.payload).toMatchObject({
			type: 'add_chat_member_error',
			error: "Can't add members to a private chat",
			result: { _: 'failedToAddMembers', failed_to_add_members: [], remaining_user_ids: [U.dave] },
		})
		// Team Chat lets only its administrators add members, and Dave is none.
		const denied = await m.run(
			'add_chat_member',
			{ chat_id: SEED_CHATS.basicGroup, user_id: U.eve },
			m.daveBot,
		)
		expect(denied.payload).toMatchObject({
			type: 'add_chat_member_error',
			error: 'Not enough rights to invite members to the group chat',
			result: { remaining_user_ids: [U.eve] },
		})
	})

	it('answers chat_id is required and user_id is required, each on its own', async () => {
		expect(await m.errorOf('add_chat_member', { user_id: U.dave })).toBe('chat_id is required')
		expect(await m.errorOf('add_chat_member', { chat_id: SEED_CHATS.supergroup })).toBe('user_id is required')
		expect(await m.errorOf('add_chat_member', {})).toBe('chat_id is required')
		const noResult = await m.run('add_chat_member', { chat_id: SEED_CHATS.supergroup })
		expect(noResult.payload.result).toBeUndefined()
		expect(await m.errorOf('add_chat_member', { chat_id: 1, user_id: 'dave' })).toBe(
			'user_id must be an integer',
		)
	})
})

describe('add_chat_members', () => {
	it('adds many to a supergroup and merges TDLib’s failures', async () => {
		const { chatId } = await m.supergroup()
		const reply = await m.run('add_chat_members', {
			chat_id: chatId,
			user_ids: [U.alice, U.eve, U.dave, U.alice],
		})
		expect(reply.payload).toMatchObject({
			type: 'add_chat_members',
			result: { _: 'failedToAddMembers', failed_to_add_members: [failedFor(U.eve)] },
		})
		expect(await m.statusOf(chatId, U.alice)).toBe('chatMemberStatusMember')
		expect(await m.statusOf(chatId, U.dave)).toBe('chatMemberStatusMember')
	})

	it('adds to a basic group one user a call', async () => {
		const chatId = await m.basicGroup([])
		const reply = await m.run('add_chat_members', { chat_id: chatId, user_ids: [U.alice, U.eve, U.dave] })
		expect(reply.payload).toMatchObject({
			type: 'add_chat_members',
			result: { failed_to_add_members: [failedFor(U.eve)] },
		})
		expect(await m.statusOf(chatId, U.dave)).toBe('chatMemberStatusMember')
	})

	it('stops at the first TDLib error, with what went through and who remains', async () => {
		const chatId = await m.basicGroup([])
		const reply = await m.run('add_chat_members', {
			chat_id: chatId,
			user_ids: [U.eve, U.dave, 999, U.carol],
		})
		expect(reply.payload).toEqual({
			userbot_id: f.userbotId,
			type: 'add_chat_members_error',
			error: 'User not found',
			result: {
				_: 'failedToAddMembers',
				failed_to_add_members: [failedFor(U.eve)],
				remaining_user_ids: [999, U.carol],
			},
			request_id: reply.payload.request_id!,
		})
		expect(await m.statusOf(chatId, U.dave)).toBe('chatMemberStatusMember')
		expect(await m.statusOf(chatId, U.carol)).toBe('chatMemberStatusLeft')
		const privateChat = await m.run('add_chat_members', { chat_id: U.alice, user_ids: [U.dave] })
		expect(privateChat.payload).toMatchObject({
			error: "Can't add members to a private chat",
			result: { failed_to_add_members: [], remaining_user_ids: [U.dave] },
		})
	})

	it('answers its strings of the error table and list checks', async () => {
		const error = (fields: Record<string, unknown>) => m.errorOf('add_chat_members', fields)
		expect(await error({ user_ids: [U.dave] })).toBe('chat_id is required')
		expect(await error({ chat_id: SEED_CHATS.supergroup, user_ids: U.dave })).toBe('user_ids must be a list')
		expect(await error({ chat_id: SEED_CHATS.supergroup, user_ids: '1004,1005' })).toBe(
			'user_ids must be a list',
		)
		expect(await error({ chat_id: SEED_CHATS.supergroup })).toBe('user_ids is required')
		expect(await error({ chat_id: SEED_CHATS.supergroup, user_ids: [] })).toBe(
			'user_ids must contain at least one user id',
		)
		expect(await error({ chat_id: SEED_CHATS.supergroup, user_ids: [U.dave, 'x'] })).toBe(
			'user_ids must be a list of integers',
		)
		expect(
			await error({ chat_id: SEED_CHATS.supergroup, user_ids: Array.from({ length: 101 }, (_, i) => i + 1) }),
		).toBe('user_ids must contain at most 100 user ids')
	})
})

describe('remove_chat_member', () => {
	it('kicks from a supergroup, deleting the messages when asked; the user may come back', async () => {
		const { chatId } = await m.supergroup([U.alice, U.dave])
		await m.say(m.daveBot, chatId, 'from dave')
		const kept = await m.run('remove_chat_member', { chat_id: chatId, user_id: U.dave })
		expect(kept.payload).toMatchObject({ type: 'remove_chat_member', result: { _: 'ok' } })
		expect(await m.statusOf(chatId, U.dave)).toBe('chatMemberStatusLeft')
		expect(await lastText(chatId)).toBe('from dave')

		expect((await m.run('add_chat_member', { chat_id: chatId, user_id: U.dave })).payload.type).toBe(
			'add_chat_member',
		)
		await m.say(m.aliceBot, chatId, 'from alice')
		await m.say(m.daveBot, chatId, 'from dave again')
		const revoked = await m.run('remove_chat_member', {
			chat_id: chatId,
			user_id: U.dave,
			revoke_messages: true,
		})
		expect(revoked.payload).toMatchObject({ type: 'remove_chat_member', result: { _: 'ok' } })
		expect(await m.statusOf(chatId, U.dave)).toBe('chatMemberStatusLeft')
		expect(await lastText(chatId)).toBe('from alice')
	})

	it('kicks from a basic group with banChatMember, deleting the messages when asked', async () => {
		const chatId = await m.basicGroup([U.dave])
		await m.say(m.daveBot, chatId, 'basic dave')
		const reply = await m.run('remove_chat_member', {
			chat_id: chatId,
			user_id: U.dave,
			revoke_messages: true,
		})
		expect(reply.payload).toMatchObject({ type: 'remove_chat_member', result: { _: 'ok' } })
		expect(await m.statusOf(chatId, U.dave)).toBe('chatMemberStatusLeft')
		expect(await lastText(chatId)).toBeUndefined()
	})

	it('kicks from a channel, where a subscriber has no messages of their own to delete', async () => {
		const { chatId } = await m.supergroup([U.alice], true)
		const reply = await m.run('remove_chat_member', {
			chat_id: chatId,
			user_id: U.alice,
			revoke_messages: true,
		})
		expect(reply.payload).toMatchObject({ type: 'remove_chat_member', result: { _: 'ok' } })
		expect(await m.statusOf(chatId, U.alice)).toBe('chatMemberStatusLeft')
	})

	it('says so when the kick went through and the deletion did not', async () => {
		const { chatId } = await m.supergroup([U.alice, U.dave])
		await m.td({
			_: 'setChatMemberStatus',
			chat_id: chatId,
			member_id: user(U.alice),
			status: {
				_: 'chatMemberStatusAdministrator',
				rights: { _: 'chatAdministratorRights', can_restrict_members: true },
			},
		})
		const reply = await m.run(
			'remove_chat_member',
			{ chat_id: chatId, user_id: U.dave, revoke_messages: true },
			m.aliceBot,
		)
		expect(reply.payload).toMatchObject({
			type: 'remove_chat_member_error',
			error:
				'member removed, but their messages were not deleted: Need delete messages administrator right in the supergroup chat',
			result: { _: 'ok' },
		})
		expect(await m.statusOf(chatId, U.dave)).toBe('chatMemberStatusLeft')
	})

	it('passes TDLib’s rights errors through and answers its own', async () => {
		const { chatId } = await m.supergroup([U.alice, U.dave])
		expect(await m.errorOf('remove_chat_member', { chat_id: chatId, user_id: U.alice }, m.daveBot)).toBe(
			'Not enough rights to restrict/unrestrict chat member',
		)
		expect(await m.errorOf('remove_chat_member', { chat_id: chatId, user_id: U.bob })).toBe(
			"Can't remove chat owner",
		)
		expect(await m.errorOf('remove_chat_member', { chat_id: U.alice, user_id: U.alice })).toBe(
			"Can't ban members in private chats",
		)
		expect(await m.errorOf('remove_chat_member', { user_id: U.dave })).toBe('chat_id is required')
		expect(await m.errorOf('remove_chat_member', { chat_id: chatId })).toBe('user_id is required')
		expect(
			await m.errorOf('remove_chat_member', { chat_id: chatId, user_id: U.dave, revoke_messages: 1 }),
		).toBe('revoke_messages must be a boolean')
	})
})

describe('restore_chat_member', () => {
	const ban = (chat_id: number, userId: number) =>
		m.td({
			_: 'banChatMember',
			chat_id,
			member_id: user(userId),
			banned_until_date: 0,
			revoke_messages: false,
		})

	it('unbans and adds back a banned user, and adds back one who was kicked', async () => {
		const { chatId } = await m.supergroup([U.alice, U.dave])
		await ban(chatId, U.dave)
		expect(await m.statusOf(chatId, U.dave)).toBe('chatMemberStatusBanned')
		const reply = await m.run('restore_chat_member', { chat_id: chatId, user_id: U.dave })
		expect(reply.payload).toMatchObject({ type: 'restore_chat_member', result: { _: 'ok' } })
		expect(await m.statusOf(chatId, U.dave)).toBe('chatMemberStatusMember')

		await m.run('remove_chat_member', { chat_id: chatId, user_id: U.alice })
		expect((await m.run('restore_chat_member', { chat_id: chatId, user_id: U.alice })).payload.type).toBe(
			'restore_chat_member',
		)
		expect(await m.statusOf(chatId, U.alice)).toBe('chatMemberStatusMember')
	})

	it('passes TDLib’s errors through: privacy on the re-add, rights', async () => {
		const { chatId } = await m.supergroup([U.alice, U.dave])
		await ban(chatId, U.eve)
		expect(await m.errorOf('restore_chat_member', { chat_id: chatId, user_id: U.eve })).toBe(
			'USER_PRIVACY_RESTRICTED',
		)
		// The unban went through before the add failed, as TDLib does it in two steps.
		expect(await m.statusOf(chatId, U.eve)).toBe('chatMemberStatusLeft')
		await ban(chatId, U.carol)
		expect(await m.errorOf('restore_chat_member', { chat_id: chatId, user_id: U.carol }, m.daveBot)).toBe(
			'Not enough rights to restrict/unrestrict chat member',
		)
		expect(await m.errorOf('restore_chat_member', { user_id: U.dave })).toBe('chat_id is required')
		expect(await m.errorOf('restore_chat_member', { chat_id: chatId })).toBe('user_id is required')
	})
})

describe('members over the same world', () => {
	it('shows one userbot’s change to another', async () => {
		const { chatId } = await m.supergroup([U.alice])
		await m.run('add_chat_member', { chat_id: chatId, user_id: U.dave })
		const seen = await m.run('get_chat_members', { chat_id: chatId }, m.daveBot)
		expect((seen.payload.result as Td.chatMembers).total_count).toBe(3)
	})
})
