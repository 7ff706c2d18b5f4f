import { defineCommand, fields } from 'userbot-gateway/plugin'

/**
 * `request_password_recovery` → `requestPasswordRecovery`: mails a recovery code to the confirmed
 * recovery address; the raw `emailAddressAuthenticationCodeInfo` (a masked pattern, length 0).
 */
export const requestPasswordRecovery = defineCommand({
	name: 'request_password_recovery',
	policy: { action: 'manage', permission: 'security.password' },
	summary: 'Mails a recovery code to the confirmed recovery address.',
	result: { description: 'Where the code went (masked).', tdlib: 'emailAddressAuthenticationCodeInfo' },
	examples: [{}],
	methods: ['requestPasswordRecovery'],
	input: fields({}),
	run: (_input, ctx) => ctx.invoke({ _: 'requestPasswordRecovery' }),
})
