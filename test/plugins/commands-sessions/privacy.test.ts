import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type * as Td from 'tdlib-types'
import { createMessagingFixture, type MessagingFixture, type WsClient } from '../../helpers-ws'
import { emulate, runner } from './support'

/**
 * Reading privacy settings over the real WebSocket, gateway and supervisor, on the emulator (the
 * fixture's userbot is Bob, 1002).
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
const UNSUPPORTED = 'unsupported privacy setting'

describe('get_privacy_setting', () => {
	it("answers TDLib's rules for a setting named or given as an object", async () => {
		expect(await r.ok('get_privacy_setting', { setting: 'userPrivacySettingShowStatus' })).toEqual({
			_: 'userPrivacySettingRules',
			rules: [{ _: 'userPrivacySettingRuleAllowAll' }],
		})
		expect(await rules({ '@type': 'userPrivacySettingShowPhoneNumber' })).toEqual([
			{ _: 'userPrivacySettingRuleAllowContacts' },
		])
		expect(await rules({ _: 'userPrivacySettingAllowCalls' })).toEqual([
			{ _: 'userPrivacySettingRuleAllowAll' },
		])
		expect(await r.ok('get_privacy_setting', { setting: { '@type': 'newChatPrivacySettings' } })).toEqual({
			_: 'newChatPrivacySettings',
			allow_new_chats_from_unknown_users: true,
			incoming_paid_message_star_count: 0,
		})
	})

	it('answers its validation errors', async () => {
		expect(await r.errorOf('get_privacy_setting')).toBe('setting is required')
		for (const setting of [
			'userPrivacySettingShowEverything',
			'showStatus',
			'blockListMain',
			5,
			['userPrivacySettingShowStatus'],
			{ '@type': 'blockListMain' },
			{ '@type': 'userPrivacySettingShowStatus', extra: 1 },
			{ '@type': 'newChatPrivacySettings', allow_new_chats_from_unknown_users: false },
			{ '@type': 'userPrivacySettingShowBio', _: 'newChatPrivacySettings' },
			{ description: 'no type' },
		]) {
			expect(await r.errorOf('get_privacy_setting', { setting })).toBe(UNSUPPORTED)
		}
	})

	it("passes TDLib's error through", async () => {
		await failNext('getUserPrivacySettingRules', 'Too Many Requests: retry after 4')
		expect(await r.errorOf('get_privacy_setting', { setting: 'userPrivacySettingShowBio' })).toBe(
			'Too Many Requests: retry after 4',
		)
	})
})

describe('get_privacy_settings', () => {
	it('reads every setting when none is named, keyed by name in TDLib order', async () => {
		const result = (await r.ok('get_privacy_settings')) as Record<string, unknown>
		expect(Object.keys(result)).toEqual([
			'userPrivacySettingShowStatus',
			'userPrivacySettingShowProfilePhoto',
			'userPrivacySettingShowLinkInForwardedMessages',
			'userPrivacySettingShowPhoneNumber',
			'userPrivacySettingShowBio',
			'userPrivacySettingShowBirthdate',
			'userPrivacySettingShowProfileAudio',
			'userPrivacySettingAllowChatInvites',
			'userPrivacySettingAllowCalls',
			'userPrivacySettingAllowPeerToPeerCalls',
			'userPrivacySettingAllowFindingByPhoneNumber',
			'userPrivacySettingAllowPrivateVoiceAndVideoNoteMessages',
			'userPrivacySettingAutosaveGifts',
			'userPrivacySettingAllowUnpaidMessages',
			'newChatPrivacySettings',
		])
		expect(result.userPrivacySettingShowBirthdate).toEqual({
			_: 'userPrivacySettingRules',
			rules: [{ _: 'userPrivacySettingRuleAllowContacts' }],
		})
		expect(result.newChatPrivacySettings).toMatchObject({ _: 'newChatPrivacySettings' })
		expect(await r.ok('get_privacy_settings', { settings: null })).toEqual(result)
	})

	it('reads the settings named, once each, in the order named; one string is a list of one', async () => {
		expect(await r.ok('get_privacy_settings', { settings: 'userPrivacySettingShowBio' })).toEqual({
			userPrivacySettingShowBio: {
				_: 'userPrivacySettingRules',
				rules: [{ _: 'userPrivacySettingRuleAllowAll' }],
			},
		})
		const result = (await r.ok('get_privacy_settings', {
			settings: [
				'newChatPrivacySettings',
				{ '@type': 'userPrivacySettingShowPhoneNumber' },
				'newChatPrivacySettings',
				{ _: 'userPrivacySettingShowStatus' },
			],
		})) as Record<string, unknown>
		expect(Object.keys(result)).toEqual([
			'newChatPrivacySettings',
			'userPrivacySettingShowPhoneNumber',
			'userPrivacySettingShowStatus',
		])
		expect(await r.ok('get_privacy_settings', { settings: [] })).toEqual({})
	})

	it('answers its validation errors', async () => {
		for (const settings of [5, true, { '@type': 'userPrivacySettingShowBio' }]) {
			expect(await r.errorOf('get_privacy_settings', { settings })).toBe('settings must be a list or string')
		}
		// A setting it cannot retrieve: the error table's string for this command (unsupported... is the
		// others').
		const FAILED = 'failed to get privacy settings'
		expect(await r.errorOf('get_privacy_settings', { settings: 'userPrivacySettingShowEverything' })).toBe(
			FAILED,
		)
		expect(
			await r.errorOf('get_privacy_settings', {
				settings: ['userPrivacySettingShowBio', { '@type': 'nope' }],
			}),
		).toBe(FAILED)
		expect(
			await r.errorOf('get_privacy_settings', { settings: Array(101).fill('userPrivacySettingShowBio') }),
		).toBe('settings must contain at most 100 settings')
	})

	it("keeps the spec's string when TDLib refuses one, with TDLib's message and what was read in result", async () => {
		await failNext('getUserPrivacySettingRules', 'Too Many Requests: retry after 5')
		const payload = await r.run('get_privacy_settings', {
			settings: ['userPrivacySettingShowBio', 'userPrivacySettingShowStatus', 'newChatPrivacySettings'],
		})
		expect(payload.type).toBe('get_privacy_settings_error')
		expect(payload.error).toBe('failed to get privacy settings')
		expect(payload.result).toEqual({
			results: {
				userPrivacySettingShowStatus: {
					_: 'userPrivacySettingRules',
					rules: [{ _: 'userPrivacySettingRuleAllowAll' }],
				},
				newChatPrivacySettings: {
					_: 'newChatPrivacySettings',
					allow_new_chats_from_unknown_users: true,
					incoming_paid_message_star_count: 0,
				},
			},
			errors: { userPrivacySettingShowBio: 'Too Many Requests: retry after 5' },
		})
		// A code-406 message, which TDLib says must not be shown, is not shown here either.
		await failNext('getNewChatPrivacySettings', 'SOMETHING_INTERNAL', 406)
		expect((await r.run('get_privacy_settings', { settings: 'newChatPrivacySettings' })).result).toEqual({
			results: {},
			errors: { newChatPrivacySettings: 'request failed' },
		})
	})
})
