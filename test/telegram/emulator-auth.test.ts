import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { emulatorRequest } from '../../src/emulator'
import { TdError } from '../../src/runtime/telegram/types'
import { startRuntime, type TestRuntime } from '../supervisor/helpers'

const KEY = { encryptionKey: 'a2V5' }

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

describe('emulator authorization', () => {
	let t: TestRuntime
	let next = 100
	const fresh = async () => {
		const id = next++
		expect(await t.rt.startClient(id, KEY)).toBe('authorizationStateWaitPhoneNumber')
		return id
	}
	beforeAll(async () => {
		t = await startRuntime()
	})
	afterAll(() => t.stop())

	it('logs in with a phone and its code', async () => {
		const id = await fresh()
		await t.rt.invoke(id, { _: 'setAuthenticationPhoneNumber', phone_number: '+999 662 1234' })
		const wait = await t.waitFor(
			(e) => e.type === 'authorization_state' && e.userbotId === id && e.state.endsWith('WaitCode'),
		)
		expect(wait).toMatchObject({
			detail: { code_length: 5, code_type: 'authenticationCodeTypeTelegramMessage' },
		})
		expect(await tdError(t.rt.invoke(id, { _: 'checkAuthenticationCode', code: '11111' }))).toEqual({
			code: 400,
			message: 'PHONE_CODE_INVALID',
		})
		await t.rt.invoke(id, { _: 'checkAuthenticationCode', code: '22222' })
		expect(t.rt.authorizationState(id)).toBe('authorizationStateReady')
		expect((await t.rt.invoke(id, { _: 'getMe' })).usernames?.active_usernames).toEqual(['bob'])
		expect(await t.rt.invoke(id, { _: 'getOption', name: 'my_id' })).toEqual({
			_: 'optionValueInteger',
			value: '1002',
		})
	})

	it('rejects phones outside the test convention', async () => {
		const id = await fresh()
		for (const phone of ['12345', '9996641234', '+44 20 7946 0000']) {
			expect(
				await tdError(t.rt.invoke(id, { _: 'setAuthenticationPhoneNumber', phone_number: phone })),
			).toEqual({
				code: 400,
				message: 'PHONE_NUMBER_INVALID',
			})
		}
	})

	it('asks the password of a 2FA account and checks it', async () => {
		const id = await fresh()
		await t.rt.invoke(id, { _: 'setAuthenticationPhoneNumber', phone_number: '9996631111' })
		await t.rt.invoke(id, { _: 'checkAuthenticationCode', code: '33333' })
		expect(t.rt.authorizationState(id)).toBe('authorizationStateWaitPassword')
		const state = await t.rt.invoke(id, { _: 'getAuthorizationState' })
		expect(state).toMatchObject({ _: 'authorizationStateWaitPassword', password_hint: 'the usual one' })
		expect(await tdError(t.rt.invoke(id, { _: 'checkAuthenticationPassword', password: 'nope' }))).toEqual({
			code: 400,
			message: 'PASSWORD_HASH_INVALID',
		})
		await t.rt.invoke(id, { _: 'checkAuthenticationPassword', password: 'secret-2fa' })
		expect((await t.rt.invoke(id, { _: 'getMe' })).first_name).toBe('Carol')
	})

	it('registers an unknown test phone', async () => {
		const id = await fresh()
		await t.rt.invoke(id, { _: 'setAuthenticationPhoneNumber', phone_number: '9996639876' })
		await t.rt.invoke(id, { _: 'checkAuthenticationCode', code: '33333' })
		expect(t.rt.authorizationState(id)).toBe('authorizationStateWaitRegistration')
		expect(await tdError(t.rt.invoke(id, { _: 'registerUser', first_name: ' ' }))).toEqual({
			code: 400,
			message: 'First name must be non-empty',
		})
		await t.rt.invoke(id, { _: 'registerUser', first_name: 'Nora', last_name: 'New' })
		const me = await t.rt.invoke(id, { _: 'getMe' })
		expect(me).toMatchObject({ first_name: 'Nora', last_name: 'New', phone_number: '9996639876' })
	})

	it('gives a QR link and logs in when another device confirms', async () => {
		const id = await fresh()
		await t.rt.invoke(id, { _: 'requestQrCodeAuthentication', other_user_ids: [] })
		const e = await t.waitFor(
			(x) => x.type === 'authorization_state' && x.userbotId === id && x.state.includes('OtherDevice'),
		)
		expect(e.type === 'authorization_state' && String(e.detail?.link)).toMatch(/^tg:\/\/login\?token=[\w-]+$/)
		await t.rt.invoke(id, emulatorRequest({ _: 'emulatorConfirmQrCode', phone_number: '9996611111' }))
		expect((await t.rt.invoke(id, { _: 'getMe' })).first_name).toBe('Alice')
	})

	it('starts over with another number or a QR code from any later log-in step, as TDLib documents', async () => {
		const id = await fresh()
		await t.rt.invoke(id, { _: 'setAuthenticationPhoneNumber', phone_number: '9996621234' })
		expect(t.rt.authorizationState(id)).toBe('authorizationStateWaitCode')
		// A wrong number: another one, whose code is then the one that counts.
		await t.rt.invoke(id, { _: 'setAuthenticationPhoneNumber', phone_number: '9996631111' })
		await t.rt.invoke(id, { _: 'checkAuthenticationCode', code: '33333' })
		expect(t.rt.authorizationState(id)).toBe('authorizationStateWaitPassword')
		// From the password step, a QR code instead.
		await t.rt.invoke(id, { _: 'requestQrCodeAuthentication', other_user_ids: [] })
		expect(t.rt.authorizationState(id)).toBe('authorizationStateWaitOtherDeviceConfirmation')
		// Not while the QR code waits for its confirmation (not in TDLib's list).
		expect(
			await tdError(t.rt.invoke(id, { _: 'setAuthenticationPhoneNumber', phone_number: '9996621234' })),
		).toEqual({ code: 400, message: 'Call to setAuthenticationPhoneNumber unexpected' })
		expect(await tdError(t.rt.invoke(id, { _: 'requestQrCodeAuthentication', other_user_ids: [] }))).toEqual({
			code: 400,
			message: 'Call to requestQrCodeAuthentication unexpected',
		})
		await t.rt.invoke(id, emulatorRequest({ _: 'emulatorConfirmQrCode', phone_number: '9996611111' }))
		expect((await t.rt.invoke(id, { _: 'getMe' })).first_name).toBe('Alice')
		expect(await tdError(t.rt.invoke(id, { _: 'requestQrCodeAuthentication', other_user_ids: [] }))).toEqual({
			code: 400,
			message: 'Call to requestQrCodeAuthentication unexpected',
		})
	})

	it('offline, a log-in step waits for the network and is aborted when the client closes', async () => {
		const id = await fresh()
		await t.rt.invoke(id, { _: 'setNetworkType', type: { _: 'networkTypeNone' } })
		const waiting = tdError(
			t.rt.invoke(id, { _: 'setAuthenticationPhoneNumber', phone_number: '9996621234' }),
		)
		// Requests that need no network still answer.
		expect(await t.rt.invoke(id, { _: 'getAuthorizationState' })).toMatchObject({
			_: 'authorizationStateWaitPhoneNumber',
		})
		await t.rt.stopClient(id, { logOut: false, removeData: true })
		expect(await waiting).toEqual({ code: 500, message: 'Request aborted' })
	})

	it('offline, a step goes on once the network is back', async () => {
		const id = await fresh()
		await t.rt.invoke(id, { _: 'setNetworkType', type: { _: 'networkTypeNone' } })
		const step = t.rt.invoke(id, { _: 'setAuthenticationPhoneNumber', phone_number: '9996621234' })
		await t.rt.invoke(id, { _: 'setNetworkType', type: { _: 'networkTypeOther' } })
		expect(await step).toEqual({ _: 'ok' })
		expect(t.rt.authorizationState(id)).toBe('authorizationStateWaitCode')
	})

	it('refuses auth methods in the wrong state and other methods before login', async () => {
		const id = await fresh()
		expect(await tdError(t.rt.invoke(id, { _: 'checkAuthenticationCode', code: '22222' }))).toEqual({
			code: 400,
			message: 'Call to checkAuthenticationCode unexpected',
		})
		expect(await tdError(t.rt.invoke(id, { _: 'checkAuthenticationPassword', password: 'x' }))).toEqual({
			code: 400,
			message: 'Call to checkAuthenticationPassword unexpected',
		})
		expect(await tdError(t.rt.invoke(id, { _: 'getMe' }))).toEqual({ code: 401, message: 'Unauthorized' })
		expect(await tdError(t.rt.invoke(id, { _: 'getChats', limit: 10 }))).toEqual({
			code: 401,
			message: 'Unauthorized',
		})
	})

	it('names a method it does not support', async () => {
		const id = await fresh()
		expect(await tdError(t.rt.invoke(id, { _: 'getStory', story_poster_chat_id: 1, story_id: 1 }))).toEqual({
			code: 400,
			message: 'Method not supported by the emulator: getStory',
		})
	})

	it('logs out through LoggingOut to Closed and forgets the login', async () => {
		const id = await fresh()
		await t.rt.invoke(id, { _: 'setAuthenticationPhoneNumber', phone_number: '9996614444' })
		await t.rt.invoke(id, { _: 'checkAuthenticationCode', code: '11111' })
		await t.rt.invoke(id, { _: 'logOut' })
		await t.waitFor(
			(e) => e.type === 'authorization_state' && e.userbotId === id && e.state.endsWith('Closed'),
		)
		const states = t.events
			.filter((e) => e.type === 'authorization_state' && e.userbotId === id)
			.map((e) => e.type === 'authorization_state' && e.state)
		expect(states.slice(-3)).toEqual([
			'authorizationStateLoggingOut',
			'authorizationStateClosing',
			'authorizationStateClosed',
		])
		expect(t.rt.authorizationState(id)).toBeUndefined()
		expect(await t.rt.startClient(id, KEY)).toBe('authorizationStateWaitPhoneNumber')
	})

	it('keeps the login across a client restart (close, start again)', async () => {
		const id = await fresh()
		await t.rt.invoke(id, { _: 'setAuthenticationPhoneNumber', phone_number: '9996625555' })
		await t.rt.invoke(id, { _: 'checkAuthenticationCode', code: '22222' })
		await t.rt.stopClient(id, { logOut: false, removeData: false })
		expect(await t.rt.startClient(id, KEY)).toBe('authorizationStateReady')
		expect((await t.rt.invoke(id, { _: 'getMe' })).first_name).toBe('Eve')
	})
})
