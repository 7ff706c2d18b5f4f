import { defineCommand, fields } from 'userbot-gateway/plugin'
import { SecurityErrors as E } from './errors'
import { requiredString } from './strings'

/**
 * `change_2fa_recovery_email` → `setRecoveryEmailAddress`; the raw `passwordState`. A new address is
 * pending until the code mailed to it is confirmed with `check_recovery_email_address_code`
 * (`recovery_email_address_code_info` says so); the current address answers at once and cancels a
 * pending change.
 */
export const change2faRecoveryEmail = defineCommand({
	name: 'change_2fa_recovery_email',
	policy: { action: 'manage', permission: 'security.password' },
	audit: { action: 'twofa.recovery_email_changed' },
	checksSecret: true,
	summary: 'Changes the recovery address (pending until its code is confirmed).',
	result: { description: "TDLib's password state.", tdlib: 'passwordState' },
	examples: [{ current_password: 'secret-2fa', new_recovery_email_address: 'me@example.com' }],
	methods: ['setRecoveryEmailAddress'],
	input: fields({
		current_password: requiredString('current_password', E.CURRENT_PASSWORD_REQUIRED),
		new_recovery_email_address: requiredString('new_recovery_email_address', E.NEW_RECOVERY_EMAIL_REQUIRED),
	}),
	run: (input, ctx) =>
		ctx.invoke({
			_: 'setRecoveryEmailAddress',
			password: input.current_password,
			new_recovery_email_address: input.new_recovery_email_address,
		}),
})
