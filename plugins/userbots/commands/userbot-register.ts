import { defineCommand, type UserbotService } from 'userbot-gateway/plugin'
import { wire, ws } from './wire'

/** `userbot_register {first_name, last_name?}`: names a new account (`...WaitRegistration`). */
export const userbotRegister = (service: UserbotService) =>
	defineCommand({
		name: 'userbot_register',
		policy: { action: 'write' },
		summary: 'Log-in step: names a new Telegram account.',
		result: {
			description: 'The new log-in state.',
			schema: {
				type: 'object',
				properties: {
					authorization_state: { type: 'string', description: "TDLib's authorization state type name" },
				},
				required: ['authorization_state'],
			},
		},
		errors: ['first_name is required'],
		examples: [{ first_name: 'Ann', last_name: 'Lee' }],
		// Through the userbot service, which sends the log-in step itself.
		methods: [],
		input: ws.registration,
		requiresAuthorization: false,
		run: (input, ctx) =>
			wire(() => service.submitRegistration(ctx.principal, ctx.userbotId, input.first_name, input.last_name)),
	})
