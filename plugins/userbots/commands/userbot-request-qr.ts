import { defineCommand } from '../../../src/commands/define'
import type { UserbotService } from '../../../src/userbots/service'
import { wire, ws } from './wire'

/** `userbot_request_qr` → `{link}`: a `tg://login?token=...` link to show as a QR code. */
export const userbotRequestQr = (service: UserbotService) =>
	defineCommand({
		name: 'userbot_request_qr',
		// Through the userbot service, which sends the log-in step itself.
		methods: [],
		input: ws.none,
		requiresAuthorization: false,
		run: (_input, ctx) => wire(() => service.requestQr(ctx.principal, ctx.userbotId)),
	})
