import { defineCommand, fields, requiredInt } from 'userbot-gateway/plugin'
import { ChatsErrors as E } from './errors'

/** `get_chat {chat_id}` → `getChat`. */
export const getChat = defineCommand({
	name: 'get_chat',
	policy: { action: 'read' },
	summary: 'One chat: title, type, unread count, last message, photo.',
	result: { description: "TDLib's `chat`.", tdlib: 'chat' },
	examples: [{ chat_id: -1000000003001 }],
	methods: ['getChat', 'createPrivateChat'],
	input: fields({ chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED) }),
	run: (input, ctx) => ctx.invoke({ _: 'getChat', chat_id: input.chat_id }),
})
