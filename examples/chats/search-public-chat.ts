import { defineCommand, fields, requiredString } from 'userbot-gateway/plugin'
import { ChatsErrors as E } from './errors'

/** `search_public_chat {username}` → `searchPublicChat`: a user, supergroup or channel by its public username. */
export const searchPublicChat = defineCommand({
	name: 'search_public_chat',
	policy: { action: 'read' },
	summary: 'Finds a public user, supergroup or channel by username (`@name` or `name`).',
	methods: ['searchPublicChat'],
	input: fields({
		username: requiredString('username', { missing: E.USERNAME_REQUIRED }),
	}),
	result: { description: "TDLib's chat object; the account can then send to it.", tdlib: 'chat' },
	examples: [{ username: '@emulator_news' }],
	run: (input, ctx) => ctx.invoke({ _: 'searchPublicChat', username: input.username }),
})
