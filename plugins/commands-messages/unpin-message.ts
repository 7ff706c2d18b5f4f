import { defineCommand, fields, requiredInt } from 'userbot-gateway/plugin'
import { MessagesErrors as E } from './errors'

/** `unpin_message` → `unpinChatMessage`; result `{_: 'ok'}`. */
export const unpinMessage = defineCommand({
	name: 'unpin_message',
	policy: { action: 'write' },
	summary: 'Unpins a message.',
	result: { description: "TDLib's `ok`.", tdlib: 'ok' },
	examples: [{ chat_id: -1000000003001, message_id: 1048576 }],
	methods: ['unpinChatMessage', 'createPrivateChat'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		message_id: requiredInt('message_id', E.MESSAGE_ID_REQUIRED),
	}),
	run: (input, ctx) =>
		ctx.invoke({ _: 'unpinChatMessage', chat_id: input.chat_id, message_id: input.message_id }),
})
