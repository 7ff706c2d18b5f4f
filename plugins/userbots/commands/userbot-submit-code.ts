import { defineCommand } from '../../../src/commands/define'
import type { UserbotService } from '../../../src/userbots/service'
import { wire, ws } from './wire'

/** `userbot_submit_code {code}` → `{authorization_state}` (`...WaitPassword` or `...Ready`). */
export const userbotSubmitCode = (service: UserbotService) =>
	defineCommand({
		name: 'userbot_submit_code',
		// Through the userbot service, which sends the log-in step itself.
		methods: [],
		input: ws.code,
		requiresAuthorization: false,
		run: (input, ctx) => wire(() => service.submitCode(ctx.principal, ctx.userbotId, input.code)),
	})
