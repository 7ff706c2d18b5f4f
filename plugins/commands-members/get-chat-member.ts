import { defineCommand, fields, requiredInt } from 'userbot-gateway/plugin'
import { MembersErrors as E } from './errors'

/**
 * `get_chat_member {chat_id, user_id}` → `getChatMember`: one user's status in a chat (creator,
 * administrator with its rights, member, restricted with its permissions, left, banned), whether or
 * not they are a member now.
 */
export const getChatMember = defineCommand({
	name: 'get_chat_member',
	policy: { action: 'read' },
	summary: "One user's status in a chat: rights, restrictions, ban.",
	result: { description: "TDLib's `chatMember`.", tdlib: 'chatMember' },
	examples: [{ chat_id: -1000000003001, user_id: 1003 }],
	methods: ['getChatMember', 'createPrivateChat'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		user_id: requiredInt('user_id', E.USER_ID_REQUIRED),
	}),
	run: (input, ctx) =>
		ctx.invoke({
			_: 'getChatMember',
			chat_id: input.chat_id,
			member_id: { _: 'messageSenderUser', user_id: input.user_id },
		}),
})
