import { CommandError, defineCommand, fields, optionalInt } from 'userbot-gateway/plugin'
import { ChatsErrors as E } from './errors'
import { optionalText } from './strings'

/**
 * `join_chat {chat_id | username}` → `joinChat`: the account becomes a member of a public
 * supergroup or channel. A `username` (`emulator_lounge`, `@emulator_lounge`) is resolved first
 * with `searchPublicChat`; a chat found by search_chats is joined by its id.
 */
export const joinChat = defineCommand({
	name: 'join_chat',
	policy: { action: 'write' },
	summary: 'Joins a public supergroup or channel, by its id or its username.',
	result: {
		description: "`{chat_id}` of the chat joined; TDLib's `chatJoinResult` beside it as `join_result`.",
	},
	errors: [E.CHAT_ID_OR_USERNAME],
	examples: [{ chat_id: -1000000003001 }, { username: 'emulator_lounge' }],
	flood: 'join',
	methods: ['searchPublicChat', 'joinChat', 'createPrivateChat'],
	input: fields({
		chat_id: optionalInt('chat_id'),
		username: optionalText('username'),
	}),
	run: async (input, ctx) => {
		let chatId = input.chat_id
		if (chatId === undefined) {
			if (!input.username) throw new CommandError(E.CHAT_ID_OR_USERNAME)
			chatId = (await ctx.invoke({ _: 'searchPublicChat', username: input.username })).id
		}
		const join_result = await ctx.invoke({ _: 'joinChat', chat_id: chatId })
		return { chat_id: chatId, join_result }
	},
})
