import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { createMessagingFixture, type MessagingFixture, type WsClient } from '../../helpers-ws'
import { commandsOf, emulator, loginUserbot, otherCode, readMail } from './support'

/**
 * Each command of docs/commands.md#commands-security over the real WebSocket, gateway, supervisor child and
 * emulator: its success result, each string of the error table, the echo results exactly, and TDLib's errors
 * passed through. Every test that changes a 2FA state logs in an account of its own (registered now, no
 * password).
 */
let f: MessagingFixture
let c: WsClient
beforeAll(async () => {
	f = await createMessagingFixture()
	c = await f.connect()
})
afterAll(() => f.stop())

const CAROL = { phone: '9996631111', password: 'secret-2fa' }
const newAccount = async (account?: { phone: string; password: string }) => {
	const id = await loginUserbot(f.t, f.alice.companyId, account)
	return { id, ...commandsOf(c, id) }
}
type Account = Awaited<ReturnType<typeof newAccount>>
/** With no password set TDLib checks no current password: any non-empty one will do (`""` is missing). */
const NONE = 'no password yet'
const NO_PASSWORD = {
	_: 'passwordState',
	has_password: false,
	password_hint: '',
	has_recovery_email_address: false,
	has_passport_data: false,
	login_email_address_pattern: '',
	pending_reset_date: 0,
}

/** Sets a password and a confirmed recovery address, the code read from the emulated mail. */
async function withRecoveryEmail(a: Account, password: string, address: string) {
	await a.ok('change_2fa_password', { current_password: NONE, new_password: password, new_hint: 'hint' })
	await a.ok('change_2fa_recovery_email', { current_password: password, new_recovery_email_address: address })
	await a.ok('check_recovery_email_address_code', { code: await readMail(f.t, a.id, address) })
}

describe('get_password_state', () => {
	it('answers the raw passwordState', async () => {
		expect(await (await newAccount()).ok('get_password_state')).toEqual(NO_PASSWORD)
		expect(await (await newAccount(CAROL)).ok('get_password_state')).toEqual({
			...NO_PASSWORD,
			has_password: true,
			password_hint: 'the usual one',
		})
	})
})

describe('get_account_ttl and set_account_ttl', () => {
	it('reads the TTL, sets it and echoes exactly {days}, bounds included', async () => {
		const a = await newAccount()
		expect(await a.ok('get_account_ttl')).toEqual({ _: 'accountTtl', days: 180 })
		expect(await a.ok('set_account_ttl', { days: 30 })).toEqual({ days: 30 })
		expect(await a.ok('get_account_ttl')).toEqual({ _: 'accountTtl', days: 30 })
		expect(await a.ok('set_account_ttl', { days: 730 })).toEqual({ days: 730 })
		expect(await a.ok('get_account_ttl')).toEqual({ _: 'accountTtl', days: 730 })
		expect(await a.ok('set_account_ttl', { days: '365' })).toEqual({ days: 365 })
	})

	it('answers its validation errors and changes nothing', async () => {
		const a = await newAccount()
		expect(await a.errorOf('set_account_ttl')).toBe('days is required')
		expect(await a.errorOf('set_account_ttl', { days: null })).toBe('days is required')
		expect(await a.errorOf('set_account_ttl', { days: 29 })).toBe('days must be between 30 and 730')
		expect(await a.errorOf('set_account_ttl', { days: 731 })).toBe('days must be between 30 and 730')
		expect(await a.errorOf('set_account_ttl', { days: -30 })).toBe('days must be between 30 and 730')
		expect(await a.errorOf('set_account_ttl', { days: 30.5 })).toBe('days must be an integer')
		expect(await a.errorOf('set_account_ttl', { days: 'a year' })).toBe('days must be an integer')
		expect(await a.ok('get_account_ttl')).toEqual({ _: 'accountTtl', days: 180 })
	})
})

