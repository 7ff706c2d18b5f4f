import { CommandError, defineCommand, fields } from 'userbot-gateway/plugin'
import { SecurityErrors as E } from './errors'
import { requiredString } from './strings'

/**
 * `check_recovery_email_address_code` → `getPasswordState`, then `checkRecoveryEmailAddressCode`;
 * the raw `passwordState`. It finishes what `change_2fa_password` or `change_2fa_recovery_email` left
 * pending: the new address is confirmed, and a held password change applies with it.
 *
 * TDLib swallows Telegram's `CODE_INVALID` and `EMAIL_HASH_EXPIRED` here and answers the state, still
 * pending: that is answered as an error (with the state as `result`), never as a success. With
 * nothing pending there is nothing to confirm, which is said before any code is sent.
 */
export const checkRecoveryEmailAddressCode = defineCommand({
	name: 'check_recovery_email_address_code',
	policy: { action: 'manage', permission: 'security.password' },
	audit: { action: 'twofa.recovery_email_confirmed' },
	checksSecret: true,
	summary: 'Confirms a pending recovery address with the code mailed to it (a held password change applies).',
	result: {
		description: "TDLib's password state, the address confirmed; a wrong code's error carries the state.",
		tdlib: 'passwordState',
	},
	errors: [E.NOTHING_PENDING, E.CODE_NOT_ACCEPTED],
	examples: [{ code: '123456' }],
	methods: ['getPasswordState', 'checkRecoveryEmailAddressCode'],
	input: fields({ code: requiredString('code', E.CODE_REQUIRED) }),
	async run(input, ctx) {
		const before = await ctx.invoke({ _: 'getPasswordState' })
		if (!before.recovery_email_address_code_info) throw new CommandError(E.NOTHING_PENDING)
		const state = await ctx.invoke({ _: 'checkRecoveryEmailAddressCode', code: input.code })
		if (state.recovery_email_address_code_info) throw new CommandError(E.CODE_NOT_ACCEPTED, state)
		return state
	},
})
