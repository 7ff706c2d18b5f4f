import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type * as Td from 'tdlib-types'
import {
	createLoggedInUserbot,
	createMessagingFixture,
	type MessagingFixture,
	type WsClient,
} from '../../helpers-ws'
import { createNewAccountUserbot, emulate, runner } from './support'

/**
 * The session commands over the real WebSocket, gateway and supervisor, on the emulator: the
 * fixture's userbot is Bob (a seeded account: his sessions are days old), with two seeded devices.
 */
let f: MessagingFixture
let c: WsClient
let r: ReturnType<typeof runner>
const TWO_53 = 2n ** 53n

beforeAll(async () => {
	f = await createMessagingFixture()
	c = await f.connect()
	r = runner(f, c)
})
afterAll(() => f.stop())

const list = async (userbotId = f.userbotId) =>
	((await r.ok('get_active_sessions', {}, userbotId)) as Td.sessions).sessions
const current = async (userbotId = f.userbotId) => (await list(userbotId)).find((s) => s.is_current)!
const device = async (name: string, userbotId = f.userbotId) =>
	(await list(userbotId)).find((s) => s.application_name === name)

describe('get_active_sessions', () => {
	it("answers TDLib's sessions: one current, ids as int64 strings past 2^53", async () => {
		const result = (await r.ok('get_active_sessions')) as Td.sessions
		expect(result._).toBe('sessions')
		expect(result.inactive_session_ttl_days).toBe(180)
		expect(result.sessions.filter((s) => s.is_current)).toHaveLength(1)
		expect(result.sessions.length).toBeGreaterThanOrEqual(3)
		for (const s of result.sessions) {
			expect(s._).toBe('session')
			expect(typeof s.id).toBe('string')
			expect(BigInt(s.id) > TWO_53).toBe(true)
		}
	})

	it('passes a TDLib error through', async () => {
		await emulate(f.t, f.userbotId, {
			_: 'emulatorFailNext',
			method: 'getActiveSessions',
			code: 429,
			message: 'Too Many Requests: retry after 7',
		})
		expect(await r.errorOf('get_active_sessions')).toBe('Too Many Requests: retry after 7')
	})
})

describe('terminate_session', () => {
	it('terminates a device by the id string TDLib gave, every digit kept', async () => {
		const web = (await device('Telegram Web A'))!
		// Rounded to a double on this side, the id is another integer: it names no session.
		expect(String(Number(web.id))).not.toBe(web.id)
		expect(await r.errorOf('terminate_session', { session_id: Number(web.id) })).toBe('HASH_INVALID')
		expect(await device('Telegram Web A')).toBeDefined()
		expect(await r.ok('terminate_session', { session_id: web.id })).toEqual({ _: 'ok' })
		expect(await device('Telegram Web A')).toBeUndefined()
	})

	it('refuses the current session, told by is_current', async () => {
		const own = await current()
		expect(await r.errorOf('terminate_session', { session_id: own.id })).toBe(
			"current session can't be terminated via terminate_session",
		)
		// Spelled another way, the same number is the same session.
		expect(await r.errorOf('terminate_session', { session_id: `00${own.id}` })).toBe(
			"current session can't be terminated via terminate_session",
		)
		expect((await current()).id).toBe(own.id)
	})

	it('answers its validation errors', async () => {
		expect(await r.errorOf('terminate_session')).toBe('session_id is required')
		expect(await r.errorOf('terminate_session', { session_id: null })).toBe('session_id is required')
		expect(await r.errorOf('terminate_session', { session_id: '' })).toBe('session_id is required')
		expect(await r.errorOf('terminate_session', { session_id: 'abc' })).toBe('session_id must be an integer')
		expect(await r.errorOf('terminate_session', { session_id: 1.5 })).toBe('session_id must be an integer')
		expect(await r.errorOf('terminate_session', { session_id: true })).toBe('session_id must be an integer')
		expect(await r.errorOf('terminate_session', { session_id: '99999999999999999999' })).toBe(
			'session_id must be a 64-bit integer',
		)
	})

	it("passes TDLib's error through for an unknown id", async () => {
		expect(await r.errorOf('terminate_session', { session_id: '4611686018427387903' })).toBe('HASH_INVALID')
		expect(await r.errorOf('terminate_session', { session_id: 0 })).toBe('HASH_INVALID')
	})
})

