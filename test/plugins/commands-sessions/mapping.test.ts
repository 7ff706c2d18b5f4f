import { describe, expect, it } from 'bun:test'
import * as v from 'valibot'
import { sessionsCommands } from '../../../plugins/commands-sessions'
import { constructorsOf } from '../../../src/runtime/telegram/schema'
import { RuntimeError, TdError } from '../../../src/runtime/telegram/types'
import { CommandError } from '../../../src/server/commands/define'
import { type Answer, stubContext } from '../../helpers-stub'

/**
 * The exact TDLib requests each command builds (docs/tdlib-mapping.md#sessions-and-privacy), against a stub
 * that records them: what the emulator cannot show (the current session told by is_current whatever its id,
 * defaults set explicitly, rule order, the fields of a read-modify-write).
 */

async function runCommand(
	name: string,
	frame: Record<string, unknown>,
	answer: Answer = () => ({ _: 'ok' }),
) {
	const command = sessionsCommands.commands.find((c) => c.name === name)!
	const { ctx, requests } = stubContext(answer)
	const input = v.parse(command.input, frame)
	let result: unknown
	let error: unknown
	try {
		result = await command.run(input, ctx)
	} catch (err) {
		error = err
	}
	return { result, error, requests }
}

const session = (id: string, is_current: boolean) => ({ _: 'session', id, is_current })
/** Real Telegram gives the current session id 0; the emulator a random one. Neither is assumed. */
const listing =
	(...sessions: Array<ReturnType<typeof session>>): Answer =>
	(req) =>
		req._ === 'getActiveSessions' ? { _: 'sessions', sessions, inactive_session_ttl_days: 180 } : { _: 'ok' }

