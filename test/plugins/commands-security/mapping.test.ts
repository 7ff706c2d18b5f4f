import { describe, expect, it } from 'bun:test'
import * as v from 'valibot'
import { securityCommands } from '../../../plugins/commands-security'
import { TdError } from '../../../src/runtime/telegram/types'
import { CommandError } from '../../../src/server/commands/define'
import { type Answer, stubContext } from '../../helpers-stub'

/**
 * The exact TDLib requests each command builds (docs/tdlib-mapping.md#security-and-two-step-verification),
 * against a stub that records them: every field set explicitly, the dangerous defaults never sent, and what a
 * refusal sends (nothing).
 */

const STATE = { _: 'passwordState', has_password: true, password_hint: '' }

async function runCommand(name: string, frame: Record<string, unknown>, answer: Answer = () => STATE) {
	const { ctx, requests } = stubContext(answer)
	const command = securityCommands.commands.find((c) => c.name === name)!
	const parsed = v.safeParse(command.input, frame)
	if (!parsed.success) return { error: parsed.issues[0].message, requests }
	try {
		return { result: await command.run(parsed.output, ctx), requests }
	} catch (err) {
		if (err instanceof CommandError || err instanceof TdError)
			return { error: err.message, thrown: err, requests }
		throw err
	}
}

