import { CommandError, defineCommand, documented, fields, optionalBool } from 'userbot-gateway/plugin'
import { SecurityErrors as E } from './errors'
import { optionalText, requiredString } from './strings'

/**
 * `change_2fa_password` → `setPassword`, or `setRecoveryEmailAddress` when only the address changes;
 * the raw `passwordState`.
 *
 * TDLib's setPassword always replaces the password and the hint: an omitted new password would remove
 * the password and an omitted hint clear it (tdlib-mapping §3, §8.7). So:
 * - `new_password` absent: only the recovery address may change (setRecoveryEmailAddress, which
 *   leaves password and hint alone); with nothing to change the command is refused.
 * - `new_password: ""` is refused: disable_2fa_password is the deliberate removal.
 * - A new password without `new_hint` gets no hint: a hint describes the password it was written for.
 * - A non-empty `new_recovery_email_address` is applied (it implies `set_recovery_email_address`; an
 *   explicit false beside it is a contradiction and refused); `set_recovery_email_address: true`
 *   without an address removes the recovery address; '' reads as no address, as an empty form field.
 * - With no password set, TDLib does not check `current_password`: a first password is set with
 *   `current_password: ""`.
 * A change that names a new address is held, whole, until the code mailed there is confirmed.
 */
export const change2faPassword = defineCommand({
	name: 'change_2fa_password',
	permission: 'security.password',
	checksSecret: true,
	summary: 'Sets or changes the 2FA password, its hint, its recovery address; never removes it.',
	result: { description: "TDLib's password state.", tdlib: 'passwordState' },
	errors: [E.EMAIL_FLAG_CONFLICT, E.HINT_WITHOUT_PASSWORD, E.NOTHING_TO_CHANGE, E.NEW_PASSWORD_EMPTY],
	examples: [{ current_password: 'secret-2fa', new_password: 'another secret', new_hint: 'the other one' }],
	methods: ['setPassword', 'setRecoveryEmailAddress'],
	input: fields({
		current_password: requiredString('current_password', E.CURRENT_PASSWORD_REQUIRED),
		new_password: optionalText('new_password'),
		new_hint: documented(optionalText('new_hint'), { default: '' }),
		set_recovery_email_address: optionalBool('set_recovery_email_address'),
		new_recovery_email_address: optionalText('new_recovery_email_address'),
	}),
	async run(input, ctx) {
		const address = input.new_recovery_email_address || undefined
		if (address !== undefined && input.set_recovery_email_address === false)
			throw new CommandError(E.EMAIL_FLAG_CONFLICT)
		const changeAddress = address !== undefined || input.set_recovery_email_address === true
		if (input.new_password === undefined) {
			if (input.new_hint !== undefined) throw new CommandError(E.HINT_WITHOUT_PASSWORD)
			if (!changeAddress) throw new CommandError(E.NOTHING_TO_CHANGE)
			return ctx.invoke({
				_: 'setRecoveryEmailAddress',
				password: input.current_password,
				new_recovery_email_address: address ?? '',
			})
		}
		if (input.new_password === '') throw new CommandError(E.NEW_PASSWORD_EMPTY)
		return ctx.invoke({
			_: 'setPassword',
			old_password: input.current_password,
			new_password: input.new_password,
			new_hint: input.new_hint ?? '',
			set_recovery_email_address: changeAddress,
			new_recovery_email_address: address ?? '',
		})
	},
})
