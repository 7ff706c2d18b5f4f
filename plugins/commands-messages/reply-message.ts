import {
	defineCommand,
	fields,
	optionalInt,
	requiredInt,
	TEXT_ENTITY,
	tdListField,
	textField,
} from 'userbot-gateway/plugin'
import { MessagesErrors as E } from './errors'
import { parsedText, parseModeField } from './parse-mode'
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
		{ chat_id: -1000000003001, reply_to_message_id: 1048576, text: '<i>Noted</i>', parse_mode: 'HTML' },
	],
	flood: 'send',
	errors: [E.PARSE_MODE_TEXT, E.PARSE_MODE_ENTITIES],
	methods: ['sendMessage', 'parseTextEntities', 'createPrivateChat'],
	updates: SENT_UPDATES,
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		reply_to_message_id: optionalInt('reply_to_message_id'),
		text: textField('text'),
		entities: tdListField('entities', TEXT_ENTITY),
		parse_mode: parseModeField,
		wait_sent: waitSentField,
	}),
	async run(input, ctx) {
		// Parsed before anything is sent: TDLib's refusal of the markup sends nothing.
		const text = await parsedText(ctx, input.text, input.entities, input.parse_mode)
		const send = () =>
			ctx.invoke({
				_: 'sendMessage',
				chat_id: input.chat_id,
				reply_to: input.reply_to_message_id
					? { _: 'inputMessageReplyToMessage', message_id: input.reply_to_message_id }
					: undefined,
				input_message_content: { _: 'inputMessageText', text },
			})
		return input.wait_sent ? waitSent(ctx, send) : send()
	},
})
