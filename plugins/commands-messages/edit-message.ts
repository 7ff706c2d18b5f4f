import { defineCommand, fields, optionalBool, requiredInt, textField } from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { MessagesErrors as E } from './errors'
import { parsedText, parseModeField } from './parse-mode'
import { entitiesInput, linkPreviewInput, textInput } from './text-fields'

/**
 * `edit_message` → `editMessageText`, or with `caption` → `editMessageCaption` (a media message's
 * caption). The edit replaces text and entities, so `entities` (or `parse_mode`, through TDLib's
 * parser) is accepted too: plain `text` alone clears the formatting. Result: TDLib's raw edited message.
 */
export const editMessage = defineCommand({
	name: 'edit_message',
	policy: { action: 'write' },
	summary: "Replaces a message's text or its caption (and their entities).",
	result: { description: "TDLib's edited message.", tdlib: 'message' },
	errors: [E.PARSE_MODE_TEXT, E.PARSE_MODE_ENTITIES],
	examples: [
		{ chat_id: -1000000003001, message_id: 1048576, text: 'Edited' },
		{ chat_id: -1000000003001, message_id: 1048576, text: '*Edited*', parse_mode: 'MarkdownV2' },
		{ chat_id: -1000000003001, message_id: 2097152, caption: 'A new caption' },
	],
	methods: ['editMessageText', 'editMessageCaption', 'parseTextEntities', 'createPrivateChat'],
	input: v.pipe(
		fields({
			chat_id: requiredInt('chat_id', E.CHAT_ID_REQUIRED),
			message_id: requiredInt('message_id', E.MESSAGE_ID_REQUIRED),
			text: textInput,
			caption: textField('caption'),
			entities: entitiesInput,
			parse_mode: parseModeField,
			link_preview_options: linkPreviewInput,
			show_caption_above_media: optionalBool('show_caption_above_media'),
		}),
		v.check((o) => o.text === undefined || o.caption === undefined, E.TEXT_OR_CAPTION),
	),
	async run(input, ctx) {
		if (input.caption !== undefined) {
			return ctx.invoke({
				_: 'editMessageCaption',
				chat_id: input.chat_id,
				message_id: input.message_id,
				caption: await parsedText(ctx, input.caption, input.entities, input.parse_mode, 'caption'),
				show_caption_above_media: input.show_caption_above_media ?? false,
			})
		}
		return ctx.invoke({
			_: 'editMessageText',
			chat_id: input.chat_id,
			message_id: input.message_id,
			input_message_content: {
				_: 'inputMessageText',
				text: await parsedText(ctx, input.text, input.entities, input.parse_mode),
				link_preview_options: input.link_preview_options,
			},
		})
	},
})
