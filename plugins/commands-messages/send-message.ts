import type {
	InputMessageReplyTo$Input,
	MessageTopic$Input,
	messageSendOptions$Input,
	ReplyMarkup$Input,
} from 'tdlib-types'
import * as v from 'valibot'
import { type CommandContext, CommandError, defineCommand } from '../../src/commands/define'
import {
	fields,
	isObject,
	type JsonObject,
	optionalArray,
	optionalInt,
	optionalObject,
	optionalString,
	requiredInt,
	toInt,
} from '../../src/commands/fields'
import { formattedText, toTd, typeOf } from '../../src/commands/td-objects'
import { MessagesErrors as E } from './errors'
import { buildMediaContent, checkAlbumType, isMediaShape } from './media'

const MAX_ALBUM = 10

/** The `MessageTopic`s a message can be sent to, and each one's id field (1.8.65). */
const SENDABLE_TOPICS = {
	messageTopicThread: 'message_thread_id',
	messageTopicForum: 'forum_topic_id',
	messageTopicDirectMessages: 'direct_messages_chat_topic_id',
} as const
type SendableTopic = keyof typeof SENDABLE_TOPICS

/**
 * A raw `topic_id` (`@type` or `_`) as one of the sendable topics, or null. (TDLib itself refuses
 * `messageTopicSavedMessages` for sending.) Only the id field goes on; TDLib checks its value.
 */
function sendableTopic(x: unknown): MessageTopic$Input | null {
	const type = typeOf(x)
	if (type === undefined || !Object.hasOwn(SENDABLE_TOPICS, type) || !isObject(x)) return null
	const field = SENDABLE_TOPICS[type as SendableTopic]
	const id = toInt(x[field])
	if (id === undefined) return null
	return { _: type, [field]: id } as MessageTopic$Input
}

const topicId = v.optional(
	v.pipe(
		v.unknown(),
		v.transform(sendableTopic),
		v.check((t) => t !== null, E.TOPIC_ID_TYPE),
		v.transform((t) => t as MessageTopic$Input),
	),
)

export const SendMessageInput = fields({
	chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
	text: v.optional(v.unknown()),
	entities: optionalArray('entities'),
	message_thread_id: optionalInt('message_thread_id'),
	topic_id: topicId,
	reply_to: optionalObject('reply_to'),
	reply_to_message_id: optionalInt('reply_to_message_id'),
	options: optionalObject('options'),
	reply_markup: v.optional(v.unknown()),
	media: v.optional(v.pipe(v.unknown(), v.check(isMediaShape, E.MEDIA_MUST_BE_OBJECT))),
	media_type: optionalString('media_type'),
})
export type SendMessageInput = v.InferOutput<typeof SendMessageInput>

/** TDLib message ids are server ids × 2^20 (tdlib-mapping §0). */
const MESSAGE_ID_SHIFT = 2 ** 20

/**
 * The topic to send to. A raw `topic_id` goes as it is. A `message_thread_id` is a
 * `messageTopicForum` in a forum (its server id, `message_thread_id >> 20`; ids may pass 2^31, hence
 * no `>>`) and a `messageTopicThread` anywhere else, which takes `getChat` and, for a supergroup,
 * `getSupergroup(...).is_forum` (tdlib-mapping §1).
 */
export async function sendTopic(
	input: SendMessageInput,
	invoke: CommandContext['invoke'],
): Promise<MessageTopic$Input | undefined> {
	if (input.topic_id !== undefined) return input.topic_id
	const thread = input.message_thread_id
	if (!thread) return undefined
	const chat = await invoke({ _: 'getChat', chat_id: input.chat_id })
	if (chat.type._ === 'chatTypeSupergroup') {
		const supergroup = await invoke({ _: 'getSupergroup', supergroup_id: chat.type.supergroup_id })
		if (supergroup.is_forum) {
			return { _: 'messageTopicForum', forum_topic_id: Math.floor(thread / MESSAGE_ID_SHIFT) }
		}
	}
	return { _: 'messageTopicThread', message_thread_id: thread }
}

/** The envelope shared by `sendMessage` and `sendMessageAlbum` (topic, reply target, options). */
export async function sendEnvelope(
	input: SendMessageInput,
	invoke: CommandContext['invoke'],
): Promise<{
	chat_id: number
	topic_id?: MessageTopic$Input
	reply_to?: InputMessageReplyTo$Input
	options?: messageSendOptions$Input
}> {
	// Client objects are passed through after `toTd` (discriminator rewritten, local files refused).
	const replyTo = input.reply_to
		? (toTd(input.reply_to) as InputMessageReplyTo$Input)
		: input.reply_to_message_id
			? ({ _: 'inputMessageReplyToMessage', message_id: input.reply_to_message_id } as const)
			: undefined
	const options = input.options
		? ({ ...(toTd(input.options) as JsonObject), _: 'messageSendOptions' } as messageSendOptions$Input)
		: undefined
	return {
		chat_id: input.chat_id,
		// 1.8.65 has no message_thread_id on sendMessage: a thread or forum topic is a `topic_id`.
		topic_id: await sendTopic(input, invoke),
		reply_to: replyTo,
		options,
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
		// Honoured for bots only: TDLib drops it for user accounts (tdlib-mapping §0). Albums have none.
		const reply_markup =
			input.reply_markup === undefined ? undefined : (toTd(input.reply_markup) as ReplyMarkup$Input)
		const media = input.media
		if (media === undefined) {
			const text = formattedText(input.text, input.entities)
			return ctx.invoke({
				_: 'sendMessage',
				...(await sendEnvelope(input, ctx.invoke)),
				reply_markup,
				input_message_content: { _: 'inputMessageText', text },
			})
		}
		const items = (Array.isArray(media) ? media : [media]) as JsonObject[]
		const caption = { text: input.text, entities: input.entities }
		// The content is checked and built before the envelope's look-ups (getChat for a thread).
		if (items.length === 1 && isObject(items[0])) {
			const content = await buildMediaContent(items[0], input.media_type, ctx, caption)
			return ctx.invoke({
				_: 'sendMessage',
				...(await sendEnvelope(input, ctx.invoke)),
				reply_markup,
				input_message_content: content,
			})
		}
		if (items.length > MAX_ALBUM) throw new CommandError(E.ALBUM_TOO_LARGE)
		for (const item of items) checkAlbumType(item, input.media_type)
		const contents = await Promise.all(
			items.map((item, i) => buildMediaContent(item, input.media_type, ctx, i === 0 ? caption : {})),
		)
		return ctx.invoke({
			_: 'sendMessageAlbum',
			...(await sendEnvelope(input, ctx.invoke)),
			input_message_contents: contents,
		})
	},
})
