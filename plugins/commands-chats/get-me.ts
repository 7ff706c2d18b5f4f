import { defineCommand, fields } from 'userbot-gateway/plugin'

/** `get_me` → `getMe`: who the userbot's account is. */
export const getMe = defineCommand({
	name: 'get_me',
	policy: { action: 'read' },
	summary: "The userbot's own Telegram user.",
	result: { description: "TDLib's `user` of the account.", tdlib: 'user' },
	examples: [{}],
	methods: ['getMe'],
	input: fields({}),
	run: (_input, ctx) => ctx.invoke({ _: 'getMe' }),
})