describe('verify_2fa_password', () => {
	it('answers {verified: true} for the right password and never the recovery address', async () => {
		const a = await newAccount()
		await withRecoveryEmail(a, 'right-password', 'verify.owner@example.com')
		const reply = await a.run('verify_2fa_password', { password: 'right-password' })
		expect(reply.payload.type).toBe('verify_2fa_password')
		expect(reply.payload.result).toEqual({ verified: true })
		expect(JSON.stringify(reply)).not.toContain('verify.owner')
	})

	it('passes TDLib’s PASSWORD_HASH_INVALID on for a wrong password', async () => {
		const a = await newAccount(CAROL)
		expect(await a.errorOf('verify_2fa_password', { password: 'not-it' })).toBe('PASSWORD_HASH_INVALID')
	})

	it('accepts no password at all when none is set', async () => {
		const a = await newAccount()
		for (const password of ['anything', 'secret-2fa'])
			expect(await a.errorOf('verify_2fa_password', { password })).toBe('2-step verification is not enabled')
	})

	it('answers its validation errors', async () => {
		const a = await newAccount(CAROL)
		expect(await a.errorOf('verify_2fa_password')).toBe('password is required')
		expect(await a.errorOf('verify_2fa_password', { password: null })).toBe('password is required')
		expect(await a.errorOf('verify_2fa_password', { password: '' })).toBe('password is required')
		expect(await a.errorOf('verify_2fa_password', { password: 42 })).toBe('password must be a string')
		expect(await a.errorOf('verify_2fa_password', { password: 'a\ud800' })).toBe(
			'password must be valid Unicode text',
		)
	})
})

