import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type * as Td from 'tdlib-types'
import { SEED_CHATS } from '../../../src/emulator'
import { createMessagingFixture, type MessagingFixture, type WsClient } from '../../helpers-ws'
import { emulate, runner } from './support'

/**
 * Setting privacy over the real WebSocket, gateway and supervisor, on the emulator (the fixture's
 * userbot is Bob, 1002).
 */
let f: MessagingFixture
let c: WsClient
let r: ReturnType<typeof runner>

beforeAll(async () => {
	f = await createMessagingFixture()
	c = await f.connect()
	r = runner(f, c)
})
afterAll(() => f.stop())

const failNext = (method: string, message: string, code = 429) =>
	emulate(f.t, f.userbotId, { _: 'emulatorFailNext', method, code, message })

const rules = async (setting: unknown) =>
	((await r.ok('get_privacy_setting', { setting })) as Td.userPrivacySettingRules).rules
const newChat = async () =>
	(await r.ok('get_privacy_setting', { setting: 'newChatPrivacySettings' })) as Td.newChatPrivacySettings
const UNSUPPORTED = 'unsupported privacy setting'

describe('set_privacy_setting', () => {
	const set = (fields: Record<string, unknown>) => r.ok('set_privacy_setting', fields)

	it('sets a mode with its exceptions, exceptions first', async () => {
		expect(
			await set({
				setting: 'userPrivacySettingShowStatus',
				mode: 'all',
				restrict_user_ids: [1001],
				restrict_chat_ids: [SEED_CHATS.supergroup],
				allow_user_ids: [1003],
			}),
		).toEqual({ _: 'ok' })
		expect(await rules('userPrivacySettingShowStatus')).toEqual([
			{ _: 'userPrivacySettingRuleRestrictUsers', user_ids: [1001] },
			{ _: 'userPrivacySettingRuleRestrictChatMembers', chat_ids: [SEED_CHATS.supergroup] },
			{ _: 'userPrivacySettingRuleAllowAll' },
		])
		await set({
			setting: { '@type': 'userPrivacySettingAllowChatInvites' },
			mode: 'contacts',
			allow_user_ids: [1003, 1004],
			restrict_user_ids: [1004],
			allow_chat_ids: [SEED_CHATS.basicGroup],
			allow_premium_users: true,
		})
		expect(await rules('userPrivacySettingAllowChatInvites')).toEqual([
			{ _: 'userPrivacySettingRuleRestrictUsers', user_ids: [1004] },
			{ _: 'userPrivacySettingRuleAllowUsers', user_ids: [1003, 1004] },
			{ _: 'userPrivacySettingRuleAllowChatMembers', chat_ids: [SEED_CHATS.basicGroup] },
			{ _: 'userPrivacySettingRuleAllowPremiumUsers' },
			{ _: 'userPrivacySettingRuleAllowContacts' },
		])
		// "nobody" ends in restrictAll, which TDLib leaves out of what it reads back.
		await set({ setting: 'userPrivacySettingAllowCalls', mode: 'nobody', allow_user_ids: [1001] })
		expect(await rules('userPrivacySettingAllowCalls')).toEqual([
			{ _: 'userPrivacySettingRuleAllowUsers', user_ids: [1001] },
		])
		await set({ setting: 'userPrivacySettingShowBio', mode: 'nobody' })
		expect(await rules('userPrivacySettingShowBio')).toEqual([])
	})

	it('sets raw rules, as an object or a list, before any mode', async () => {
		await set({
			setting: 'userPrivacySettingShowProfilePhoto',
			mode: 'all',
			rules: {
				'@type': 'userPrivacySettingRules',
				rules: [
					{ '@type': 'userPrivacySettingRuleRestrictContacts' },
					{ '@type': 'userPrivacySettingRuleAllowAll' },
				],
			},
		})
		expect(await rules('userPrivacySettingShowProfilePhoto')).toEqual([
			{ _: 'userPrivacySettingRuleRestrictContacts' },
			{ _: 'userPrivacySettingRuleAllowAll' },
		])
		await set({
			setting: 'userPrivacySettingShowProfilePhoto',
			mode: 'everyone, really',
			rules: [{ _: 'userPrivacySettingRuleAllowUsers', user_ids: [1001, '1003'] }],
		})
		expect(await rules('userPrivacySettingShowProfilePhoto')).toEqual([
			{ _: 'userPrivacySettingRuleAllowUsers', user_ids: [1001, 1003] },
		])
		await set({ setting: 'userPrivacySettingShowProfilePhoto', rules: { rules: [] } })
		expect(await rules('userPrivacySettingShowProfilePhoto')).toEqual([])
	})

	it('sets new-chat privacy without resetting the price of messages from strangers', async () => {
		// A price set elsewhere (another app): allowing keeps it, refusing clears it.
		await f.t.ctx.runtime!.invoke(f.userbotId, {
			_: 'setNewChatPrivacySettings',
			settings: {
				_: 'newChatPrivacySettings',
				allow_new_chats_from_unknown_users: true,
				incoming_paid_message_star_count: 25,
			},
		})
		const newChatSetting = { setting: 'newChatPrivacySettings', mode: 'nobody', rules: [] }
		expect(await set({ ...newChatSetting, allow_new_chats_from_unknown_users: true })).toEqual({ _: 'ok' })
		expect(await newChat()).toMatchObject({
			allow_new_chats_from_unknown_users: true,
			incoming_paid_message_star_count: 25,
		})
		await set({ ...newChatSetting, allow_new_chats_from_unknown_users: false })
		expect(await newChat()).toMatchObject({
			allow_new_chats_from_unknown_users: false,
			incoming_paid_message_star_count: 0,
		})
		await set({ setting: { _: 'newChatPrivacySettings' }, allow_new_chats_from_unknown_users: true })
		expect(await newChat()).toMatchObject({ allow_new_chats_from_unknown_users: true })
	})

	it('answers its validation errors', async () => {
		const status = 'userPrivacySettingShowStatus'
		const errorOf = (fields: Record<string, unknown>) => r.errorOf('set_privacy_setting', fields)
		expect(await errorOf({ mode: 'all' })).toBe('setting is required')
		expect(await errorOf({ setting: 'userPrivacySettingShowEverything', mode: 'all' })).toBe(UNSUPPORTED)
		expect(await errorOf({ setting: { '@type': 'blockListMain' }, mode: 'all' })).toBe(UNSUPPORTED)
		expect(await errorOf({ setting: status })).toBe('mode must be one of: all, contacts, nobody')
		expect(await errorOf({ setting: status, mode: 'everyone' })).toBe(
			'mode must be one of: all, contacts, nobody',
		)
		expect(await errorOf({ setting: status, mode: 'ALL' })).toBe('mode must be one of: all, contacts, nobody')
		expect(await errorOf({ setting: status, allow_new_chats_from_unknown_users: true })).toBe(
			'mode must be one of: all, contacts, nobody',
		)
		expect(await errorOf({ setting: 'newChatPrivacySettings', mode: 'all' })).toBe(
			'allow_new_chats_from_unknown_users is required',
		)
		expect(
			await errorOf({ setting: 'newChatPrivacySettings', allow_new_chats_from_unknown_users: 'yes' }),
		).toBe('allow_new_chats_from_unknown_users must be a boolean')
		expect(await errorOf({ setting: status, mode: 'all', allow_user_ids: 1001 })).toBe(
			'allow_user_ids must be a list of integers',
		)
		expect(await errorOf({ setting: status, mode: 'all', restrict_chat_ids: ['x'] })).toBe(
			'restrict_chat_ids must be a list of integers',
		)
		expect(await errorOf({ setting: status, mode: 'all', allow_premium_users: 1 })).toBe(
			'allow_premium_users must be a boolean',
		)
		expect(await errorOf({ setting: status, rules: 'all' })).toBe(
			'rules must be a userPrivacySettingRules object or a list of rules',
		)
		expect(
			await errorOf({ setting: status, rules: [{ '@type': 'userPrivacySettingRuleAllowEveryone' }] }),
		).toBe('rules[0]: unknown TDLib type')
		expect(await errorOf({ setting: status, rules: [{ '@type': 'userPrivacySettingShowBio' }] })).toBe(
			'rules[0]: userPrivacySettingShowBio is not allowed here',
		)
		expect(await errorOf({ setting: status, rules: [null] })).toBe('rules[0] must be an object')
		expect(
			await errorOf({
				setting: status,
				rules: { rules: [{ _: 'userPrivacySettingRuleAllowUsers', user_ids: 'me' }] },
			}),
		).toBe('rules.rules[0].user_ids must be a list')
		expect(
			await errorOf({ setting: status, rules: Array(101).fill({ _: 'userPrivacySettingRuleAllowAll' }) }),
		).toBe('rules must contain at most 100 rules')
	})

	it("refuses more ids than TDLib's limits: 1000 users and 20 chats across all rules", async () => {
		const status = 'userPrivacySettingShowStatus'
		const ids = (n: number, from = 1) => Array.from({ length: n }, (_, i) => from + i)
		const users = 'privacy rules may name at most 1000 user ids in all'
		const chats = 'privacy rules may name at most 20 chat ids in all'
		const errorOf = (fields: Record<string, unknown>) => r.errorOf('set_privacy_setting', fields)
		expect(await errorOf({ setting: status, mode: 'contacts', allow_user_ids: ids(1001) })).toBe(users)
		expect(
			await errorOf({
				setting: status,
				mode: 'contacts',
				allow_user_ids: ids(600),
				restrict_user_ids: ids(401),
			}),
		).toBe(users)
		expect(
			await errorOf({
				setting: status,
				mode: 'contacts',
				allow_chat_ids: ids(10),
				restrict_chat_ids: ids(11),
			}),
		).toBe(chats)
		expect(
			await errorOf({
				setting: status,
				rules: [
					{ _: 'userPrivacySettingRuleAllowUsers', user_ids: ids(500) },
					{ _: 'userPrivacySettingRuleRestrictUsers', user_ids: ids(501) },
				],
			}),
		).toBe(users)
		expect(
			await errorOf({
				setting: status,
				rules: [{ _: 'userPrivacySettingRuleAllowChatMembers', chat_ids: ids(21) }],
			}),
		).toBe(chats)
		// At the limits: accepted (the ids TDLib cannot see are its to drop).
		expect(
			await set({
				setting: status,
				mode: 'contacts',
				allow_user_ids: ids(500),
				restrict_user_ids: ids(500, 501),
			}),
		).toEqual({ _: 'ok' })
	})

	it("passes TDLib's errors through", async () => {
		await failNext('setNewChatPrivacySettings', 'PREMIUM_ACCOUNT_REQUIRED', 400)
		expect(
			await r.errorOf('set_privacy_setting', {
				setting: 'newChatPrivacySettings',
				allow_new_chats_from_unknown_users: false,
			}),
		).toBe('PREMIUM_ACCOUNT_REQUIRED')
		await failNext('setUserPrivacySettingRules', 'Too Many Requests: retry after 9')
		expect(
			await r.errorOf('set_privacy_setting', { setting: 'userPrivacySettingShowBio', mode: 'all' }),
		).toBe('Too Many Requests: retry after 9')
	})
})
