import { defineCommand, fields, optionalBool, requiredInt } from 'userbot-gateway/plugin'
import { MessagesErrors as E } from './errors'

/** `pin_message` → `pinChatMessage`; result `{_: 'ok'}`. */
export const pinMessage = defineCommand({
	name: 'pin_message',
	methods: ['pinChatMessage'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		message_id: requiredInt('message_id', E.MESSAGE_ID_REQUIRED),
		disable_notification: optionalBool('disable_notification'),
		only_for_self: optionalBool('only_for_self'),
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