describe('change_2fa_password', () => {
	it('sets a first password with any current_password and changes it with the right one', async () => {
		const a = await newAccount()
		expect(
			await a.ok('change_2fa_password', { current_password: NONE, new_password: 'one-1', new_hint: 'first' }),
		).toEqual({ ...NO_PASSWORD, has_password: true, password_hint: 'first' })
		expect(
			await a.ok('change_2fa_password', {
				current_password: 'one-1',
				new_password: 'two-2',
				new_hint: 'second',
			}),
		).toMatchObject({ has_password: true, password_hint: 'second' })
		expect(await a.ok('verify_2fa_password', { password: 'two-2' })).toEqual({ verified: true })
		expect(await a.errorOf('verify_2fa_password', { password: 'one-1' })).toBe('PASSWORD_HASH_INVALID')
		// A new password without new_hint has no hint (the old one described the old password).
		expect(
			await a.ok('change_2fa_password', { current_password: 'two-2', new_password: 'three-3' }),
		).toMatchObject({ has_password: true, password_hint: '' })
	})

	it('passes TDLib’s PASSWORD_HASH_INVALID on for a wrong current password and keeps the password', async () => {
		const a = await newAccount(CAROL)
		expect(
			await a.errorOf('change_2fa_password', { current_password: 'guess', new_password: 'mine-now' }),
		).toBe('PASSWORD_HASH_INVALID')
		expect(await a.ok('verify_2fa_password', { password: 'secret-2fa' })).toEqual({ verified: true })
	})

	it('never removes the password when new_password is omitted or empty', async () => {
		const a = await newAccount()
		await a.ok('change_2fa_password', { current_password: NONE, new_password: 'keep-me', new_hint: 'kept' })
		expect(await a.errorOf('change_2fa_password', { current_password: 'keep-me' })).toBe(
			'new_password or set_recovery_email_address is required',
		)
		expect(await a.errorOf('change_2fa_password', { current_password: 'keep-me', new_password: '' })).toBe(
			'new_password must not be empty; use disable_2fa_password to remove the password',
		)
		expect(await a.errorOf('change_2fa_password', { current_password: 'keep-me', new_hint: 'other' })).toBe(
			'new_hint can only be changed together with new_password',
		)
		// An address counts only with set_recovery_email_address: true (the spec's default is false).
		for (const new_recovery_email_address of ['', 'ignored@example.com'])
			expect(
				await a.errorOf('change_2fa_password', { current_password: 'keep-me', new_recovery_email_address }),
			).toBe('new_password or set_recovery_email_address is required')
		expect(await a.ok('get_password_state')).toMatchObject({ has_password: true, password_hint: 'kept' })
	})

	it('changes only the recovery address when new_password is absent, leaving password and hint', async () => {
		const a = await newAccount()
		await a.ok('change_2fa_password', { current_password: NONE, new_password: 'pw-1', new_hint: 'h' })
		const held = await a.ok('change_2fa_password', {
			current_password: 'pw-1',
			set_recovery_email_address: true,
			new_recovery_email_address: 'only.mail@example.com',
		})
		expect(held).toEqual({
			...NO_PASSWORD,
			has_password: true,
			password_hint: 'h',
			recovery_email_address_code_info: {
				_: 'emailAddressAuthenticationCodeInfo',
				email_address_pattern: 'o********@e******.com',
				length: 6,
			},
		})
		const code = await readMail(f.t, a.id, 'only.mail@example.com')
		await a.ok('check_recovery_email_address_code', { code })
		expect(await a.ok('get_password_state')).toMatchObject({
			has_recovery_email_address: true,
			password_hint: 'h',
		})
		// set_recovery_email_address: true without an address removes it, deliberately.
		expect(
			await a.ok('change_2fa_password', { current_password: 'pw-1', set_recovery_email_address: true }),
		).toMatchObject({ has_password: true, has_recovery_email_address: false, password_hint: 'h' })
	})

	it('applies a new password at once when set_recovery_email_address is left out or false (the spec default)', async () => {
		for (const flag of [{}, { set_recovery_email_address: false }]) {
			const a = await newAccount()
			await a.ok('change_2fa_password', { current_password: NONE, new_password: 'secret-2fa' })
			// The audit's case: a new password and an address, the flag omitted. The address is not set.
			expect(
				await a.ok('change_2fa_password', {
					current_password: 'secret-2fa',
					new_password: 'applied-now',
					new_recovery_email_address: 'not.set@example.com',
					...flag,
				}),
			).toEqual({ ...NO_PASSWORD, has_password: true })
			expect(await a.ok('verify_2fa_password', { password: 'applied-now' })).toEqual({ verified: true })
			expect(await a.errorOf('verify_2fa_password', { password: 'secret-2fa' })).toBe('PASSWORD_HASH_INVALID')
			expect(await a.errorOf('check_recovery_email_address_code', { code: '123456' })).toBe(
				'no recovery email address is waiting for confirmation',
			)
			await expect(readMail(f.t, a.id, 'not.set@example.com')).rejects.toThrow('no mail')
		}
	})

	it('holds a new password with a new address until check_recovery_email_address_code confirms it', async () => {
		const a = await newAccount()
		const held = await a.ok('change_2fa_password', {
			current_password: NONE,
			new_password: 'held-pw',
			new_hint: 'held',
			set_recovery_email_address: true,
			new_recovery_email_address: 'held@example.com',
		})
		// Pending, and where it must be confirmed: the address as Telegram masks it.
		expect(held).toEqual({
			...NO_PASSWORD,
			recovery_email_address_code_info: {
				_: 'emailAddressAuthenticationCodeInfo',
				email_address_pattern: 'h***@e******.com',
				length: 6,
			},
		})
		expect(await a.errorOf('verify_2fa_password', { password: 'held-pw' })).toBe(
			'2-step verification is not enabled',
		)
		const code = await readMail(f.t, a.id, 'held@example.com')
		const wrong = await a.run('check_recovery_email_address_code', { code: otherCode(code) })
		expect(wrong.payload).toMatchObject({
			type: 'check_recovery_email_address_code_error',
			error: 'code is invalid or expired; the recovery email address is still waiting for confirmation',
			result: { has_password: false, recovery_email_address_code_info: { length: 6 } },
		})
		expect(await a.ok('check_recovery_email_address_code', { code })).toEqual({
			...NO_PASSWORD,
			has_password: true,
			password_hint: 'held',
			has_recovery_email_address: true,
		})
		expect(await a.ok('verify_2fa_password', { password: 'held-pw' })).toEqual({ verified: true })
	})

	it('answers its validation errors', async () => {
		const a = await newAccount()
		expect(await a.errorOf('change_2fa_password', { new_password: 'x' })).toBe('current_password is required')
		expect(await a.errorOf('change_2fa_password', { current_password: null, new_password: 'x' })).toBe(
			'current_password is required',
		)
		expect(await a.errorOf('change_2fa_password', { current_password: 1, new_password: 'x' })).toBe(
			'current_password must be a string',
		)
		expect(await a.errorOf('change_2fa_password', { current_password: NONE, new_password: 7 })).toBe(
			'new_password must be a string',
		)
		expect(
			await a.errorOf('change_2fa_password', {
				current_password: NONE,
				new_password: 'x',
				set_recovery_email_address: 'yes',
			}),
		).toBe('set_recovery_email_address must be a boolean')
		expect(await a.errorOf('change_2fa_password', { current_password: '', new_password: 'x' })).toBe(
			'current_password is required',
		)
		expect(await a.ok('get_password_state')).toEqual(NO_PASSWORD)
	})

	it('passes TDLib’s EMAIL_INVALID on', async () => {
		const a = await newAccount()
		expect(
			await a.errorOf('change_2fa_password', {
				current_password: NONE,
				new_password: 'x-1',
				set_recovery_email_address: true,
				new_recovery_email_address: 'not an address',
			}),
		).toBe('EMAIL_INVALID')
	})
})