describe('security mapping onto TDLib 1.8.65', () => {
	it('declares the 11 commands of docs/commands.md#commands-security, the two that finish a recovery address, and their methods', () => {
		expect(Object.fromEntries(securityCommands.commands.map((c) => [c.name, c.methods]))).toEqual({
			get_password_state: ['getPasswordState'],
			get_account_ttl: ['getAccountTtl'],
			request_password_recovery: ['requestPasswordRecovery'],
			get_transfer_ownership_state: ['canTransferOwnership'],
			set_account_ttl: ['setAccountTtl'],
			check_password_recovery_code: ['checkPasswordRecoveryCode'],
			recover_password: ['recoverPassword'],
			verify_2fa_password: ['getPasswordState', 'getRecoveryEmailAddress'],
			change_2fa_password: ['setPassword', 'setRecoveryEmailAddress'],
			disable_2fa_password: ['setPassword'],
			change_2fa_recovery_email: ['setRecoveryEmailAddress'],
			check_recovery_email_address_code: ['getPasswordState', 'checkRecoveryEmailAddressCode'],
			resend_recovery_email_address_code: ['resendRecoveryEmailAddressCode'],
		})
	})

	it('set_account_ttl nests the days in ttl: accountTtl', async () => {
		const { requests, result } = await runCommand('set_account_ttl', { days: 90 }, () => ({ _: 'ok' }))
		expect(requests).toEqual([{ _: 'setAccountTtl', ttl: { _: 'accountTtl', days: 90 } }])
		expect(result).toEqual({ days: 90 })
	})

	it('verify_2fa_password: getPasswordState, then getRecoveryEmailAddress; the address is dropped', async () => {
		const answer: Answer = (req) =>
			req._ === 'getPasswordState'
				? STATE
				: { _: 'recoveryEmailAddress', recovery_email_address: 'secret.owner@example.com' }
		const { requests, result } = await runCommand('verify_2fa_password', { password: 'pw' }, answer)
		expect(requests).toEqual([{ _: 'getPasswordState' }, { _: 'getRecoveryEmailAddress', password: 'pw' }])
		expect(result).toEqual({ verified: true })
	})

	it('verify_2fa_password never sends the password when none is set', async () => {
		const { requests, error } = await runCommand('verify_2fa_password', { password: 'pw' }, () => ({
			...STATE,
			has_password: false,
		}))
		expect(requests).toEqual([{ _: 'getPasswordState' }])
		expect(error).toBe('2-step verification is not enabled')
	})

	it('change_2fa_password with a new password sends every setPassword field', async () => {
		const { requests } = await runCommand('change_2fa_password', {
			current_password: 'old',
			new_password: 'new',
		})
		expect(requests).toEqual([
			{
				_: 'setPassword',
				old_password: 'old',
				new_password: 'new',
				new_hint: '',
				set_recovery_email_address: false,
				new_recovery_email_address: '',
			},
		])
		// The spec's default: set_recovery_email_address false, so an address alone is not sent.
		for (const flag of [{}, { set_recovery_email_address: false }]) {
			const without = await runCommand('change_2fa_password', {
				current_password: 'old',
				new_password: 'new',
				new_recovery_email_address: 'm@example.com',
				...flag,
			})
			expect(without.requests).toEqual([
				{
					_: 'setPassword',
					old_password: 'old',
					new_password: 'new',
					new_hint: '',
					set_recovery_email_address: false,
					new_recovery_email_address: '',
				},
			])
		}
		const withMail = await runCommand('change_2fa_password', {
			current_password: 'old',
			new_password: 'new',
			new_hint: 'h',
			set_recovery_email_address: true,
			new_recovery_email_address: 'm@example.com',
		})
		expect(withMail.requests).toEqual([
			{
				_: 'setPassword',
				old_password: 'old',
				new_password: 'new',
				new_hint: 'h',
				set_recovery_email_address: true,
				new_recovery_email_address: 'm@example.com',
			},
		])
	})

	it('change_2fa_password without new_password goes to setRecoveryEmailAddress, never setPassword', async () => {
		const mail = await runCommand('change_2fa_password', {
			current_password: 'old',
			new_recovery_email_address: 'm@example.com',
			set_recovery_email_address: true,
		})
		expect(mail.requests).toEqual([
			{ _: 'setRecoveryEmailAddress', password: 'old', new_recovery_email_address: 'm@example.com' },
		])
		const removal = await runCommand('change_2fa_password', {
			current_password: 'old',
			set_recovery_email_address: true,
		})
		expect(removal.requests).toEqual([
			{ _: 'setRecoveryEmailAddress', password: 'old', new_recovery_email_address: '' },
		])
		for (const frame of [
			{ current_password: 'old' },
			{ current_password: 'old', new_password: '' },
			{ current_password: 'old', new_hint: 'h' },
			{ current_password: 'old', set_recovery_email_address: false },
			{ current_password: 'old', new_recovery_email_address: '' },
			{ current_password: 'old', new_recovery_email_address: 'm@example.com' },
		]) {
			const refused = await runCommand('change_2fa_password', frame)
			expect(refused.error).toBeString()
			expect(refused.requests).toEqual([])
		}
	})

	it('disable_2fa_password and recover_password send every field explicitly', async () => {
		expect((await runCommand('disable_2fa_password', { current_password: 'pw' })).requests).toEqual([
			{
				_: 'setPassword',
				old_password: 'pw',
				new_password: '',
				new_hint: '',
				set_recovery_email_address: false,
				new_recovery_email_address: '',
			},
		])
		expect(
			(await runCommand('recover_password', { recovery_code: '123456', new_password: 'n' })).requests,
		).toEqual([{ _: 'recoverPassword', recovery_code: '123456', new_password: 'n', new_hint: '' }])
		// Left out, the new password is TDLib's "none": the password is removed (the protocol has it optional).
		expect((await runCommand('recover_password', { recovery_code: '123456' })).requests).toEqual([
			{ _: 'recoverPassword', recovery_code: '123456', new_password: '', new_hint: '' },
		])
	})

	it('check_recovery_email_address_code asks what is pending first, and sends the code only then', async () => {
		const pending = {
			...STATE,
			recovery_email_address_code_info: {
				_: 'emailAddressAuthenticationCodeInfo',
				email_address_pattern: 'm***@e******.com',
				length: 6,
			},
		}
		const confirmed = await runCommand('check_recovery_email_address_code', { code: '123456' }, (req) =>
			req._ === 'getPasswordState' ? pending : STATE,
		)
		expect(confirmed.requests).toEqual([
			{ _: 'getPasswordState' },
			{ _: 'checkRecoveryEmailAddressCode', code: '123456' },
		])
		expect(confirmed.result).toEqual(STATE)
		// TDLib answers a wrong code with the state, still pending: an error, carrying that state.
		const wrong = await runCommand('check_recovery_email_address_code', { code: '000000' }, () => pending)
		expect(wrong.error).toBe(
			'code is invalid or expired; the recovery email address is still waiting for confirmation',
		)
		expect((wrong.thrown as CommandError).result).toEqual(pending)
		const nothing = await runCommand('check_recovery_email_address_code', { code: '123456' })
		expect(nothing).toMatchObject({
			error: 'no recovery email address is waiting for confirmation',
			requests: [{ _: 'getPasswordState' }],
		})
	})

	it('passes a TDLib error on untouched from every command', async () => {
		const frames: Record<string, Record<string, unknown>> = {
			get_password_state: {},
			get_account_ttl: {},
			request_password_recovery: {},
			get_transfer_ownership_state: {},
			set_account_ttl: { days: 30 },
			check_password_recovery_code: { recovery_code: '1' },
			recover_password: { recovery_code: '1', new_password: 'n' },
			verify_2fa_password: { password: 'p' },
			change_2fa_password: { current_password: 'p', new_password: 'n' },
			disable_2fa_password: { current_password: 'p' },
			change_2fa_recovery_email: { current_password: 'p', new_recovery_email_address: 'm@example.com' },
			check_recovery_email_address_code: { code: '123456' },
			resend_recovery_email_address_code: {},
		}
		const limit = new TdError(429, 'Too Many Requests: retry after 7')
		for (const command of securityCommands.commands) {
			const { thrown } = await runCommand(command.name, frames[command.name]!, () => {
				throw limit
			})
			expect(thrown).toBe(limit)
		}
	})
})
