import { defineCommand, documented, fields } from 'userbot-gateway/plugin'
import { SecurityErrors as E } from './errors'
import { optionalText, requiredString } from './strings'

/**
 * `recover_password` → `recoverPassword`; the raw `passwordState`. TDLib reads an empty new password
 * as "remove the password", so an omitted `new_password` is refused rather than defaulted to '':
 * removing the password by recovery (the one way without knowing it) takes an explicit
 * `new_password: ""`. A new password without `new_hint` gets no hint.
 */
export const recoverPassword = defineCommand({
	name: 'recover_password',
	permission: 'security.password',
	checksSecret: true,
	summary: 'Sets a new password with a recovery code (an explicit empty one removes it).',
	result: { description: "TDLib's password state.", tdlib: 'passwordState' },
	examples: [{ recovery_code: '12345', new_password: 'a new secret', new_hint: 'the usual' }],
	methods: ['recoverPassword'],
	input: fields({
		recovery_code: requiredString('recovery_code', E.RECOVERY_CODE_REQUIRED, E.RECOVERY_CODE_EMPTY),
		new_password: requiredString('new_password', E.NEW_PASSWORD_REQUIRED),
		new_hint: documented(optionalText('new_hint'), { default: '' }),
	}),
	run: (input, ctx) =>
		ctx.invoke({
			_: 'recoverPassword',
			recovery_code: input.recovery_code,
			new_password: input.new_password,
			new_hint: input.new_hint ?? '',
		}),
})
