import type {
	InputMessageReplyTo$Input,
	MessageTopic$Input,
	messageSendOptions$Input,
	ReplyMarkup$Input,
} from 'tdlib-types'
import {
	type CommandContext,
	CommandError,
	defineCommand,
	documented,
	fields,
	isObject,
	type JsonObject,
	optionalInt,
	optionalString,
	tdObjectField,
	tdSlot,
} from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { MessagesErrors as E } from './errors'
import { buildMediaContent, checkAlbumType, isMediaShape, MEDIA_TYPES } from './media'
import { parsedText, parseModeField } from './parse-mode'
import { RECIPIENT_ERRORS, RECIPIENT_FIELDS, RECIPIENT_METHODS, recipientChat } from './recipient'
import { entitiesInput, linkPreviewInput, textInput } from './text-fields'
import { SENT_UPDATES, waitSent, waitSentField } from './wait-sent'

const MAX_ALBUM = 10

/** A media item's fields, for the catalog (media.ts reads them). */
const MEDIA_PROPERTIES = {
	file: {
		description:
			'an http(s) URL or a Telegram remote file id, a TDLib file id, or {"upload": "<name>"} of POST /api/userbots/{id}/files/',
	},
	media_type: { enum: [...MEDIA_TYPES], default: 'document' },
	caption: { type: 'string' },
}

/**
 * The client's TDLib objects, each checked against TDLib 1.8.65 for its field (src/server/commands/td-objects):
 * the topics a message can be sent to (TDLib itself refuses `messageTopicSavedMessages` for sending),
 * reply targets, send options and reply markup, with whatever they nest.
 */
const TOPIC = tdSlot('MessageTopic', {
	only: ['messageTopicThread', 'messageTopicForum', 'messageTopicDirectMessages'],
})
const REPLY_TO = tdSlot('InputMessageReplyTo')
const SEND_OPTIONS = tdSlot('messageSendOptions')
const REPLY_MARKUP = tdSlot('ReplyMarkup')

export const SendMessageInput = fields({
	...RECIPIENT_FIELDS,
	text: textInput,
	entities: entitiesInput,
	parse_mode: parseModeField,
	link_preview_options: linkPreviewInput,
	message_thread_id: optionalInt('message_thread_id'),
	topic_id: tdObjectField<MessageTopic$Input>('topic_id', TOPIC, { message: E.TOPIC_ID_TYPE }),
	reply_to: tdObjectField<InputMessageReplyTo$Input>('reply_to', REPLY_TO),
	reply_to_message_id: optionalInt('reply_to_message_id'),
	options: tdObjectField<messageSendOptions$Input>('options', SEND_OPTIONS),
	reply_markup: tdObjectField<ReplyMarkup$Input>('reply_markup', REPLY_MARKUP),
	media: v.optional(
		v.pipe(
			documented(v.unknown(), {
				anyOf: [
					{ type: 'object', properties: MEDIA_PROPERTIES },
					{
						type: 'array',
						items: { type: 'object', properties: MEDIA_PROPERTIES },
						minItems: 2,
						maxItems: MAX_ALBUM,
					},
				],
				description: 'one media item, or 2 to 10 for an album (photo, video, document and audio only)',
			}),
			v.check(isMediaShape, E.MEDIA_MUST_BE_OBJECT),
		),
	),
	media_type: documented(optionalString('media_type'), { enum: [...MEDIA_TYPES], default: 'document' }),
	wait_sent: waitSentField,
})
/** The input once its recipient is a chat id (recipient.ts). */
export type SendMessageInput = v.InferOutput<typeof SendMessageInput> & { chat_id: number }

/** TDLib message ids are server ids × 2^20 (docs/tdlib-mapping.md#conventions). */
const MESSAGE_ID_SHIFT = 2 ** 20

/**
 * The topic to send to. A raw `topic_id` goes as it is. A `message_thread_id` is a
 * `messageTopicForum` in a forum (its server id, `message_thread_id >> 20`; ids may pass 2^31, hence
 * no `>>`) and a `messageTopicThread` anywhere else, which takes `getChat` and, for a supergroup,
 * `getSupergroup(...).is_forum` (docs/tdlib-mapping.md#messages).
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
	const replyTo: InputMessageReplyTo$Input | undefined =
		input.reply_to ??
		(input.reply_to_message_id
			? { _: 'inputMessageReplyToMessage', message_id: input.reply_to_message_id }
			: undefined)
	const options = input.options
	return {
		chat_id: input.chat_id,
		// 1.8.65 has no message_thread_id on sendMessage: a thread or forum topic is a `topic_id`.
		topic_id: await sendTopic(input, invoke),
		reply_to: replyTo,
		options,
	}
}

/**
 * With `parse_mode`, each item's own string caption is parsed by TDLib too (a ready-made
 * `inputMessage*` item is sent as it is); the parsed caption replaces it, entities and all.
 */
