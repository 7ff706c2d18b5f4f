import { defineCommand } from '../../../src/commands/define'
import type { UserbotService } from '../../../src/userbots/service'
import { wire, ws } from './wire'

/** `userbot_get_state` → `{authorization_state}`, the last state TDLib reported. */
export const userbotGetState = (service: UserbotService) =>
	defineCommand({
		name: 'userbot_get_state',
		// Through the userbot service, which sends the log-in step itself.
		methods: [],
		input: ws.none,
		requiresAuthorization: false,
		run: (_input, ctx) => wire(() => service.getState(ctx.principal, ctx.userbotId)),
	})
