import {
	defineCommand,
	fields,
	formattedText,
	optionalInt,
	requiredInt,
	TEXT_ENTITY,
	tdListField,
	textField,
} from 'userbot-gateway/plugin'
import { MessagesErrors as E } from './errors'
import { SENT_UPDATES, waitSent, waitSentField } from './wait-sent'

/**
 * `reply_message` → `sendMessage` with `inputMessageReplyToMessage`; without `reply_to_message_id`
 * it is a plain message (docs/tdlib-mapping.md#messages). Result: TDLib's raw (temporary) message, or
 * with `wait_sent` the final one (wait-sent.ts).
 */
export const replyMessage = defineCommand({
	name: 'reply_message',
	policy: { action: 'write' },
	summary: 'Sends a text message in reply to another (a plain message without `reply_to_message_id`).',
	result: {
		description: "TDLib's temporary message; with `wait_sent`, the final one once Telegram has it.",
		tdlib: 'message',
	},
	examples: [
		{ chat_id: -1000000003001, reply_to_message_id: 1048576, text: 'Agreed' },
		{ chat_id: -1000000003001, reply_to_message_id: 1048576, text: 'Noted', wait_sent: true },
	],
	flood: 'send',
	methods: ['sendMessage', 'createPrivateChat'],
	updates: SENT_UPDATES,
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		reply_to_message_id: optionalInt('reply_to_message_id'),
		text: textField('text'),
		entities: tdListField('entities', TEXT_ENTITY),
		wait_sent: waitSentField,
	}),
	run: (input, ctx) => {
		const send = () =>
			ctx.invoke({
				_: 'sendMessage',
				chat_id: input.chat_id,
				reply_to: input.reply_to_message_id
					? { _: 'inputMessageReplyToMessage', message_id: input.reply_to_message_id }
					: undefined,
				input_message_content: { _: 'inputMessageText', text: formattedText(input.text, input.entities) },
			})
		return input.wait_sent ? waitSent(ctx, send) : send()
	},
})
