import * as v from 'valibot'
import { defineCommand, fields, formattedText, optionalInt, requiredInt } from './deps'
import { MessagesErrors as E } from './errors'

/**
 * `reply_message` → `sendMessage` with `inputMessageReplyToMessage`; without `reply_to_message_id`
 * it is a plain message (tdlib-mapping §1). Result: TDLib's raw (temporary) message.
 */
export const replyMessage = defineCommand({
	name: 'reply_message',
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		reply_to_message_id: optionalInt('reply_to_message_id'),
		text: v.optional(v.unknown()),
		entities: v.optional(v.unknown()),
	}),
	run: (input, ctx) =>
		ctx.invoke({
			_: 'sendMessage',
			chat_id: input.chat_id,
			reply_to: input.reply_to_message_id
				? { _: 'inputMessageReplyToMessage', message_id: input.reply_to_message_id }
				: undefined,
			input_message_content: { _: 'inputMessageText', text: formattedText(input.text, input.entities) },
		}),
})
