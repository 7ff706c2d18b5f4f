import { CommandError, defineCommand, documented, fields, optionalBool } from 'userbot-gateway/plugin'
import { SecurityErrors as E } from './errors'
import { optionalText, requiredString } from './strings'

/**
 * `change_2fa_password` → `setPassword`, or `setRecoveryEmailAddress` when only the address changes;
 * the raw `passwordState`.
 *
 * The protocol's defaults hold (docs/commands.md#commands-security): `set_recovery_email_address` is false
 * unless sent, and then `new_recovery_email_address` is not set and the new password applies at once. With
 * the flag true, a new address must be confirmed by the code Telegram mails to it, and the whole change (the
 * new password too) is held until then: the answer's `recovery_email_address_code_info` names the address
 * (masked, as Telegram masks it), and `check_recovery_email_address_code` finishes it.
 *
 * TDLib's setPassword always replaces the password and the hint: an omitted new password would remove
 * the password and an omitted hint clear it (docs/tdlib-mapping.md#security-and-two-step-verification). So:
 * - `new_password` absent: only the recovery address may change (setRecoveryEmailAddress, which
 *   leaves password and hint alone); with nothing to change the command is refused.
 * - `new_password: ""` is refused: disable_2fa_password is the deliberate removal.
 * - A new password without `new_hint` gets no hint: a hint describes the password it was written for.
 * - `set_recovery_email_address: true` with no address (or `""`) removes the recovery address.
 * - With no password set, TDLib does not check `current_password` (any non-empty string will do).
 */
export const change2faPassword = defineCommand({
	name: 'change_2fa_password',
	policy: { action: 'manage', permission: 'security.password' },
	audit: {
		action: 'twofa.changed',
		detail: (input) => ({
			password_changed: input.new_password !== undefined,
			recovery_email_changed: input.set_recovery_email_address === true,
		}),
	},
	checksSecret: true,
	summary:
		'Sets or changes the 2FA password, its hint, its recovery address (a new address: pending until confirmed).',
	result: {
		description:
			"TDLib's password state; with `recovery_email_address_code_info` the change waits for the code mailed to that address.",
		tdlib: 'passwordState',
	},
	errors: [E.HINT_WITHOUT_PASSWORD, E.NOTHING_TO_CHANGE, E.NEW_PASSWORD_EMPTY],
	examples: [
		{ current_password: 'secret-2fa', new_password: 'another secret', new_hint: 'the other one' },
		{
			current_password: 'secret-2fa',
			new_password: 'another secret',
			set_recovery_email_address: true,
			new_recovery_email_address: 'me@example.com',
		},
	],
	methods: ['setPassword', 'setRecoveryEmailAddress'],
	input: fields({
		current_password: requiredString('current_password', E.CURRENT_PASSWORD_REQUIRED),
		new_password: optionalText('new_password'),
		new_hint: documented(optionalText('new_hint'), { default: '' }),
		set_recovery_email_address: documented(optionalBool('set_recovery_email_address'), { default: false }),
		new_recovery_email_address: optionalText('new_recovery_email_address'),
	}),
	async run(input, ctx) {
		const setAddress = input.set_recovery_email_address === true
		const address = setAddress ? (input.new_recovery_email_address ?? '') : ''
		if (input.new_password === undefined) {
			if (input.new_hint !== undefined) throw new CommandError(E.HINT_WITHOUT_PASSWORD)
			if (!setAddress) throw new CommandError(E.NOTHING_TO_CHANGE)
			return ctx.invoke({
				_: 'setRecoveryEmailAddress',
				password: input.current_password,
				new_recovery_email_address: address,
			})
		}
		if (input.new_password === '') throw new CommandError(E.NEW_PASSWORD_EMPTY)
		return ctx.invoke({
			_: 'setPassword',
			old_password: input.current_password,
			new_password: input.new_password,
			new_hint: input.new_hint ?? '',
			set_recovery_email_address: setAddress,
			new_recovery_email_address: address,
		})
	},
})
