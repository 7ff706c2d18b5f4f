import { CommandError, defineCommand, fields } from 'userbot-gateway/plugin'
import { SecurityErrors as E } from './errors'

/**
 * `resend_recovery_email_address_code` → `resendRecoveryEmailAddressCode`; the raw `passwordState`,
 * still pending, a new code on its way to the address it names. TDLib swallows Telegram's
 * `EMAIL_HASH_EXPIRED` here and answers the state: a state with nothing pending means no code went
 * out, which is answered as an error rather than a success.
 */
export const resendRecoveryEmailAddressCode = defineCommand({
	name: 'resend_recovery_email_address_code',
	policy: { action: 'manage', permission: 'security.password' },
	summary: 'Mails a new code to the recovery address waiting for confirmation.',
	result: {
		description: "TDLib's password state; `recovery_email_address_code_info` names where the code went.",
		tdlib: 'passwordState',
	},
	errors: [E.NOTHING_PENDING],
	examples: [{}],
	methods: ['resendRecoveryEmailAddressCode'],
	input: fields({}),
	async run(_input, ctx) {
		const state = await ctx.invoke({ _: 'resendRecoveryEmailAddressCode' })
		if (!state.recovery_email_address_code_info) throw new CommandError(E.NOTHING_PENDING, state)
		return state
	},
})
