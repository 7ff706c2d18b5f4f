import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type * as Td from 'tdlib-types'
import { SEED_CHATS } from '../../src/emulator'
import { TdError } from '../../src/runtime/telegram/types'
import { login, startRuntime, type TestRuntime } from '../supervisor/helpers'

/**
 * A user's private chat, as TDLib on a user account knows it: not at all until the client opens it
 * (`createPrivateChat`, `searchPublicChat`, a public search) or a message is in it ("Chat not found"
 * before, whatever the user's username); the other side knows it from the first message on.
 */
const ALICE = 1
const BOB = 2
const DAVE = 4
const EVE = 5
const text = (t: string): Td.inputMessageText$Input => ({
	_: 'inputMessageText',
	text: { _: 'formattedText', text: t },
})

const tdError = async (p: Promise<unknown>) => {
	try {
		await p
	} catch (err) {
		expect(err).toBeInstanceOf(TdError)
		return `${(err as TdError).code} ${(err as TdError).message}`
	}
	throw new Error('expected a TdError')
}

describe('emulator private chats', () => {
	let t: TestRuntime
	beforeAll(async () => {
		t = await startRuntime()
		await login(t.rt, ALICE, '9996611111')
		await login(t.rt, BOB, '9996621234')
		await login(t.rt, DAVE, '9996614444')
		await login(t.rt, EVE, '9996625555')
	})
	afterAll(() => t.stop())
	const invoke: TestRuntime['rt']['invoke'] = (id, req, opts) => t.rt.invoke(id, req, opts)
	const chatIds = async (id: number) => (await invoke(id, { _: 'getChats', limit: 100 })).chat_ids

	it('a user with a username is "Chat not found" until createPrivateChat; the other side until a message', async () => {
		expect(await tdError(invoke(BOB, { _: 'getChat', chat_id: 1004 }))).toBe('400 Chat not found')
		expect(
			await tdError(invoke(BOB, { _: 'sendMessage', chat_id: 1004, input_message_content: text('x') })),
		).toBe('400 Chat not found')
		const opened = await invoke(BOB, { _: 'createPrivateChat', user_id: 1004, force: false })
		expect(opened).toMatchObject({ id: 1004, type: { _: 'chatTypePrivate', user_id: 1004 } })
		expect((await invoke(BOB, { _: 'getChat', chat_id: 1004 })).id).toBe(1004)
		// Bob opening it tells Dave nothing.
		expect(await tdError(invoke(DAVE, { _: 'getChat', chat_id: 1002 }))).toBe('400 Chat not found')
		expect(await chatIds(DAVE)).not.toContain(1002)

		await invoke(BOB, { _: 'sendMessage', chat_id: 1004, input_message_content: text('Hi Dave') })
		expect((await invoke(DAVE, { _: 'getChat', chat_id: 1002 })).last_message?.sender_id).toEqual({
			_: 'messageSenderUser',
			user_id: 1002,
		})
		expect(await chatIds(DAVE)).toContain(1002)
	})

	it('searchPublicChat and searchPublicChats open the chats they find', async () => {
		expect(await tdError(invoke(EVE, { _: 'getChat', chat_id: 1004 }))).toBe('400 Chat not found')
		expect((await invoke(EVE, { _: 'searchPublicChat', username: '@dave' })).id).toBe(1004)
		expect((await invoke(EVE, { _: 'getChat', chat_id: 1004 })).id).toBe(1004)

		expect(await tdError(invoke(EVE, { _: 'getChat', chat_id: 1003 }))).toBe('400 Chat not found')
		const found = await invoke(EVE, { _: 'searchPublicChats', query: 'carol' })
		expect(found.chat_ids).toContain(1003)
		expect((await invoke(EVE, { _: 'getChat', chat_id: 1003 })).id).toBe(1003)
		// Opened, not written in: still found by the next search.
		expect((await invoke(EVE, { _: 'searchPublicChats', query: 'carol' })).chat_ids).toContain(1003)
	})

	it('searchUserByPhoneNumber: locally only a contact, else any registered number', async () => {
		const eve = { _: 'searchUserByPhoneNumber', phone_number: '+999 662 5555' } as const
		expect(await tdError(invoke(BOB, { ...eve, only_local: true }))).toBe('404 Not Found')
		expect((await invoke(BOB, { ...eve, only_local: false })).id).toBe(1005)
		await invoke(BOB, {
			_: 'importContacts',
			contacts: [{ _: 'importedContact', phone_number: '9996625555', first_name: 'Eve', last_name: '' }],
		})
		expect(await invoke(BOB, { ...eve, only_local: true })).toMatchObject({ id: 1005, is_contact: true })
		expect(
			await tdError(
				invoke(BOB, { _: 'searchUserByPhoneNumber', phone_number: '15550000000', only_local: false }),
			),
		).toBe('400 PHONE_NOT_OCCUPIED')
	})

	it('sendChatAction: a chat the account knows and may write in', async () => {
		const typing = { _: 'chatActionTyping' } as const
		expect(await invoke(ALICE, { _: 'sendChatAction', chat_id: 1002, action: typing })).toEqual({ _: 'ok' })
		expect(
			await invoke(ALICE, { _: 'sendChatAction', chat_id: SEED_CHATS.supergroup, action: typing }),
		).toEqual({
			_: 'ok',
		})
		// Alice is a plain subscriber of Carol's channel; Dave is in no chat with Eve.
		expect(
			await tdError(invoke(ALICE, { _: 'sendChatAction', chat_id: SEED_CHATS.channel, action: typing })),
		).toBe('400 Have no write access to the chat')
		expect(await tdError(invoke(DAVE, { _: 'sendChatAction', chat_id: 1005, action: typing }))).toBe(
			'400 Chat not found',
		)
	})
})