describe('disable_2fa_password', () => {
	it('removes the password and its recovery address with the right current password', async () => {
		const a = await newAccount()
		await withRecoveryEmail(a, 'to-remove', 'gone@example.com')
		expect(await a.errorOf('disable_2fa_password', { current_password: 'wrong' })).toBe(
			'PASSWORD_HASH_INVALID',
		)
		expect(await a.ok('disable_2fa_password', { current_password: 'to-remove' })).toEqual(NO_PASSWORD)
		expect(await a.errorOf('verify_2fa_password', { password: 'to-remove' })).toBe(
			'2-step verification is not enabled',
		)
	})

	it('answers its validation errors', async () => {
		const a = await newAccount()
		expect(await a.errorOf('disable_2fa_password')).toBe('current_password is required')
		expect(await a.errorOf('disable_2fa_password', { current_password: ['x'] })).toBe(
			'current_password must be a string',
		)
	})
})

describe('change_2fa_recovery_email', () => {
	it('asks for a code at the new address; the current address answers at once', async () => {
		const a = await newAccount()
		await withRecoveryEmail(a, 'mail-pw', 'first@example.com')
		expect(
			await a.ok('change_2fa_recovery_email', {
				current_password: 'mail-pw',
				new_recovery_email_address: 'second@example.com',
			}),
		).toEqual({
			...NO_PASSWORD,
			has_password: true,
			password_hint: 'hint',
			has_recovery_email_address: true,
			recovery_email_address_code_info: {
				_: 'emailAddressAuthenticationCodeInfo',
				email_address_pattern: 's*****@e******.com',
				length: 6,
			},
		})
		const same = (await a.ok('change_2fa_recovery_email', {
			current_password: 'mail-pw',
			new_recovery_email_address: 'first@example.com',
		})) as Record<string, unknown>
		expect(same.recovery_email_address_code_info).toBeUndefined()
	})

	it('answers its strings of the error table and passes TDLib’s errors on', async () => {
		const a = await newAccount()
		expect(
			await a.errorOf('change_2fa_recovery_email', { new_recovery_email_address: 'a@example.com' }),
		).toBe('current_password is required')
		expect(await a.errorOf('change_2fa_recovery_email', { current_password: 'x' })).toBe(
			'new_recovery_email_address is required',
		)
		expect(
			await a.errorOf('change_2fa_recovery_email', { current_password: 'x', new_recovery_email_address: '' }),
		).toBe('new_recovery_email_address is required')
		expect(
			await a.errorOf('change_2fa_recovery_email', {
				current_password: '',
				new_recovery_email_address: 'a@b.cd',
			}),
		).toBe('current_password is required')
		expect(
			await a.errorOf('change_2fa_recovery_email', {
				current_password: NONE,
				new_recovery_email_address: 'a@example.com',
			}),
		).toBe('PASSWORD_EMPTY')
		await a.ok('change_2fa_password', { current_password: NONE, new_password: 'pw-9' })
		expect(
			await a.errorOf('change_2fa_recovery_email', {
				current_password: 'pw-8',
				new_recovery_email_address: 'a@example.com',
			}),
		).toBe('PASSWORD_HASH_INVALID')
		expect(
			await a.errorOf('change_2fa_recovery_email', {
				current_password: 'pw-9',
				new_recovery_email_address: '@',
			}),
		).toBe('EMAIL_INVALID')
	})
})

