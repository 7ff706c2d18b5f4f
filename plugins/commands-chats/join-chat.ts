import { CommandError, defineCommand, fields, optionalInt } from 'userbot-gateway/plugin'
import { ChatsErrors as E } from './errors'
import { optionalText } from './strings'

/**
 * `join_chat {chat_id | username | invite_link}` → `joinChat`: the account becomes a member of a
 * public supergroup or channel. A `username` (`emulator_lounge`, `@emulator_lounge`) is resolved
 * first with `searchPublicChat`; a chat found by search_chats is joined by its id. An `invite_link`
 * (`https://t.me/+...`) joins through the link (`joinChatByInviteLink`), or sends a join request
 * where the link asks for one (`chat_id` 0 then: the chat is not joined yet).
 */
export const joinChat = defineCommand({
	name: 'join_chat',
	policy: { action: 'write' },
	summary: 'Joins a public supergroup or channel by its id or its username, or any chat by an invite link.',
	result: {
		description: "`{chat_id}` of the chat joined; TDLib's `chatJoinResult` beside it as `join_result`.",
	},
	errors: [E.CHAT_ID_OR_USERNAME, E.ONE_CHAT_TO_JOIN],
	examples: [
		{ chat_id: -1000000003001 },
		{ username: 'emulator_lounge' },
		{ invite_link: 'https://t.me/+AbCdEfGhIjKlMnOp' },
	],
	flood: 'join',
	methods: ['searchPublicChat', 'joinChat', 'createPrivateChat', 'joinChatByInviteLink'],
	input: fields({
		chat_id: optionalInt('chat_id'),
		username: optionalText('username'),
		invite_link: optionalText('invite_link'),
	}),
	run: async (input, ctx) => {
		const given = [input.chat_id, input.username, input.invite_link].filter((x) => x !== undefined)
		if (given.length > 1) throw new CommandError(E.ONE_CHAT_TO_JOIN)
		if (input.invite_link !== undefined) {
			const join_result = await ctx.invoke({ _: 'joinChatByInviteLink', invite_link: input.invite_link })
			return { chat_id: join_result._ === 'chatJoinResultSuccess' ? join_result.chat_id : 0, join_result }
		}
		let chatId = input.chat_id
		if (chatId === undefined) {
			if (!input.username) throw new CommandError(E.CHAT_ID_OR_USERNAME)
			chatId = (await ctx.invoke({ _: 'searchPublicChat', username: input.username })).id
		}
		const join_result = await ctx.invoke({ _: 'joinChat', chat_id: chatId })
		return { chat_id: chatId, join_result }
	},
})
