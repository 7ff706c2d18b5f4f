import {
	type CommandContext,
	CommandError,
	defineCommand,
	documented,
	fields,
	optionalBool,
	optionalInt,
	TdError,
} from 'userbot-gateway/plugin'
import { ChatsErrors as E } from './errors'
import { optionalText } from './strings'

/** The server's words for a username nobody holds (contacts.resolveUsername). */
const NO_SUCH_USERNAME: ReadonlySet<string> = new Set(['USERNAME_NOT_OCCUPIED', 'USERNAME_INVALID'])

async function byUsername(username: string, ctx: CommandContext) {
	try {
		return await ctx.invoke({ _: 'searchPublicChat', username })
	} catch (err) {
		if (err instanceof TdError && NO_SUCH_USERNAME.has(err.message))
			throw new CommandError(E.USERNAME_UNKNOWN)
		throw err
	}
}

/**
 * `get_chat {chat_id | username, full_info?}` → `getChat`, or `searchPublicChat` for a public
 * `username` (`@` optional: a user's or a public group's chat, which TDLib knows from then on); with `full_info`, the chat's full info beside it:
 * `full_info` (TDLib's `userFullInfo`, `basicGroupFullInfo` or `supergroupFullInfo`) and the object
 * the chat stands for (`user` or `supergroup`: names, usernames, forum), as the Bot API's getChat
 * needs them (docs/bot-api.md).
 */
export const getChat = defineCommand({
	name: 'get_chat',
	policy: { action: 'read' },
	summary: 'One chat: title, type, unread count, last message, photo; with full_info, its profile too.',
	result: {
		description:
			"TDLib's `chat`; with `full_info`, beside its fields `full_info` (TDLib's `userFullInfo`, `basicGroupFullInfo` or `supergroupFullInfo`) and `user` or `supergroup`.",
		tdlib: 'chat',
	},
	errors: [E.CHAT_ID_REQUIRED, E.ONE_CHAT, E.USERNAME_UNKNOWN],
	examples: [
		{ chat_id: -1000000003001 },
		{ chat_id: 1001, full_info: true },
		{ username: 'emulator_lounge' },
	],
	methods: [
		'getChat',
		'createPrivateChat',
		'searchPublicChat',
		'getUser',
		'getUserFullInfo',
		'getBasicGroupFullInfo',
		'getSupergroup',
		'getSupergroupFullInfo',
	],
	input: fields({
		chat_id: optionalInt('chat_id'),
		username: optionalText('username'),
		full_info: documented(optionalBool('full_info'), { default: false }),
	}),
	run: async (input, ctx) => {
		if (input.chat_id !== undefined && input.username !== undefined) throw new CommandError(E.ONE_CHAT)
		if (input.chat_id === undefined && !input.username) throw new CommandError(E.CHAT_ID_REQUIRED)
		const chat =
			input.chat_id === undefined
				? await byUsername(input.username ?? '', ctx)
				: await ctx.invoke({ _: 'getChat', chat_id: input.chat_id })
		if (!input.full_info) return chat
		const type = chat.type
		switch (type._) {
			case 'chatTypePrivate':
			case 'chatTypeSecret': {
				const user = await ctx.invoke({ _: 'getUser', user_id: type.user_id })
				const full_info = await ctx.invoke({ _: 'getUserFullInfo', user_id: type.user_id })
				return { ...chat, full_info, user }
			}
			case 'chatTypeBasicGroup': {
				const full_info = await ctx.invoke({
					_: 'getBasicGroupFullInfo',
					basic_group_id: type.basic_group_id,
				})
				return { ...chat, full_info }
			}
			default: {
				const supergroup = await ctx.invoke({ _: 'getSupergroup', supergroup_id: type.supergroup_id })
				const full_info = await ctx.invoke({ _: 'getSupergroupFullInfo', supergroup_id: type.supergroup_id })
				return { ...chat, full_info, supergroup }
			}
		}
	},
})