describe('sessions mapping onto TDLib 1.8.65', () => {
	it('terminate_session: the current session is the one is_current marks, whatever its id', async () => {
		const big = '9223372036854775807'
		const zeroIsCurrent = await runCommand(
			'terminate_session',
			{ session_id: 0 },
			listing(session('0', true), session(big, false)),
		)
		expect((zeroIsCurrent.error as CommandError).message).toBe(
			"current session can't be terminated via terminate_session",
		)
		expect(zeroIsCurrent.requests).toEqual([{ _: 'getActiveSessions' }])

		const bigIsCurrent = await runCommand(
			'terminate_session',
			{ session_id: '0' },
			listing(session(big, true), session('0', false)),
		)
		expect(bigIsCurrent.requests).toEqual([
			{ _: 'getActiveSessions' },
			{ _: 'terminateSession', session_id: '0' },
		])
		const refused = await runCommand('terminate_session', { session_id: big }, listing(session(big, true)))
		expect(refused.error).toBeInstanceOf(CommandError)
	})

	it('terminate_session: the int64 id goes on as a string, every digit kept', async () => {
		const { requests } = await runCommand(
			'terminate_session',
			{ session_id: '-9223372036854775808' },
			listing(session('1', true)),
		)
		expect(requests[1]).toEqual({ _: 'terminateSession', session_id: '-9223372036854775808' })
		const small = await runCommand('terminate_session', { session_id: 42 }, listing(session('1', true)))
		expect(small.requests[1]).toEqual({ _: 'terminateSession', session_id: '42' })
	})

	it('set_session_settings: one toggle per flag present, calls first', async () => {
		const both = await runCommand('set_session_settings', {
			session_id: '5764607523034234881',
			can_accept_calls: false,
			can_accept_secret_chats: true,
		})
		expect(both.result).toEqual({ _: 'ok' })
		expect(both.requests).toEqual([
			{ _: 'toggleSessionCanAcceptCalls', session_id: '5764607523034234881', can_accept_calls: false },
			{
				_: 'toggleSessionCanAcceptSecretChats',
				session_id: '5764607523034234881',
				can_accept_secret_chats: true,
			},
		])
		const one = await runCommand('set_session_settings', { session_id: 7, can_accept_secret_chats: false })
		expect(one.requests).toEqual([
			{ _: 'toggleSessionCanAcceptSecretChats', session_id: '7', can_accept_secret_chats: false },
		])
	})

	it('set_session_settings: what was applied rides beside the error of the second call', async () => {
		const secondFails: Answer = (req) => {
			if (req._ === 'toggleSessionCanAcceptSecretChats') throw new TdError(400, 'HASH_INVALID')
			return { _: 'ok' }
		}
		const partial = await runCommand(
			'set_session_settings',
			{ session_id: 7, can_accept_calls: true, can_accept_secret_chats: true },
			secondFails,
		)
		expect(partial.error).toBeInstanceOf(CommandError)
		expect(partial.error).toMatchObject({
			message: 'HASH_INVALID',
			result: { applied: { can_accept_calls: true } },
		})
		// The deadline passing on the second call: the same report, in the gateway's word.
		const late = await runCommand(
			'set_session_settings',
			{ session_id: 7, can_accept_calls: false, can_accept_secret_chats: true },
			(req) => {
				if (req._ === 'toggleSessionCanAcceptSecretChats') throw new RuntimeError('timeout', 'deadline')
				return { _: 'ok' }
			},
		)
		expect(late.error).toMatchObject({ message: 'timeout', result: { applied: { can_accept_calls: false } } })
		// Only the second flag, failing: nothing applied, TDLib's error as it came.
		const alone = await runCommand(
			'set_session_settings',
			{ session_id: 7, can_accept_secret_chats: true },
			secondFails,
		)
		expect(alone.error).toBeInstanceOf(TdError)
	})

	it('terminate_all_other_sessions: FRESH_RESET_AUTHORISATION_FORBIDDEN explained, other errors as they came', async () => {
		const fresh = await runCommand('terminate_all_other_sessions', {}, () => {
			throw new TdError(406, 'FRESH_RESET_AUTHORISATION_FORBIDDEN')
		})
		expect(fresh.error).toBeInstanceOf(CommandError)
		expect((fresh.error as Error).message).toStartWith('FRESH_RESET_AUTHORISATION_FORBIDDEN: ')
		const other = await runCommand('terminate_all_other_sessions', {}, () => {
			throw new TdError(406, 'SOMETHING_ELSE')
		})
		expect(other.error).toBeInstanceOf(TdError)
	})

	it('block_user, unblock_user: the block list carries is_blocked, blockListMain by default', async () => {
		const sender = { _: 'messageSenderUser', user_id: 1001 }
		expect((await runCommand('block_user', { user_id: 1001 })).requests).toEqual([
			{ _: 'setMessageSenderBlockList', sender_id: sender, block_list: { _: 'blockListMain' } },
		])
		expect(
			(await runCommand('block_user', { user_id: 1001, block_list: { '@type': 'blockListStories' } }))
				.requests,
		).toEqual([{ _: 'setMessageSenderBlockList', sender_id: sender, block_list: { _: 'blockListStories' } }])
		expect(
			(await runCommand('block_user', { user_id: 1001, is_blocked: false, block_list: 'blockListStories' }))
				.requests,
		).toEqual([{ _: 'setMessageSenderBlockList', sender_id: sender }])
		expect((await runCommand('unblock_user', { user_id: 1001 })).requests).toEqual([
			{ _: 'setMessageSenderBlockList', sender_id: sender },
		])
	})

	it('get_blocked_users: the defaults set explicitly', async () => {
		expect((await runCommand('get_blocked_users', {})).requests).toEqual([
			{ _: 'getBlockedMessageSenders', block_list: { _: 'blockListMain' }, offset: 0, limit: 50 },
		])
		expect(
			(await runCommand('get_blocked_users', { block_list: 'blockListStories', offset: '10', limit: 5 }))
				.requests,
		).toEqual([
			{ _: 'getBlockedMessageSenders', block_list: { _: 'blockListStories' }, offset: 10, limit: 5 },
		])
	})

	it("get_privacy_settings: by default every setting of TDLib's schema, then new-chat privacy", async () => {
		const { requests, result } = await runCommand('get_privacy_settings', {}, (req) => ({
			_: `${req._}-answer`,
		}))
		const settings = constructorsOf('UserPrivacySetting')
		expect(settings).toHaveLength(14)
		expect(requests).toEqual([
			...settings.map((name) => ({ _: 'getUserPrivacySettingRules', setting: { _: name } })),
			{ _: 'getNewChatPrivacySettings' },
		])
		expect(Object.keys(result as object)).toEqual([...settings, 'newChatPrivacySettings'])
	})

	it('get_privacy_settings: a lost runtime is not collapsed into the spec string', async () => {
		const { error } = await runCommand('get_privacy_settings', {}, () => {
			throw new RuntimeError('runtime_down', 'gone')
		})
		expect(error).toBeInstanceOf(RuntimeError)
	})

	it('set_privacy_setting: the rules of each mode, exceptions first', async () => {
		const lists = {
			allow_user_ids: [1, 2],
			restrict_user_ids: [3],
			allow_chat_ids: [-10],
			restrict_chat_ids: [-20],
			allow_premium_users: true,
		}
		const rulesOf = async (mode: string) => {
			const { requests } = await runCommand('set_privacy_setting', {
				setting: 'userPrivacySettingAllowChatInvites',
				mode,
				...lists,
			})
			expect(requests).toHaveLength(1)
			expect(requests[0]).toMatchObject({
				_: 'setUserPrivacySettingRules',
				setting: { _: 'userPrivacySettingAllowChatInvites' },
			})
			const rules = requests[0]!.rules as { _: string; rules: unknown[] }
			expect(rules._).toBe('userPrivacySettingRules')
			return rules.rules
		}
		const restrictUsers = { _: 'userPrivacySettingRuleRestrictUsers', user_ids: [3] }
		const restrictChats = { _: 'userPrivacySettingRuleRestrictChatMembers', chat_ids: [-20] }
		const allowUsers = { _: 'userPrivacySettingRuleAllowUsers', user_ids: [1, 2] }
		const allowChats = { _: 'userPrivacySettingRuleAllowChatMembers', chat_ids: [-10] }
		const premium = { _: 'userPrivacySettingRuleAllowPremiumUsers' }
		expect(await rulesOf('all')).toEqual([
			restrictUsers,
			restrictChats,
			{ _: 'userPrivacySettingRuleAllowAll' },
		])
		expect(await rulesOf('contacts')).toEqual([
			restrictUsers,
			restrictChats,
			allowUsers,
			allowChats,
			premium,
			{ _: 'userPrivacySettingRuleAllowContacts' },
		])
		expect(await rulesOf('nobody')).toEqual([
			allowUsers,
			allowChats,
			premium,
			{ _: 'userPrivacySettingRuleRestrictAll' },
		])
	})

	it('set_privacy_setting: new-chat privacy read, then both fields written', async () => {
		const current: Answer = (req) =>
			req._ === 'getNewChatPrivacySettings'
				? {
						_: 'newChatPrivacySettings',
						allow_new_chats_from_unknown_users: false,
						incoming_paid_message_star_count: 40,
					}
				: { _: 'ok' }
		const allow = await runCommand(
			'set_privacy_setting',
			{ setting: 'newChatPrivacySettings', allow_new_chats_from_unknown_users: true },
			current,
		)
		expect(allow.requests).toEqual([
			{ _: 'getNewChatPrivacySettings' },
			{
				_: 'setNewChatPrivacySettings',
				settings: {
					_: 'newChatPrivacySettings',
					allow_new_chats_from_unknown_users: true,
					incoming_paid_message_star_count: 40,
				},
			},
		])
		const refuse = await runCommand(
			'set_privacy_setting',
			{ setting: 'newChatPrivacySettings', allow_new_chats_from_unknown_users: false },
			current,
		)
		expect(refuse.requests[1]).toEqual({
			_: 'setNewChatPrivacySettings',
			settings: {
				_: 'newChatPrivacySettings',
				allow_new_chats_from_unknown_users: false,
				incoming_paid_message_star_count: 0,
			},
		})
	})
})
