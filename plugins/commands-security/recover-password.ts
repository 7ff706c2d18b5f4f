import { defineCommand, documented, fields } from 'userbot-gateway/plugin'
import { SecurityErrors as E } from './errors'
import { optionalText, requiredString } from './strings'

/**
 * `recover_password` → `recoverPassword`; the raw `passwordState`. `new_password` is optional, as
 * docs/commands.md#commands-security has it, and TDLib reads it left out (or `""`) as "remove the password":
 * recovery is the one way to remove a forgotten password. A new password without `new_hint` gets no hint.
 */
export const recoverPassword = defineCommand({
	name: 'recover_password',
	policy: { action: 'manage', permission: 'security.password' },
	audit: {
		action: 'twofa.recovered',
		detail: (input) => ({ password_changed: (input.new_password ?? '') !== '' }),
	},
	checksSecret: true,
	summary: 'Sets a new password with a recovery code; without new_password, removes the password.',
	result: { description: "TDLib's password state.", tdlib: 'passwordState' },
	examples: [{ recovery_code: '12345', new_password: 'a new secret', new_hint: 'the usual' }],
	methods: ['recoverPassword'],
	input: fields({
		recovery_code: requiredString('recovery_code', E.RECOVERY_CODE_REQUIRED),
		new_password: documented(optionalText('new_password'), {
			default: '',
			description: 'the new password; left out or empty, the password is removed',
		}),
		new_hint: documented(optionalText('new_hint'), { default: '' }),
	}),
	run: (input, ctx) =>
		ctx.invoke({
			_: 'recoverPassword',
			recovery_code: input.recovery_code,
			new_password: input.new_password ?? '',
			new_hint: input.new_hint ?? '',
		}),
})
