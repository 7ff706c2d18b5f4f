import { defineCommand, type UserbotService } from 'userbot-gateway/plugin'
import { wire, ws } from './wire'

/** `userbot_submit_code {code}` → `{authorization_state}` (`...WaitPassword` or `...Ready`). */
export const userbotSubmitCode = (service: UserbotService) =>
	defineCommand({
		name: 'userbot_submit_code',
		policy: { action: 'write' },
		checksSecret: true,
		summary: 'Log-in step: the code Telegram sent.',
		result: {
			description: 'The new log-in state (`...WaitPassword` or `...Ready`).',
			schema: {
				type: 'object',
				properties: {
					authorization_state: { type: 'string', description: "TDLib's authorization state type name" },
				},
				required: ['authorization_state'],
			},
		},
		errors: ['code is required', 'code must not contain control characters'],
		examples: [{ code: '22222' }],
		// Through the userbot service, which sends the log-in step itself.
		methods: [],
		input: ws.code,
		requiresAuthorization: false,
		run: (input, ctx) => wire(() => service.submitCode(ctx.principal, ctx.userbotId, input.code)),
	})