async function parsedCaptions(items: JsonObject[], input: SendMessageInput, ctx: CommandContext) {
	// Past the album's size nothing is parsed: the size is refused first.
	if (input.parse_mode === undefined || items.length > MAX_ALBUM) return items
	return Promise.all(
		items.map(async (item) => {
			if (!isObject(item) || typeof item.caption !== 'string') return item
			const { caption_entities, ...rest } = item
			return { ...rest, caption: await parsedText(ctx, item.caption, caption_entities, input.parse_mode) }
		}),
	)
}

/** The send itself: `sendMessage` (text or one media item) or `sendMessageAlbum`. */
async function sendNow(input: SendMessageInput, ctx: CommandContext) {
	// Honoured for bots only: TDLib drops it for user accounts (docs/tdlib-mapping.md#conventions). Albums
	// have none.
	const reply_markup = input.reply_markup
	const media = input.media
	if (media === undefined) {
		const text = await parsedText(ctx, input.text, input.entities, input.parse_mode)
		return ctx.invoke({
			_: 'sendMessage',
			...(await sendEnvelope(input, ctx.invoke)),
			reply_markup,
			input_message_content: {
				_: 'inputMessageText',
				text,
				link_preview_options: input.link_preview_options,
			},
		})
	}
	const items = await parsedCaptions((Array.isArray(media) ? media : [media]) as JsonObject[], input, ctx)
	const caption =
		input.parse_mode === undefined
			? { text: input.text, entities: input.entities }
			: { text: await parsedText(ctx, input.text, input.entities, input.parse_mode) }
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
}

/**
 * `send_message`: a text message (`inputMessageText`), one media item (`sendMessage`), or 2 to 10
 * items as an album (`sendMessageAlbum`). The result is TDLib's raw (temporary) message(s), or
 * with `wait_sent` the final ones (wait-sent.ts).
 */
export const sendMessage = defineCommand({
	name: 'send_message',
	policy: { action: 'write' },
	summary: 'Sends a text message, one media item, or an album of 2 to 10.',
	result: {
		description:
			"TDLib's temporary message (its id changes once Telegram confirms it); for an album, the messages. With `wait_sent`, the final message(s) once Telegram has them.",
		tdlib: ['message', 'messages'],
	},
	errors: [
		E.PARSE_MODE_TEXT,
		E.PARSE_MODE_ENTITIES,
		E.ALBUM_TOO_LARGE,
		E.MEDIA_SOURCE,
		E.UPLOAD_NOT_FOUND,
		E.MEDIA_FILE_REQUIRED,
		E.MEDIA_TYPE_UNSUPPORTED,
		E.ALBUM_MEDIA_TYPE,
		...RECIPIENT_ERRORS,
	],
	examples: [
		{ chat_id: -1000000003001, text: 'Hello!' },
		{ chat_id: 1001, text: 'Re', reply_to_message_id: 1048576 },
		{ chat_id: 1001, text: 'Sent for sure', wait_sent: true },
		{ chat_id: 1001, text: '<b>Bold</b> and <a href="https://example.com">a link</a>', parse_mode: 'HTML' },
		{ chat_id: 1001, text: 'No preview: https://example.com', link_preview_options: { is_disabled: true } },
		{ phone: '+9996631111', text: 'Hello Carol' },
		{ username: 'dave', text: 'Hello Dave' },
	],
	flood: 'send',
	methods: [
		'sendMessage',
		'sendMessageAlbum',
		'getChat',
		'getSupergroup',
		'parseTextEntities',
		...RECIPIENT_METHODS,
	],
	input: SendMessageInput,
	updates: SENT_UPDATES,
	run: async (given, ctx) => {
		const input = { ...given, chat_id: await recipientChat(given, ctx) }
		return input.wait_sent ? waitSent(ctx, () => sendNow(input, ctx)) : sendNow(input, ctx)
	},
})
