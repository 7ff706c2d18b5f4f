import { defineCommand, fields, requiredInt } from 'userbot-gateway/plugin'
import { ChatsErrors as E } from './errors'

/**
 * `read_chat {chat_id}`: marks the whole chat read, as a client does when it shows the newest
 * message: `getChat` for the last message, `viewMessages` of it with `force_read` (the gateway never
 * opens chats), then `getChat` again for the counts TDLib now holds.
 */
export const readChat = defineCommand({
	name: 'read_chat',
	policy: { action: 'write' },
	summary: 'Marks every message of a chat as read.',
	result: {
		description:
			'`{chat_id, unread_count, last_read_inbox_message_id}` after reading: `unread_count` is 0 once Telegram has it.',
	},
	examples: [{ chat_id: -1000000003001 }],
	methods: ['getChat', 'viewMessages', 'createPrivateChat'],
	input: fields({ chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED) }),
	run: async (input, ctx) => {
		const before = await ctx.invoke({ _: 'getChat', chat_id: input.chat_id })
		const last = before.last_message
		if (last && before.unread_count > 0) {
			await ctx.invoke({
				_: 'viewMessages',
				chat_id: input.chat_id,
				message_ids: [last.id],
				force_read: true,
			})
		}
		const after = last ? await ctx.invoke({ _: 'getChat', chat_id: input.chat_id }) : before
		return {
			chat_id: after.id,
			unread_count: after.unread_count,
			last_read_inbox_message_id: after.last_read_inbox_message_id,
		}
	},
})
