import { defineCommand, fields } from 'userbot-gateway/plugin'

/**
 * `get_password_state` → `getPasswordState`; the raw `passwordState`. A recovery e-mail change waiting
 * for its code shows as `recovery_email_address_code_info` (the address masked, as Telegram masks it).
 */
export const getPasswordState = defineCommand({
	name: 'get_password_state',
	policy: { action: 'read' },
	summary: 'Whether a 2FA password is set, its hint, the recovery address state.',
	result: { description: "TDLib's password state.", tdlib: 'passwordState' },
	examples: [{}],
	methods: ['getPasswordState'],
	input: fields({}),
	run: (_input, ctx) => ctx.invoke({ _: 'getPasswordState' }),
})
