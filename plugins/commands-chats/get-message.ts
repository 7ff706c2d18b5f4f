import { defineCommand, fields, requiredInt } from 'userbot-gateway/plugin'
import { ChatsErrors as E } from './errors'

/** `get_message {chat_id, message_id}` → `getMessage`. */
export const getMessage = defineCommand({
	name: 'get_message',
	policy: { action: 'read' },
	summary: 'One message of a chat.',
	result: { description: "TDLib's `message`.", tdlib: 'message' },
	examples: [{ chat_id: -1000000003001, message_id: 1048576 }],
	methods: ['getMessage', 'createPrivateChat'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		message_id: requiredInt('message_id', E.MESSAGE_ID_REQUIRED),
	}),
	run: (input, ctx) => ctx.invoke({ _: 'getMessage', chat_id: input.chat_id, message_id: input.message_id }),
})
