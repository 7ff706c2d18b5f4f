import { defineCommand, type UserbotService } from 'userbot-gateway/plugin'
import { wire, ws } from './wire'

/** `userbot_submit_password {password}` → `{authorization_state}` (`...Ready`). */
export const userbotSubmitPassword = (service: UserbotService) =>
	defineCommand({
		name: 'userbot_submit_password',
		policy: { action: 'write' },
		checksSecret: true,
		summary: "Log-in step: the account's 2FA password.",
		result: {
			description: 'The new log-in state (`authorizationStateReady`).',
			schema: {
				type: 'object',
				properties: {
					authorization_state: { type: 'string', description: "TDLib's authorization state type name" },
				},
				required: ['authorization_state'],
			},
		},
		errors: ['password is required'],
		examples: [{ password: 'secret-2fa' }],
		// Through the userbot service, which sends the log-in step itself.
		methods: [],
		input: ws.password,
		requiresAuthorization: false,
		run: (input, ctx) => wire(() => service.submitPassword(ctx.principal, ctx.userbotId, input.password)),
	})
