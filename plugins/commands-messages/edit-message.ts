import {
	defineCommand,
	fields,
	formattedText,
	requiredInt,
	TEXT_ENTITY,
	tdListField,
	textField,
} from 'userbot-gateway/plugin'
import { MessagesErrors as E } from './errors'

/**
 * `edit_message` → `editMessageText`. The edit replaces text and entities, so `entities` is accepted
 * too (plain `text` alone clears the formatting). Result: TDLib's raw edited message.
 */
export const editMessage = defineCommand({
	name: 'edit_message',
	policy: { action: 'write' },
	summary: "Replaces a message's text (and its entities).",
	result: { description: "TDLib's edited message.", tdlib: 'message' },
	examples: [{ chat_id: -1000000003001, message_id: 1048576, text: 'Edited' }],
	methods: ['editMessageText', 'createPrivateChat'],
	input: fields({
		chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
		message_id: requiredInt('message_id', E.MESSAGE_ID_REQUIRED),
		text: textField('text'),
		entities: tdListField('entities', TEXT_ENTITY),
	}),
	run: (input, ctx) =>
		ctx.invoke({
			_: 'editMessageText',
			chat_id: input.chat_id,
			message_id: input.message_id,
			input_message_content: { _: 'inputMessageText', text: formattedText(input.text, input.entities) },
		}),
})