describe('set_session_settings', () => {
	it('sets both flags of a session', async () => {
		const phone = (await device('Telegram iOS'))!
		expect(
			await r.ok('set_session_settings', {
				session_id: phone.id,
				can_accept_calls: false,
				can_accept_secret_chats: false,
			}),
		).toEqual({ _: 'ok' })
		expect(await device('Telegram iOS')).toMatchObject({
			can_accept_calls: false,
			can_accept_secret_chats: false,
		})
		expect(
			await r.ok('set_session_settings', { session_id: phone.id, can_accept_secret_chats: true }),
		).toEqual({
			_: 'ok',
		})
		expect(await device('Telegram iOS')).toMatchObject({
			can_accept_calls: false,
			can_accept_secret_chats: true,
		})
	})

	it('reports the first flag as applied when the second call fails', async () => {
		const phone = (await device('Telegram iOS'))!
		await emulate(f.t, f.userbotId, {
			_: 'emulatorFailNext',
			method: 'toggleSessionCanAcceptSecretChats',
			code: 429,
			message: 'Too Many Requests: retry after 3',
		})
		const payload = await r.run('set_session_settings', {
			session_id: phone.id,
			can_accept_calls: true,
			can_accept_secret_chats: false,
		})
		expect(payload).toMatchObject({
			type: 'set_session_settings_error',
			error: 'Too Many Requests: retry after 3',
			result: { applied: { can_accept_calls: true } },
		})
		expect(await device('Telegram iOS')).toMatchObject({
			can_accept_calls: true,
			can_accept_secret_chats: true,
		})
	})

	it("passes TDLib's error through, with nothing applied when the first call fails", async () => {
		const payload = await r.run('set_session_settings', {
			session_id: '4611686018427387903',
			can_accept_calls: true,
			can_accept_secret_chats: true,
		})
		expect(payload.type).toBe('set_session_settings_error')
		expect(payload.error).toBe('HASH_INVALID')
		expect(payload.result).toBeUndefined()
	})

	it('answers its validation errors', async () => {
		const { id } = await current()
		expect(await r.errorOf('set_session_settings', { can_accept_calls: true })).toBe('session_id is required')
		expect(await r.errorOf('set_session_settings', { session_id: id })).toBe(
			'at least one of can_accept_calls or can_accept_secret_chats is required',
		)
		expect(await r.errorOf('set_session_settings', { session_id: id, can_accept_calls: 'yes' })).toBe(
			'can_accept_calls must be a boolean',
		)
		// null is a flag not sent, as everywhere: both null is the error table's string, not a type error.
		expect(
			await r.errorOf('set_session_settings', {
				session_id: id,
				can_accept_calls: null,
				can_accept_secret_chats: null,
			}),
		).toBe('at least one of can_accept_calls or can_accept_secret_chats is required')
	})
})

describe('terminate_all_other_sessions', () => {
	it('ends every other session, another userbot of the same account included', async () => {
		const dave = await createLoggedInUserbot(f.t, f.alice.companyId, '9996614444')
		const daveToo = await createLoggedInUserbot(f.t, f.alice.companyId, '9996614444')
		const other = await current(daveToo)
		expect((await list(dave)).map((s) => s.id)).toContain(other.id)
		expect(await r.ok('terminate_all_other_sessions', {}, dave)).toEqual({ _: 'ok' })
		expect((await list(dave)).map((s) => s.is_current)).toEqual([true])
		// The other userbot was logged out by Telegram: its company hears of it.
		await c.take(
			(m) =>
				m.userbot_id === daveToo &&
				m.payload.type === 'authorization_state' &&
				(m.payload.result as { authorization_state: string }).authorization_state ===
					'authorizationStateClosed',
		)
		expect((await r.run('get_active_sessions', {}, daveToo)).type).toBe('get_active_sessions_error')
	})

	it('says what FRESH_RESET_AUTHORISATION_FORBIDDEN means, from a session logged in minutes ago', async () => {
		const fresh = await createNewAccountUserbot(f.t, f.alice.companyId, '9996617777')
		const phone = (await device('Telegram iOS', fresh))!
		const tooNew =
			'FRESH_RESET_AUTHORISATION_FORBIDDEN: a session logged in less than 24 hours ago cannot terminate other sessions'
		expect(await r.errorOf('terminate_all_other_sessions', {}, fresh)).toBe(tooNew)
		expect(await r.errorOf('terminate_session', { session_id: phone.id }, fresh)).toBe(tooNew)
		expect(await list(fresh)).toHaveLength(3)
	})
})
