import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { type BuiltInCommands, type Client, CommandFailed, createClient } from 'userbot-gateway/client'
import { getTestInstance, type TestInstance } from '../../helpers'
import { registerUser } from '../../helpers-ws'
import { loginUserbot, otherCode, readMail } from './support'

/**
 * The 2FA life of one account over the real WebSocket and supervisor, through the typed client: set a password, verify it and a
 * wrong one, change it, give it a recovery address, recover by a mailed code, disable it. Every log
 * line of the app (debug level, the supervisor child's included) is kept and searched for the
 * passwords, codes and addresses that went by.
 */
const logLines: string[] = []
let t: TestInstance
let client: Client<BuiltInCommands>
let userbotId: number
beforeAll(async () => {
	// The scenario tries wrong passwords and codes on purpose, more than the guess limit allows.
	t = await getTestInstance({ LOG_LEVEL: 'debug', GUESS_RATE_LIMIT: '20' }, { logLines })
	const owner = await registerUser(t, 'scenario-owner@example.com')
	userbotId = await loginUserbot(t, owner.companyId)
	client = createClient({ url: t.url, token: owner.access })
})
afterAll(async () => {
	client.close()
	await t.stop()
})

const secrets: string[] = ['first-Pass-1', 'wrong-Pass-0', 'second-Pass-2', 'third-Pass-3', 'mailbox-owner']

describe('2FA scenario', () => {
	it('sets, verifies, changes, recovers by code and disables a password', async () => {
		type Name = keyof BuiltInCommands & string
		type Fields<A extends Name> = Omit<BuiltInCommands[A]['input'], 'userbot_id'>
		const ok = <A extends Name>(action: A, ...fields: [Fields<A>?]) =>
			client.send(action, { userbot_id: userbotId, ...fields[0] } as BuiltInCommands[A]['input'] & {
				userbot_id: number
			})
		/** The wire string of a command that must fail. */
		const errorOf = async <A extends Name>(action: A, ...fields: [Fields<A>?]) => {
			const failed = await ok(action, ...fields).then(
				() => undefined,
				(err: unknown) => err,
			)
			expect(failed).toBeInstanceOf(CommandFailed)
			return (failed as CommandFailed).error
		}

		expect(await ok('get_password_state')).toMatchObject({ has_password: false })
		expect(await errorOf('verify_2fa_password', { password: 'first-Pass-1' })).toBe(
			'2-step verification is not enabled',
		)

		// Set: with no password, the current one is not checked (but "" is a missing one).
		expect(await errorOf('change_2fa_password', { current_password: '', new_password: 'first-Pass-1' })).toBe(
			'current_password is required',
		)
		expect(
			await ok('change_2fa_password', {
				current_password: 'none yet',
				new_password: 'first-Pass-1',
				new_hint: 'one',
			}),
		).toMatchObject({ has_password: true, password_hint: 'one' })

		// Verify it, and a wrong one.
		expect(await ok('verify_2fa_password', { password: 'first-Pass-1' })).toEqual({ verified: true })
		expect(await errorOf('verify_2fa_password', { password: 'wrong-Pass-0' })).toBe('PASSWORD_HASH_INVALID')

		// Change it.
		expect(
			await ok('change_2fa_password', {
				current_password: 'first-Pass-1',
				new_password: 'second-Pass-2',
				new_hint: 'two',
			}),
		).toMatchObject({ has_password: true, password_hint: 'two' })
		expect(await errorOf('verify_2fa_password', { password: 'first-Pass-1' })).toBe('PASSWORD_HASH_INVALID')
		expect(await ok('verify_2fa_password', { password: 'second-Pass-2' })).toEqual({ verified: true })

		// A recovery address, pending until the code mailed there is confirmed.
		expect(
			await ok('change_2fa_recovery_email', {
				current_password: 'second-Pass-2',
				new_recovery_email_address: 'mailbox-owner@example.com',
			}),
		).toMatchObject({ has_recovery_email_address: false, recovery_email_address_code_info: { length: 6 } })
		const confirmation = await readMail(t, userbotId, 'mailbox-owner@example.com')
		secrets.push(confirmation)
		expect(await ok('check_recovery_email_address_code', { code: confirmation })).toMatchObject({
			has_recovery_email_address: true,
		})
		const state = await ok('get_password_state')
		expect(state).toMatchObject({ has_password: true, has_recovery_email_address: true })
		expect(state.recovery_email_address_code_info).toBeUndefined()

		// Recover by code: the password is forgotten.
		expect(await ok('request_password_recovery')).toEqual({
			_: 'emailAddressAuthenticationCodeInfo',
			email_address_pattern: 'm************@e******.com',
			length: 0,
		})
		const code = await readMail(t, userbotId, 'mailbox-owner@example.com')
		secrets.push(code)
		expect(await errorOf('check_password_recovery_code', { recovery_code: otherCode(code) })).toBe(
			'Invalid recovery code',
		)
		expect(await ok('check_password_recovery_code', { recovery_code: code })).toEqual({ recovery_code: code })
		expect(
			await ok('recover_password', { recovery_code: code, new_password: 'third-Pass-3', new_hint: 'three' }),
		).toMatchObject({ has_password: true, password_hint: 'three', has_recovery_email_address: true })
		expect(await errorOf('verify_2fa_password', { password: 'second-Pass-2' })).toBe('PASSWORD_HASH_INVALID')
		expect(await ok('verify_2fa_password', { password: 'third-Pass-3' })).toEqual({ verified: true })

		// Disable it.
		expect(await errorOf('disable_2fa_password', { current_password: 'second-Pass-2' })).toBe(
			'PASSWORD_HASH_INVALID',
		)
		expect(await ok('disable_2fa_password', { current_password: 'third-Pass-3' })).toMatchObject({
			has_password: false,
			password_hint: '',
			has_recovery_email_address: false,
		})
		expect(await errorOf('verify_2fa_password', { password: 'third-Pass-3' })).toBe(
			'2-step verification is not enabled',
		)
		expect(await errorOf('request_password_recovery')).toBe('PASSWORD_EMPTY')
	})

	it('wrote no password, code or e-mail address into any log line', () => {
		// The log is not empty (the supervisor's start, at least): the search below searches something.
		expect(logLines.some((line) => line.includes('supervisor ready'))).toBe(true)
		expect(secrets.length).toBe(7)
		for (const secret of secrets) expect(logLines.filter((line) => line.includes(secret))).toEqual([])
	})
})
