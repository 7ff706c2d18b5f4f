import { defineCommand, fields } from 'userbot-gateway/plugin'
import { SecurityErrors as E } from './errors'
import { requiredString } from './strings'

/**
 * `disable_2fa_password` → `setPassword` with an empty new password: the deliberate removal of the
 * password (and, with it, of the recovery e-mail address). The raw `passwordState`.
 */
export const disable2faPassword = defineCommand({
	name: 'disable_2fa_password',
	policy: { action: 'manage', permission: 'security.password', destructive: true },
	audit: { action: 'twofa.disabled' },
	checksSecret: true,
	summary: 'Removes the 2FA password (and the recovery address with it).',
	result: { description: "TDLib's password state.", tdlib: 'passwordState' },
	examples: [{ current_password: 'secret-2fa' }],
	methods: ['setPassword'],
	input: fields({ current_password: requiredString('current_password', E.CURRENT_PASSWORD_REQUIRED) }),
	run: (input, ctx) =>
		ctx.invoke({
			_: 'setPassword',
			old_password: input.current_password,
			new_password: '',
			new_hint: '',
			set_recovery_email_address: false,
			new_recovery_email_address: '',
		}),
})
