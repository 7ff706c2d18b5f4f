import { CommandError, defineCommand, fields } from 'userbot-gateway/plugin'
import { SecurityErrors as E } from './errors'
import { requiredString } from './strings'

/**
 * `verify_2fa_password` → `getPasswordState`, then `getRecoveryEmailAddress {password}` (TDLib 1.8.65
 * has no checkPassword; that method's doc names it the way to verify a password). With no password
 * set TDLib accepts any password there, so that case is refused first. The answer is `{verified:
 * true}` only: the recovery address TDLib returns never leaves this function. A wrong password is
 * TDLib's `PASSWORD_HASH_INVALID`.
 */
export const verify2faPassword = defineCommand({
	name: 'verify_2fa_password',
	policy: { action: 'manage', permission: 'security.password' },
	checksSecret: true,
	summary: 'Checks the 2FA password.',
	result: {
		description: "`{verified: true}`; a wrong password is TDLib's `PASSWORD_HASH_INVALID`.",
		schema: { type: 'object', properties: { verified: { const: true } }, required: ['verified'] },
	},
	errors: [E.NOT_ENABLED],
	examples: [{ password: 'secret-2fa' }],
	methods: ['getPasswordState', 'getRecoveryEmailAddress'],
	input: fields({ password: requiredString('password', E.PASSWORD_REQUIRED) }),
	async run(input, ctx) {
		const state = await ctx.invoke({ _: 'getPasswordState' })
		if (!state.has_password) throw new CommandError(E.NOT_ENABLED)
		await ctx.invoke({ _: 'getRecoveryEmailAddress', password: input.password })
		return { verified: true }
	},
})
