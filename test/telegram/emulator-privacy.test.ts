import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type * as Td from 'tdlib-types'
import { SEED_CHATS } from '../../src/emulator'
import { TdError } from '../../src/runtime/telegram/types'
import { login, startRuntime, type TestRuntime } from '../supervisor/helpers'

const tdError = async (p: Promise<unknown>) => {
	try {
		await p
	} catch (err) {
		expect(err).toBeInstanceOf(TdError)
		return (err as TdError).message
	}
	throw new Error('expected a TdError')
}

const BOB = 1
const ALICE = 2
const user = (user_id: number): Td.messageSenderUser => ({ _: 'messageSenderUser', user_id })
const MAIN: Td.blockListMain$Input = { _: 'blockListMain' }
const STORIES: Td.blockListStories$Input = { _: 'blockListStories' }

describe('emulator block lists', () => {
	let t: TestRuntime
	beforeAll(async () => {
		t = await startRuntime()
		await login(t.rt, BOB, '9996621234')
		await login(t.rt, ALICE, '9996611111')
	})
	afterAll(() => t.stop())
	const blocked = (id: number, block_list: Td.BlockList$Input = MAIN, offset = 0, limit = 50) =>
		t.rt.invoke(id, { _: 'getBlockedMessageSenders', block_list, offset, limit })

	it('blocks on one list at a time, newest first, and unblocks from both', async () => {
		const set = (user_id: number, block_list?: Td.BlockList$Input) =>
			t.rt.invoke(BOB, { _: 'setMessageSenderBlockList', sender_id: user(user_id), block_list })
		await set(1001, MAIN)
		await set(1003, MAIN)
		await set(1004, STORIES)
		expect(await blocked(BOB)).toEqual({
			_: 'messageSenders',
			total_count: 2,
			senders: [user(1003), user(1001)],
		})
		expect((await blocked(BOB, STORIES)).senders).toEqual([user(1004)])
		// Stories only: off the main list.
		await set(1003, STORIES)
		expect((await blocked(BOB)).senders).toEqual([user(1001)])
		await set(1003)
		await set(1004)
		expect((await blocked(BOB, STORIES)).total_count).toBe(0)
		// Another account's lists are its own.
		expect((await blocked(ALICE)).total_count).toBe(0)
		expect(await blocked(BOB, MAIN, 1, 1)).toEqual({ _: 'messageSenders', total_count: 1, senders: [] })
	})

	it('blocks a channel as a chat sender, not a basic group', async () => {
		await t.rt.invoke(BOB, {
			_: 'setMessageSenderBlockList',
			sender_id: { _: 'messageSenderChat', chat_id: SEED_CHATS.channel },
			block_list: MAIN,
		})
		expect((await blocked(BOB)).senders[0]).toEqual({ _: 'messageSenderChat', chat_id: SEED_CHATS.channel })
		expect(
			await tdError(
				t.rt.invoke(BOB, {
					_: 'setMessageSenderBlockList',
					sender_id: { _: 'messageSenderChat', chat_id: SEED_CHATS.basicGroup },
					block_list: MAIN,
				}),
			),
		).toBe("Basic group chats can't be blocked")
	})

	it("answers TDLib's errors", async () => {
		const set = (sender_id: Td.MessageSender$Input | undefined, block_list?: Td.BlockList$Input) =>
			tdError(t.rt.invoke(BOB, { _: 'setMessageSenderBlockList', sender_id, block_list }))
		expect(await set(user(1002), MAIN)).toBe("Can't block self")
		expect(await set(user(1002))).toBe("Can't unblock self")
		expect(await set(user(424242), MAIN)).toBe('Unknown user identifier specified')
		expect(await set(user(-5), MAIN)).toBe('Invalid user identifier specified')
		expect(await set(undefined, MAIN)).toBe('Message sender must be non-empty')
		expect(await tdError(blocked(BOB, MAIN, -1))).toBe('Parameter offset must be non-negative')
		expect(await tdError(blocked(BOB, MAIN, 0, 0))).toBe('Parameter limit must be positive')
		expect(await tdError(t.rt.invoke(BOB, { _: 'getBlockedMessageSenders', offset: 0, limit: 10 }))).toBe(
			'Block list must be non-empty',
		)
	})
})

