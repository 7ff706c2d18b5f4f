import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type * as Td from 'tdlib-types'
import { userbot } from '../../../db/schema'
import { SEED_CHATS } from '../../../src/emulator'
import type { TdMethod, TdRequest, TdResult } from '../../../src/runtime/telegram/types'
import {
	createLoggedInUserbot,
	createMessagingFixture,
	type MessagingFixture,
	type WsClient,
} from '../../helpers-ws'

const U = { alice: 1001, bob: 1002, carol: 1003, dave: 1004, eve: 1005 } as const
const user = (user_id: number): Td.messageSenderUser => ({ _: 'messageSenderUser', user_id })

// The group loads alone: with it, only the account and userbot plugins.
let f: MessagingFixture
let c: WsClient
let aliceBot: number
let daveBot: number
let carolBot: number

/** Carol (9996631111) has a 2FA password: her log-in takes one more step. */
async function logInCarol(): Promise<number> {
	const runtime = f.t.ctx.runtime!
	const [row] = await f.t.ctx.db
		.insert(userbot)
		.values({
			companyId: f.alice.companyId,
			name: 'carol',
			encryptionKey: Buffer.from('carol-key').toString('base64'),
		})
		.returning({ id: userbot.id })
	const id = row!.id
	await runtime.startClient(id, { encryptionKey: Buffer.from(`key-${id}`).toString('base64') })
	await runtime.invoke(id, { _: 'setAuthenticationPhoneNumber', phone_number: '9996631111' })
	await runtime.invoke(id, { _: 'checkAuthenticationCode', code: '33333' })
	await runtime.invoke(id, { _: 'checkAuthenticationPassword', password: 'secret-2fa' })
	const until = Date.now() + 5000
	while (runtime.authorizationState(id) !== 'authorizationStateReady') {
		if (Date.now() > until) throw new Error(`carol: ${runtime.authorizationState(id)}`)
		await Bun.sleep(5)
	}
	return id
}

beforeAll(async () => {
	f = await createMessagingFixture({ PLUGINS: 'accounts,userbots,commands-chat-admin' })
	c = await f.connect()
	aliceBot = await createLoggedInUserbot(f.t, f.alice.companyId, '9996611111')
	daveBot = await createLoggedInUserbot(f.t, f.alice.companyId, '9996614444')
	carolBot = await logInCarol()
})
afterAll(() => f.stop())

const run = (action: string, fields: Record<string, unknown> = {}, bot = f.userbotId) =>
	c.command({ action, userbot_id: bot, ...fields })
async function errorOf(action: string, fields: Record<string, unknown> = {}, bot?: number) {
	const reply = await run(action, fields, bot)
	expect(reply.payload.type).toBe(`${action}_error`)
	return reply.payload.error
}
const td = <M extends TdMethod>(request: TdRequest<M>, bot = f.userbotId) =>
	f.t.ctx.runtime!.invoke(bot, request) as Promise<TdResult<M>>
const memberOf = (chat_id: number, userId: number) =>
	td({ _: 'getChatMember', chat_id, member_id: user(userId) })

/** A fresh supergroup (or channel) owned by `owner` (Bob by default), with `members` added. */
async function supergroup(members: number[], isChannel = false, owner = f.userbotId) {
	const chat = await td({ _: 'createNewSupergroupChat', title: 'Admins', is_channel: isChannel }, owner)
	await td({ _: 'addChatMembers', chat_id: chat.id, user_ids: members }, owner)
	return chat.id
}

describe('commands-chat-admin alone', () => {
	it('serves its commands and no other group’s', async () => {
		expect(await errorOf('get_chat_members', { chat_id: SEED_CHATS.supergroup })).toBe('unknown action')
		expect(await errorOf('transfer_chat_ownership', { chat_id: 1, user_id: 2 })).toBe('password is required')
	})
})

