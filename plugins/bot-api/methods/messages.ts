import { badRequest } from '../answer'
import { messageOf, tdMessageId } from '../objects'
import { intOf, objectOf, stringOf } from '../params'
import { chatId, command, type Method, messageId } from './call'

/** Only plain text for now: `parse_mode` needs TDLib's parser on the command's side (docs/bot-api.md). */
function plainText(params: Record<string, unknown>): string {
	const mode = stringOf(params, 'parse_mode')
	if (mode !== undefined && mode !== '') throw badRequest('parse_mode is not supported yet')
	const text = stringOf(params, 'text')
	if (text === undefined || text === '') throw badRequest('message text is empty')
	return text
}

/** The message replied to: `reply_parameters.message_id`, or the older `reply_to_message_id`. */
function replyTo(params: Record<string, unknown>) {
	const reply = objectOf(params, 'reply_parameters')
	const id = reply ? intOf(reply, 'message_id') : intOf(params, 'reply_to_message_id')
	return id === undefined
		? {}
		: { reply_to: { _: 'inputMessageReplyToMessage', message_id: tdMessageId(id) } }
}

/** Sending, editing and deleting messages (docs/bot-api.md#methods). */
export const MESSAGE_METHODS: Readonly<Record<string, Method>> = {
	sendMessage: async (call) => {
		const { params } = call
		const input = { chat_id: chatId(params), text: plainText(params), ...replyTo(params), wait_sent: true }
		return messageOf(await command(call, 'send_message', input))
	},
	deleteMessage: async (call) => {
		const { params } = call
		await command(call, 'delete_messages', {
			chat_id: chatId(params),
			message_ids: [messageId(params)],
			revoke: true,
		})
		return true
	},
	editMessageText: async (call) => {
		const { params } = call
		if (params.inline_message_id !== undefined) throw badRequest('inline messages are only for bots')
		const input = { chat_id: chatId(params), message_id: messageId(params), text: plainText(params) }
		return messageOf(await command(call, 'edit_message', input))
	},
}
