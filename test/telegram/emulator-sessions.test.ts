import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type * as Td from 'tdlib-types'
import { emulatorRequest } from '../../src/emulator'
import { TdError } from '../../src/runtime/telegram/types'
import { login, startRuntime, type TestRuntime } from '../supervisor/helpers'

const tdError = async (p: Promise<unknown>) => {
	try {
		await p
	} catch (err) {
		expect(err).toBeInstanceOf(TdError)
		const e = err as TdError
		return { code: e.code, message: e.message }
	}
	throw new Error('expected a TdError')
}

const TWO_53 = 2n ** 53n

describe('emulator sessions', () => {
	let t: TestRuntime
	let next = 10
	/** A new client logged in to `phone` (Bob by default). */
	const client = async (phone = '9996621234') => {
		const id = next++
		await login(t.rt, id, phone)
		return id
	}
	const sessions = async (id: number) => (await t.rt.invoke(id, { _: 'getActiveSessions' })).sessions
	const own = async (id: number) => (await sessions(id)).find((s) => s.is_current)!
	const others = async (id: number) => (await sessions(id)).filter((s) => !s.is_current)

	beforeAll(async () => {
		t = await startRuntime()
	})
	afterAll(() => t.stop())

	it('lists one current session and the seeded devices, ids as int64 strings past 2^53', async () => {
		const id = await client('9996611111')
		const list: Td.session[] = await sessions(id)
		expect(list.filter((s) => s.is_current)).toHaveLength(1)
		expect(list[0]!.is_current).toBe(true)
		expect(list.map((s) => s.application_name)).toEqual(['userbot-gateway', 'Telegram iOS', 'Telegram Web A'])
		for (const s of list) {
			expect(typeof s.id).toBe('string')
			expect(BigInt(s.id) > TWO_53).toBe(true)
		}
		expect(new Set(list.map((s) => s.id)).size).toBe(3)
		// The same session on the next call: the id is the session's, not the call's.
		expect((await own(id)).id).toBe(list[0]!.id)
	})

	it('shows another client of the same account as a device, and each its own as current', async () => {
		const a = await client('9996614444')
		const b = await client('9996614444')
		const aOwn = await own(a)
		const bOwn = await own(b)
		expect(aOwn.id).not.toBe(bOwn.id)
		expect((await others(a)).map((s) => s.id)).toContain(bOwn.id)
		expect((await others(b)).map((s) => s.id)).toContain(aOwn.id)
	})

	it('toggles calls and secret chats, and answers HASH_INVALID for an unknown id', async () => {
		const id = await client('9996625555')
		const [iphone] = await others(id)
		await t.rt.invoke(id, {
			_: 'toggleSessionCanAcceptCalls',
			session_id: iphone!.id,
			can_accept_calls: false,
		})
		await t.rt.invoke(id, {
			_: 'toggleSessionCanAcceptSecretChats',
			session_id: iphone!.id,
			can_accept_secret_chats: false,
		})
		const ownId = (await own(id)).id
		await t.rt.invoke(id, { _: 'toggleSessionCanAcceptCalls', session_id: ownId, can_accept_calls: false })
		const after = await sessions(id)
		expect(after.find((s) => s.id === iphone!.id)).toMatchObject({
			can_accept_calls: false,
			can_accept_secret_chats: false,
		})
		expect(after.find((s) => s.id === ownId)).toMatchObject({ can_accept_calls: false })
		expect(
			await tdError(
				t.rt.invoke(id, {
					_: 'toggleSessionCanAcceptCalls',
					session_id: '4611686018427387905',
					can_accept_calls: true,
				}),
			),
		).toEqual({ code: 400, message: 'HASH_INVALID' })
	})

	it('terminates a session by id, but not the current one nor an unknown one', async () => {
		const id = await client()
		const [iphone] = await others(id)
		expect(await t.rt.invoke(id, { _: 'terminateSession', session_id: iphone!.id })).toEqual({ _: 'ok' })
		expect((await sessions(id)).map((s) => s.id)).not.toContain(iphone!.id)
		expect(await tdError(t.rt.invoke(id, { _: 'terminateSession', session_id: iphone!.id }))).toEqual({
			code: 400,
			message: 'HASH_INVALID',
		})
		expect(await tdError(t.rt.invoke(id, { _: 'terminateSession', session_id: (await own(id)).id }))).toEqual(
			{
				code: 400,
				message: 'HASH_INVALID',
			},
		)
	})

	it("logs out the client whose session another terminates; another account's ids are unknown", async () => {
		const a = await client()
		const b = await client()
		const bOwn = await own(b)
		const stranger = await client('9996611111')
		expect(await tdError(t.rt.invoke(stranger, { _: 'terminateSession', session_id: bOwn.id }))).toEqual({
			code: 400,
			message: 'HASH_INVALID',
		})
		await t.rt.invoke(a, { _: 'terminateSession', session_id: bOwn.id })
		await t.waitFor(
			(e) => e.type === 'authorization_state' && e.userbotId === b && e.state === 'authorizationStateClosed',
		)
		expect((await sessions(a)).map((s) => s.id)).not.toContain(bOwn.id)
	})

	it('terminates all other sessions: the seeded devices and the other clients', async () => {
		const keep = await client()
		const gone = await client()
		await own(gone)
		expect(await t.rt.invoke(keep, { _: 'terminateAllOtherSessions' })).toEqual({ _: 'ok' })
		expect((await sessions(keep)).map((s) => s.is_current)).toEqual([true])
		await t.waitFor(
			(e) =>
				e.type === 'authorization_state' && e.userbotId === gone && e.state === 'authorizationStateClosed',
		)
	})

	it('refuses FRESH_RESET_AUTHORISATION_FORBIDDEN (406) from an account registered minutes ago', async () => {
		const id = next++
		await t.rt.startClient(id, { encryptionKey: 'dGVzdC1rZXk=' })
		await t.rt.invoke(id, { _: 'setAuthenticationPhoneNumber', phone_number: '9996617777' })
		await t.rt.invoke(id, { _: 'checkAuthenticationCode', code: '11111' })
		await t.rt.invoke(id, {
			_: 'registerUser',
			first_name: 'Newcomer',
			last_name: '',
			disable_notification: false,
		})
		const [iphone] = await others(id)
		const refused = { code: 406, message: 'FRESH_RESET_AUTHORISATION_FORBIDDEN' }
		expect(await tdError(t.rt.invoke(id, { _: 'terminateAllOtherSessions' }))).toEqual(refused)
		expect(await tdError(t.rt.invoke(id, { _: 'terminateSession', session_id: iphone!.id }))).toEqual(refused)
		expect(await sessions(id)).toHaveLength(3)
	})

	it('fails the next request of a method once on emulatorFailNext, for that client only', async () => {
		const a = await client()
		const b = await client()
		await t.rt.invoke(
			a,
			emulatorRequest({
				_: 'emulatorFailNext',
				method: 'getActiveSessions',
				code: 429,
				message: 'Too Many Requests: retry after 7',
			}),
		)
		// Another client's requests are not touched.
		expect((await own(b)).is_current).toBe(true)
		expect(await tdError(t.rt.invoke(a, { _: 'getActiveSessions' }))).toEqual({
			code: 429,
			message: 'Too Many Requests: retry after 7',
		})
		expect((await own(a)).is_current).toBe(true)
	})
})
