import { defineCommand } from '../../../src/commands/define'
import type { UserbotService } from '../../../src/userbots/service'
import { wire, ws } from './wire'

/** `userbot_register {first_name, last_name?}`: names a new account (`...WaitRegistration`). */
export const userbotRegister = (service: UserbotService) =>
	defineCommand({
		name: 'userbot_register',
		// Through the userbot service, which sends the log-in step itself.
		methods: [],
		input: ws.registration,
		requiresAuthorization: false,
		run: (input, ctx) =>
			wire(() => service.submitRegistration(ctx.principal, ctx.userbotId, input.first_name, input.last_name)),
	})
