import { defineCommand, documented, fields, optionalBool, requiredInt } from 'userbot-gateway/plugin'
import { MessagesErrors as E } from './errors'

/** `pin_message` → `pinChatMessage`; result `{_: 'ok'}`. */
export const pinMessage = defineCommand({
	name: 'pin_message',
	policy: { action: 'write' },
	summary: 'Pins a message in its chat.',
	result: { description: "TDLib's `ok`.", tdlib: 'ok' },
	examples: [{ chat_id: -1000000003001, message_id: 1048576, disable_notification: true }],
	methods: ['pinChatMessage', 'createPrivateChat'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		message_id: requiredInt('message_id', E.MESSAGE_ID_REQUIRED),
		disable_notification: documented(optionalBool('disable_notification'), { default: false }),
		only_for_self: documented(optionalBool('only_for_self'), { default: false }),
	}),
	run: (input, ctx) =>
		ctx.invoke({
			_: 'pinChatMessage',
			chat_id: input.chat_id,
			message_id: input.message_id,
			disable_notification: input.disable_notification ?? false,
			only_for_self: input.only_for_self ?? false,
		}),
})
