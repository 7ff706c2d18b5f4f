import { defineCommand, type UserbotService } from 'userbot-gateway/plugin'
import { wire, ws } from './wire'

/** `userbot_request_qr` → `{link}`: a `tg://login?token=...` link to show as a QR code. */
export const userbotRequestQr = (service: UserbotService) =>
	defineCommand({
		name: 'userbot_request_qr',
		policy: { action: 'write' },
		summary: 'Log-in by QR code: a `tg://login?token=...` link to show as one.',
		result: {
			description: '`{link}`.',
			schema: { type: 'object', properties: { link: { type: 'string' } }, required: ['link'] },
		},
		examples: [{}],
		// Through the userbot service, which sends the log-in step itself.
		methods: [],
		input: ws.none,
		requiresAuthorization: false,
		run: (_input, ctx) => wire(() => service.requestQr(ctx.principal, ctx.userbotId)),
	})