describe('check_recovery_email_address_code and resend_recovery_email_address_code', () => {
	const NOTHING = 'no recovery email address is waiting for confirmation'

	it('mails a new code for the pending address, which confirms it', async () => {
		const a = await newAccount()
		await a.ok('change_2fa_password', { current_password: NONE, new_password: 'pw-m', new_hint: 'm' })
		await a.ok('change_2fa_recovery_email', {
			current_password: 'pw-m',
			new_recovery_email_address: 'm@example.com',
		})
		const first = await readMail(f.t, a.id, 'm@example.com')
		expect(await a.ok('resend_recovery_email_address_code')).toMatchObject({
			has_recovery_email_address: false,
			recovery_email_address_code_info: { email_address_pattern: '*@e******.com', length: 6 },
		})
		const second = await readMail(f.t, a.id, 'm@example.com')
		// The new code replaced the first (unless the random draw repeated it, one time in a million).
		if (second !== first)
			expect((await a.run('check_recovery_email_address_code', { code: first })).payload.type).toBe(
				'check_recovery_email_address_code_error',
			)
		expect(await a.ok('check_recovery_email_address_code', { code: second })).toEqual({
			...NO_PASSWORD,
			has_password: true,
			password_hint: 'm',
			has_recovery_email_address: true,
		})
		expect(await a.errorOf('resend_recovery_email_address_code')).toBe(NOTHING)
		expect(await a.errorOf('check_recovery_email_address_code', { code: second })).toBe(NOTHING)
	})

	it('answers that nothing is pending, with the state, when nothing is', async () => {
		const a = await newAccount()
		const reply = await a.run('resend_recovery_email_address_code')
		expect(reply.payload).toMatchObject({ type: 'resend_recovery_email_address_code_error', error: NOTHING })
		expect(reply.payload.result).toEqual(NO_PASSWORD)
		expect(await a.errorOf('check_recovery_email_address_code', { code: '123456' })).toBe(NOTHING)
	})

	it('answers their validation errors', async () => {
		const a = await newAccount()
		for (const code of [undefined, null, ''])
			expect(await a.errorOf('check_recovery_email_address_code', { code })).toBe('code is required')
		expect(await a.errorOf('check_recovery_email_address_code', { code: 123456 })).toBe(
			'code must be a string',
		)
	})
})

