import { defineCommand, type UserbotService } from 'userbot-gateway/plugin'
import { wire, ws } from './wire'

/** `userbot_get_state` → `{authorization_state}`, the last state TDLib reported. */
export const userbotGetState = (service: UserbotService) =>
	defineCommand({
		name: 'userbot_get_state',
		policy: { action: 'read' },
		summary: "The userbot's last log-in state.",
		result: {
			description: '`{authorization_state}`.',
			schema: {
				type: 'object',
				properties: {
					authorization_state: { type: 'string', description: "TDLib's authorization state type name" },
				},
				required: ['authorization_state'],
			},
		},
		examples: [{}],
		// Through the userbot service, which sends the log-in step itself.
		methods: [],
		input: ws.none,
		requiresAuthorization: false,
		run: (_input, ctx) => wire(() => service.getState(ctx.principal, ctx.userbotId)),
	})