describe('emulator privacy settings', () => {
	let t: TestRuntime
	beforeAll(async () => {
		t = await startRuntime()
		await login(t.rt, BOB, '9996621234')
		await login(t.rt, ALICE, '9996611111')
	})
	afterAll(() => t.stop())
	const get = (id: number, name: Td.UserPrivacySetting['_']) =>
		t.rt.invoke(id, { _: 'getUserPrivacySettingRules', setting: { _: name } })
	const setRules = (name: Td.UserPrivacySetting['_'], rules: Td.UserPrivacySettingRule$Input[]) =>
		t.rt.invoke(BOB, {
			_: 'setUserPrivacySettingRules',
			setting: { _: name },
			rules: { _: 'userPrivacySettingRules', rules },
		})

	it("starts from Telegram's defaults", async () => {
		expect(await get(BOB, 'userPrivacySettingShowStatus')).toEqual({
			_: 'userPrivacySettingRules',
			rules: [{ _: 'userPrivacySettingRuleAllowAll' }],
		})
		expect((await get(BOB, 'userPrivacySettingShowPhoneNumber')).rules).toEqual([
			{ _: 'userPrivacySettingRuleAllowContacts' },
		])
		expect(await t.rt.invoke(BOB, { _: 'getNewChatPrivacySettings' })).toEqual({
			_: 'newChatPrivacySettings',
			allow_new_chats_from_unknown_users: true,
			incoming_paid_message_star_count: 0,
		})
	})

	it('keeps rules as TDLib does: no trailing restrictAll, no unknown user, no channel', async () => {
		await setRules('userPrivacySettingAllowCalls', [
			{ _: 'userPrivacySettingRuleAllowUsers', user_ids: [1001, 424242] },
			{
				_: 'userPrivacySettingRuleAllowChatMembers',
				chat_ids: [SEED_CHATS.supergroup, SEED_CHATS.channel, -99],
			},
			{ _: 'userPrivacySettingRuleRestrictAll' },
		])
		expect((await get(BOB, 'userPrivacySettingAllowCalls')).rules).toEqual([
			{ _: 'userPrivacySettingRuleAllowUsers', user_ids: [1001] },
			{ _: 'userPrivacySettingRuleAllowChatMembers', chat_ids: [SEED_CHATS.supergroup] },
		])
		await setRules('userPrivacySettingShowBio', [{ _: 'userPrivacySettingRuleRestrictAll' }])
		expect((await get(BOB, 'userPrivacySettingShowBio')).rules).toEqual([])
		// Another account's settings are its own.
		expect((await get(ALICE, 'userPrivacySettingShowBio')).rules).toEqual([
			{ _: 'userPrivacySettingRuleAllowAll' },
		])
	})

	it('writes both new-chat fields; a price only while new chats are allowed', async () => {
		const set = (settings?: Td.newChatPrivacySettings$Input) =>
			t.rt.invoke(BOB, { _: 'setNewChatPrivacySettings', settings })
		await set({
			_: 'newChatPrivacySettings',
			allow_new_chats_from_unknown_users: true,
			incoming_paid_message_star_count: 25,
		})
		expect(
			(await t.rt.invoke(BOB, { _: 'getNewChatPrivacySettings' })).incoming_paid_message_star_count,
		).toBe(25)
		await set({
			_: 'newChatPrivacySettings',
			allow_new_chats_from_unknown_users: false,
			incoming_paid_message_star_count: 25,
		})
		expect(await t.rt.invoke(BOB, { _: 'getNewChatPrivacySettings' })).toMatchObject({
			allow_new_chats_from_unknown_users: false,
			incoming_paid_message_star_count: 0,
		})
	})

	it("answers TDLib's errors", async () => {
		expect(await tdError(t.rt.invoke(BOB, { _: 'getUserPrivacySettingRules' }))).toBe(
			'UserPrivacySetting must be non-empty',
		)
		expect(
			await tdError(
				t.rt.invoke(BOB, { _: 'setUserPrivacySettingRules', setting: { _: 'userPrivacySettingShowBio' } }),
			),
		).toBe('UserPrivacySettingRules must be non-empty')
	})
})