describe('add_chat_administrator', () => {
	it('promotes with least privilege by default', async () => {
		const chatId = await supergroup([U.alice])
		const reply = await run('add_chat_administrator', { chat_id: chatId, user_id: U.alice })
		expect(reply.payload).toMatchObject({ type: 'add_chat_administrator', result: { _: 'ok' } })
		const { status } = await memberOf(chatId, U.alice)
		expect(status).toMatchObject({ _: 'chatMemberStatusAdministrator', can_be_edited: true })
		const rights = (status as Td.chatMemberStatusAdministrator).rights
		expect(Object.entries(rights).filter(([k, v]) => k !== '_' && v)).toEqual([['can_manage_chat', true]])
	})

	it('takes a rights object, a custom title as the member tag, and a top-level is_anonymous that wins', async () => {
		const chatId = await supergroup([U.alice, U.dave])
		const reply = await run('add_chat_administrator', {
			chat_id: chatId,
			user_id: U.alice,
			rights: { can_invite_users: true, can_delete_messages: true, is_anonymous: false },
			is_anonymous: true,
			custom_title: 'Deputy',
		})
		expect(reply.payload).toMatchObject({ type: 'add_chat_administrator', result: { _: 'ok' } })
		const alice = await memberOf(chatId, U.alice)
		expect(alice.tag).toBe('Deputy')
		expect(alice.status).toMatchObject({
			_: 'chatMemberStatusAdministrator',
			rights: {
				can_manage_chat: true,
				can_invite_users: true,
				can_delete_messages: true,
				is_anonymous: true,
			},
		})
		await run('add_chat_administrator', {
			chat_id: chatId,
			user_id: U.dave,
			rights: { '@type': 'chatAdministratorRights', can_pin_messages: true, is_anonymous: true },
			is_anonymous: false,
		})
		expect((await memberOf(chatId, U.dave)).status).toMatchObject({
			rights: { can_pin_messages: true, is_anonymous: false },
		})
	})

	it('promotes in basic groups and channels; a title only in groups, refused before anything changes', async () => {
		const basic = (await td({ _: 'createNewBasicGroupChat', user_ids: [U.dave], title: 'Basic' })).chat_id
		const inBasic = await run('add_chat_administrator', {
			chat_id: basic,
			user_id: U.dave,
			custom_title: 'Chief',
		})
		expect(inBasic.payload).toMatchObject({ type: 'add_chat_administrator', result: { _: 'ok' } })
		expect(await memberOf(basic, U.dave)).toMatchObject({
			tag: 'Chief',
			status: { _: 'chatMemberStatusAdministrator' },
		})

		const channel = await supergroup([U.alice], true)
		expect(
			await errorOf('add_chat_administrator', { chat_id: channel, user_id: U.alice, custom_title: 'Editor' }),
		).toBe('custom_title can be set in groups only, not in channels')
		expect((await memberOf(channel, U.alice)).status._).toBe('chatMemberStatusMember')
		const inChannel = await run('add_chat_administrator', {
			chat_id: channel,
			user_id: U.alice,
			rights: { can_post_messages: true },
		})
		expect(inChannel.payload.type).toBe('add_chat_administrator')
		expect((await memberOf(channel, U.alice)).status).toMatchObject({ rights: { can_post_messages: true } })
	})

	it('says the promotion was applied when the title could not be set', async () => {
		const chatId = await supergroup([U.alice, U.dave])
		// Alice may promote but not manage tags.
		await td({
			_: 'setChatMemberStatus',
			chat_id: chatId,
			member_id: user(U.alice),
			status: {
				_: 'chatMemberStatusAdministrator',
				rights: { _: 'chatAdministratorRights', can_promote_members: true, can_invite_users: true },
			},
		})
		const reply = await run(
			'add_chat_administrator',
			{ chat_id: chatId, user_id: U.dave, rights: { can_invite_users: true }, custom_title: 'Helper' },
			aliceBot,
		)
		expect(reply.payload).toMatchObject({
			type: 'add_chat_administrator_error',
			error: 'administrator promoted, but custom_title was not set: CHAT_ADMIN_REQUIRED',
			result: { _: 'ok' },
		})
		expect(await memberOf(chatId, U.dave)).toMatchObject({
			tag: '',
			status: { _: 'chatMemberStatusAdministrator' },
		})
	})

	it('answers its errors and passes TDLib’s rights errors through', async () => {
		const chatId = await supergroup([U.alice, U.dave])
		const error = (fields: Record<string, unknown>, bot?: number) =>
			errorOf('add_chat_administrator', fields, bot)
		expect(await error({ chat_id: U.alice, user_id: U.alice })).toBe(
			'Adding administrators is supported only for channels/groups',
		)
		// Bob's rights in the seed's channel do not include promoting.
		expect(await error({ chat_id: SEED_CHATS.channel, user_id: U.alice })).toBe('Not enough rights')
		expect(await error({ chat_id: chatId, user_id: U.dave }, aliceBot)).toBe('Not enough rights')
		expect(await error({ chat_id: chatId, user_id: U.bob }, aliceBot)).toBe("Can't remove chat owner")
		expect(await error({ chat_id: chatId, user_id: U.alice, rights: {} })).toBe(
			'rights must grant at least one right that applies to the chat',
		)
		expect(await error({ chat_id: chatId, user_id: U.alice, rights: { can_post_messages: true } })).toBe(
			'rights must grant at least one right that applies to the chat',
		)
		expect((await memberOf(chatId, U.alice)).status._).toBe('chatMemberStatusMember')
		expect(await error({ chat_id: chatId, user_id: U.alice, rights: { can_manage_voice_chats: true } })).toBe(
			'rights: unknown field for chatAdministratorRights',
		)
		expect(await error({ chat_id: chatId, user_id: U.alice, rights: { _: 'chatPermissions' } })).toBe(
			'rights: chatPermissions is not allowed here',
		)
		expect(await error({ chat_id: chatId, user_id: U.alice, custom_title: 'seventeen letters' })).toBe(
			'custom_title must be at most 16 characters',
		)
		expect(await error({ chat_id: chatId, user_id: U.alice, custom_title: 16 })).toBe(
			'custom_title must be a string',
		)
		expect(await error({ chat_id: chatId, user_id: U.alice, is_anonymous: 'yes' })).toBe(
			'is_anonymous must be a boolean',
		)
		expect(await error({ user_id: U.alice })).toBe('chat_id is required')
		expect(await error({ chat_id: chatId })).toBe('user_id is required')
	})
})