describe('request_password_recovery, check_password_recovery_code, recover_password', () => {
	it('mails a code to the recovery address, echoes exactly {recovery_code}, recovers with it', async () => {
		const a = await newAccount()
		await withRecoveryEmail(a, 'forgotten', 'recover.me@example.com')
		expect(await a.ok('request_password_recovery')).toEqual({
			_: 'emailAddressAuthenticationCodeInfo',
			email_address_pattern: 'r*********@e******.com',
			length: 0,
		})
		const code = await readMail(f.t, a.id, 'recover.me@example.com')
		expect(await a.ok('check_password_recovery_code', { recovery_code: code })).toEqual({
			recovery_code: code,
		})
		expect(
			await a.ok('recover_password', { recovery_code: code, new_password: 'remembered', new_hint: 'now' }),
		).toMatchObject({ has_password: true, password_hint: 'now', has_recovery_email_address: true })
		expect(await a.ok('verify_2fa_password', { password: 'remembered' })).toEqual({ verified: true })
	})

	it('passes TDLib’s errors on: PASSWORD_EMPTY, PASSWORD_RECOVERY_NA, Invalid recovery code, CODE_INVALID', async () => {
		const a = await newAccount()
		expect(await a.errorOf('request_password_recovery')).toBe('PASSWORD_EMPTY')
		await a.ok('change_2fa_password', { current_password: NONE, new_password: 'no-mail' })
		expect(await a.errorOf('request_password_recovery')).toBe('PASSWORD_RECOVERY_NA')
		expect(await a.errorOf('recover_password', { recovery_code: '123456', new_password: 'x' })).toBe(
			'PASSWORD_RECOVERY_NA',
		)
		const b = await newAccount()
		await withRecoveryEmail(b, 'pw-b', 'b.owner@example.com')
		await b.ok('request_password_recovery')
		const wrong = otherCode(await readMail(f.t, b.id, 'b.owner@example.com'))
		expect(await b.errorOf('check_password_recovery_code', { recovery_code: wrong })).toBe(
			'Invalid recovery code',
		)
		expect(await b.errorOf('recover_password', { recovery_code: wrong, new_password: 'x' })).toBe(
			'CODE_INVALID',
		)
		expect(await b.ok('verify_2fa_password', { password: 'pw-b' })).toEqual({ verified: true })
	})

	it('removes the password when recover_password has no new_password (optional in the protocol, as TDLib reads it)', async () => {
		for (const without of [{}, { new_password: null }, { new_password: '' }]) {
			const a = await newAccount()
			await withRecoveryEmail(a, 'pw-r', 'r.owner@example.com')
			await a.ok('request_password_recovery')
			const code = await readMail(f.t, a.id, 'r.owner@example.com')
			expect(await a.ok('recover_password', { recovery_code: code, ...without })).toEqual(NO_PASSWORD)
			expect(await a.errorOf('verify_2fa_password', { password: 'pw-r' })).toBe(
				'2-step verification is not enabled',
			)
		}
	})

	it('answers their validation errors', async () => {
		const a = await newAccount()
		for (const action of ['check_password_recovery_code', 'recover_password']) {
			expect(await a.errorOf(action, { new_password: 'x' })).toBe('recovery_code is required')
			expect(await a.errorOf(action, { recovery_code: '', new_password: 'x' })).toBe(
				'recovery_code is required',
			)
			expect(await a.errorOf(action, { recovery_code: 123456, new_password: 'x' })).toBe(
				'recovery_code must be a string',
			)
		}
		expect(await a.errorOf('recover_password', { recovery_code: '1', new_password: 'x', new_hint: 5 })).toBe(
			'new_hint must be a string',
		)
	})
})

describe('get_transfer_ownership_state', () => {
	it('answers PasswordNeeded, PasswordTooFresh, SessionTooFresh and Ok', async () => {
		const a = await newAccount()
		expect(await a.ok('get_transfer_ownership_state')).toEqual({
			_: 'canTransferOwnershipResultPasswordNeeded',
		})
		await a.ok('change_2fa_password', { current_password: NONE, new_password: 'fresh-pw' })
		const tooFresh = (await a.ok('get_transfer_ownership_state')) as { _: string; retry_after: number }
		expect(tooFresh._).toBe('canTransferOwnershipResultPasswordTooFresh')
		expect(tooFresh.retry_after).toBeGreaterThan(7 * 86_400 - 3_600)
		expect(tooFresh.retry_after).toBeLessThanOrEqual(7 * 86_400)
		const carol = await newAccount(CAROL)
		expect(await carol.ok('get_transfer_ownership_state')).toEqual({ _: 'canTransferOwnershipResultOk' })
		await emulator(f.t, carol.id, { _: 'emulatorSetSessionAge', seconds: 600 })
		const session = (await carol.ok('get_transfer_ownership_state')) as { _: string; retry_after: number }
		expect(session).toEqual({ _: 'canTransferOwnershipResultSessionTooFresh', retry_after: 86_400 - 600 })
	})
})
