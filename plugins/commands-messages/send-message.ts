import type {
	InputMessageReplyTo$Input,
	MessageTopic$Input,
	messageSendOptions$Input,
	ReplyMarkup$Input,
} from 'tdlib-types'
import * as v from 'valibot'
import { CommandError, defineCommand } from '../../src/commands/define'
import {
	fields,
	isObject,
	type JsonObject,
	optionalArray,
	optionalInt,
	optionalObject,
	optionalString,
	requiredInt,
} from '../../src/commands/fields'
import { formattedText, toTd } from '../../src/commands/td-objects'
import { MessagesErrors as E } from './errors'
import { buildMediaContent, checkAlbumType, isMediaShape } from './media'

const MAX_ALBUM = 10

export const SendMessageInput = fields({
	chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
	text: v.optional(v.unknown()),
	entities: optionalArray('entities'),
	message_thread_id: optionalInt('message_thread_id'),
	reply_to: optionalObject('reply_to'),
	reply_to_message_id: optionalInt('reply_to_message_id'),
	options: optionalObject('options'),
	reply_markup: v.optional(v.unknown()),
	media: v.optional(v.pipe(v.unknown(), v.check(isMediaShape, E.MEDIA_MUST_BE_OBJECT))),
	media_type: optionalString('media_type'),
})
export type SendMessageInput = v.InferOutput<typeof SendMessageInput>

/** The envelope shared by `sendMessage` and `sendMessageAlbum` (topic, reply target, options). */
export function sendEnvelope(input: SendMessageInput): {
	chat_id: number
	topic_id?: MessageTopic$Input
	reply_to?: InputMessageReplyTo$Input
	options?: messageSendOptions$Input
} {
	// Client objects are passed through after `toTd` (discriminator rewritten, local files refused).
	const replyTo = input.reply_to
		? (toTd(input.reply_to) as InputMessageReplyTo$Input)
		: input.reply_to_message_id
			? ({ _: 'inputMessageReplyToMessage', message_id: input.reply_to_message_id } as const)
			: undefined
	return {
		chat_id: input.chat_id,
		// 1.8.65 has no message_thread_id on sendMessage: a thread is a `messageTopicThread` topic.
		topic_id: input.message_thread_id
			? ({ _: 'messageTopicThread', message_thread_id: input.message_thread_id } as const)
			: undefined,
		reply_to: replyTo,
		options: input.options
			? ({ ...(toTd(input.options) as JsonObject), _: 'messageSendOptions' } as messageSendOptions$Input)
			: undefined,
	}
}

/**
 * `send_message`: a text message (`inputMessageText`), one media item (`sendMessage`), or 2 to 10
 * items as an album (`sendMessageAlbum`). The result is TDLib's raw (temporary) message(s).
 */
export const sendMessage = defineCommand({
	name: 'send_message',
	input: SendMessageInput,
	async run(input, ctx) {
		const envelope = sendEnvelope(input)
		// Honoured for bots only: TDLib drops it for user accounts (tdlib-mapping §0). Albums have none.
		const reply_markup =
			input.reply_markup === undefined ? undefined : (toTd(input.reply_markup) as ReplyMarkup$Input)
		const media = input.media
		if (media === undefined) {
			return ctx.invoke({
				_: 'sendMessage',
				...envelope,
				reply_markup,
				input_message_content: { _: 'inputMessageText', text: formattedText(input.text, input.entities) },
			})
		}
		const items = (Array.isArray(media) ? media : [media]) as JsonObject[]
		const caption = { text: input.text, entities: input.entities }
		if (items.length === 1 && isObject(items[0])) {
			return ctx.invoke({
				_: 'sendMessage',
				...envelope,
				reply_markup,
				input_message_content: await buildMediaContent(items[0], input.media_type, ctx, caption),
			})
		}
		if (items.length > MAX_ALBUM) throw new CommandError(E.ALBUM_TOO_LARGE)
		for (const item of items) checkAlbumType(item, input.media_type)
		const contents = await Promise.all(
			items.map((item, i) => buildMediaContent(item, input.media_type, ctx, i === 0 ? caption : {})),
		)
		return ctx.invoke({
			_: 'sendMessageAlbum',
			...envelope,
			input_message_contents: contents,
		})
	},
})