describe('remove_chat_administrator', () => {
	it('demotes an administrator to a member', async () => {
		const chatId = await supergroup([U.alice])
		await run('add_chat_administrator', { chat_id: chatId, user_id: U.alice })
		const reply = await run('remove_chat_administrator', { chat_id: chatId, user_id: U.alice })
		expect(reply.payload).toMatchObject({ type: 'remove_chat_administrator', result: { _: 'ok' } })
		expect((await memberOf(chatId, U.alice)).status._).toBe('chatMemberStatusMember')

		const basic = (await td({ _: 'createNewBasicGroupChat', user_ids: [U.dave], title: 'Basic' })).chat_id
		await run('add_chat_administrator', { chat_id: basic, user_id: U.dave })
		expect((await run('remove_chat_administrator', { chat_id: basic, user_id: U.dave })).payload.type).toBe(
			'remove_chat_administrator',
		)
		expect((await memberOf(basic, U.dave)).status._).toBe('chatMemberStatusMember')
	})

	it('never adds a user who is not in the chat, and leaves members and the owner alone', async () => {
		const chatId = await supergroup([U.alice])
		expect(await errorOf('remove_chat_administrator', { chat_id: chatId, user_id: U.carol })).toBe(
			'user is not an administrator of the chat',
		)
		expect((await memberOf(chatId, U.carol)).status._).toBe('chatMemberStatusLeft')
		expect(await errorOf('remove_chat_administrator', { chat_id: chatId, user_id: U.alice })).toBe(
			'user is not an administrator of the chat',
		)
		expect(await errorOf('remove_chat_administrator', { chat_id: chatId, user_id: U.bob })).toBe(
			"the chat owner can't be removed from administrators",
		)
	})

	it('answers its errors and passes TDLib’s through', async () => {
		const chatId = await supergroup([U.alice, U.dave])
		await run('add_chat_administrator', { chat_id: chatId, user_id: U.alice })
		expect(await errorOf('remove_chat_administrator', { chat_id: chatId, user_id: U.alice }, daveBot)).toBe(
			'Not enough rights',
		)
		expect(await errorOf('remove_chat_administrator', { chat_id: U.alice, user_id: U.alice })).toBe(
			'Removing administrators is supported only for channels/groups',
		)
		expect(await errorOf('remove_chat_administrator', { chat_id: 424242, user_id: U.alice })).toBe(
			'Chat not found',
		)
		expect(await errorOf('remove_chat_administrator', { user_id: U.alice })).toBe('chat_id is required')
		expect(await errorOf('remove_chat_administrator', { chat_id: chatId })).toBe('user_id is required')
	})
})

describe('transfer_chat_ownership', () => {
	it('hands a chat over, checked against the account’s 2FA password', async () => {
		const chatId = await supergroup([U.bob, U.alice], true, carolBot)
		const transfer = (password: unknown) =>
			run('transfer_chat_ownership', { chat_id: chatId, user_id: U.bob, password }, carolBot)
		expect((await transfer('not-it')).payload).toMatchObject({
			type: 'transfer_chat_ownership_error',
			error: 'PASSWORD_HASH_INVALID',
		})
		const reply = await transfer('secret-2fa')
		expect(reply.payload).toMatchObject({ type: 'transfer_chat_ownership', result: { _: 'ok' } })
		expect((await memberOf(chatId, U.bob)).status._).toBe('chatMemberStatusCreator')
		expect((await memberOf(chatId, U.carol)).status._).toBe('chatMemberStatusAdministrator')
	})

	it('answers its errors and TDLib’s', async () => {
		const chatId = await supergroup([U.alice])
		const error = (fields: Record<string, unknown>) => errorOf('transfer_chat_ownership', fields)
		expect(await error({ chat_id: chatId, user_id: U.alice })).toBe('password is required')
		expect(await error({ chat_id: chatId, user_id: U.alice, password: '' })).toBe('password is required')
		expect(await error({ chat_id: chatId, user_id: U.alice, password: 1234 })).toBe(
			'password must be a string',
		)
		expect(await error({ user_id: U.alice, password: 'x' })).toBe('chat_id is required')
		expect(await error({ chat_id: chatId, password: 'x' })).toBe('user_id is required')
		// Bob's account has no 2FA password.
		expect(await error({ chat_id: chatId, user_id: U.alice, password: 'anything' })).toBe('PASSWORD_MISSING')
		expect(await error({ chat_id: SEED_CHATS.basicGroup, user_id: U.alice, password: 'x' })).toBe(
			"Can't transfer chat ownership",
		)
	})

	it('never puts the password in an error', async () => {
		const reply = await run(
			'transfer_chat_ownership',
			{ chat_id: SEED_CHATS.supergroup, user_id: U.alice, password: 'hunter2-secret' },
			carolBot,
		)
		expect(JSON.stringify(reply)).not.toContain('hunter2-secret')
	})
})
