import { defineCommand } from '../../../src/commands/define'
import type { UserbotService } from '../../../src/userbots/service'
import { wire, ws } from './wire'

/** `userbot_submit_phone {phone_number}` → `{authorization_state}` (usually `...WaitCode`). */
export const userbotSubmitPhone = (service: UserbotService) =>
	defineCommand({
		name: 'userbot_submit_phone',
		// Through the userbot service, which sends the log-in step itself.
		methods: [],
		input: ws.phone,
		requiresAuthorization: false,
		run: (input, ctx) => wire(() => service.submitPhone(ctx.principal, ctx.userbotId, input.phone_number)),
	})
