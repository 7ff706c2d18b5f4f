import { defineCommand, type UserbotService } from 'userbot-gateway/plugin'
import { wire, ws } from './wire'

/** `userbot_submit_phone {phone_number}` → `{authorization_state}` (usually `...WaitCode`). */
export const userbotSubmitPhone = (service: UserbotService) =>
	defineCommand({
		name: 'userbot_submit_phone',
		policy: { action: 'write' },
		summary: 'Log-in step: the phone number of the Telegram account.',
		result: {
			description: 'The new log-in state (usually `authorizationStateWaitCode`).',
			schema: {
				type: 'object',
				properties: {
					authorization_state: { type: 'string', description: "TDLib's authorization state type name" },
				},
				required: ['authorization_state'],
			},
		},
		errors: ['phone_number is required', 'phone_number must not contain control characters'],
		examples: [{ phone_number: '+9996621234' }],
		// Through the userbot service, which sends the log-in step itself.
		methods: [],
		input: ws.phone,
		requiresAuthorization: false,
		run: (input, ctx) => wire(() => service.submitPhone(ctx.principal, ctx.userbotId, input.phone_number)),
	})
