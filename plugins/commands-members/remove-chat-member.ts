import type { messageSenderUser$Input } from 'tdlib-types'
import {
	CommandError,
	defineCommand,
	documented,
	fields,
	optionalBool,
	RuntimeError,
	requiredInt,
	TdError,
	wordError,
} from 'userbot-gateway/plugin'
import { MembersErrors as E } from './errors'

/**
 * `remove_chat_member`: a kick, not a lasting ban: the user may come back (docs/tdlib-mapping.md#members).
 * `getChat`, then
 * - supergroup or channel: `setChatMemberStatus(Left)` (TDLib bans for a minute and lifts the ban a
 *   second later), and with `revoke_messages` `deleteChatMessagesBySender` in a supergroup; a channel's
 *   posts are the channel's, not the member's, so there is nothing of theirs to delete;
 * - any other chat: `banChatMember` until 0 with `revoke_messages`, which in a basic group is a kick
 *   that deletes the messages too (TDLib refuses it in private chats, in its words).
 * Result `{_: 'ok'}`. When the kick went through and the deletion did not, the error says so and
 * carries `{_: 'ok'}`, the kick's answer.
 */
export const removeChatMember = defineCommand({
	name: 'remove_chat_member',
	policy: { action: 'write', destructive: true },
	summary: 'Removes (kicks, not bans) a member; with `revoke_messages`, deletes their messages too.',
	result: { description: "TDLib's `ok`.", tdlib: 'ok' },
	errors: ['member removed, but their messages were not deleted: <TDLib message>'],
	examples: [{ chat_id: -1000000003001, user_id: 1005, revoke_messages: true }],
	methods: [
		'getChat',
		'setChatMemberStatus',
		'deleteChatMessagesBySender',
		'banChatMember',
		'createPrivateChat',
	],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		user_id: requiredInt('user_id', E.USER_ID_REQUIRED),
		revoke_messages: documented(optionalBool('revoke_messages'), { default: false }),
	}),
	async run(input, ctx) {
		const chat = await ctx.invoke({ _: 'getChat', chat_id: input.chat_id })
		const member: messageSenderUser$Input = { _: 'messageSenderUser', user_id: input.user_id }
		const revoke = input.revoke_messages ?? false
		if (chat.type._ !== 'chatTypeSupergroup') {
			return ctx.invoke({
				_: 'banChatMember',
				chat_id: input.chat_id,
				member_id: member,
				banned_until_date: 0,
				revoke_messages: revoke,
			})
		}
		const kicked = await ctx.invoke({
			_: 'setChatMemberStatus',
			chat_id: input.chat_id,
			member_id: member,
			status: { _: 'chatMemberStatusLeft' },
		})
		if (!revoke || chat.type.is_channel) return kicked
		try {
			await ctx.invoke({ _: 'deleteChatMessagesBySender', chat_id: input.chat_id, sender_id: member })
		} catch (err) {
			if (!(err instanceof TdError || err instanceof RuntimeError)) throw err
			throw new CommandError(E.messagesNotDeleted(wordError(err)), kicked)
		}
		return kicked
	},
})
