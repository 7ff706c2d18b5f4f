import { defineCommand, fields } from 'userbot-gateway/plugin'
import { SecurityErrors as E } from './errors'
import { requiredString } from './strings'

/** `check_password_recovery_code` → `checkPasswordRecoveryCode`; echoes `{recovery_code}`. */
export const checkPasswordRecoveryCode = defineCommand({
	name: 'check_password_recovery_code',
	policy: { action: 'manage', permission: 'security.password' },
	checksSecret: true,
	summary: 'Checks a recovery code without using it.',
	result: {
		description: 'An echo of the code.',
		schema: {
			type: 'object',
			properties: { recovery_code: { type: 'string' } },
			required: ['recovery_code'],
		},
	},
	examples: [{ recovery_code: '12345' }],
	methods: ['checkPasswordRecoveryCode'],
	input: fields({
		recovery_code: requiredString('recovery_code', E.RECOVERY_CODE_REQUIRED),
	}),
	async run(input, ctx) {
		await ctx.invoke({ _: 'checkPasswordRecoveryCode', recovery_code: input.recovery_code })
		return { recovery_code: input.recovery_code }
	},
})
