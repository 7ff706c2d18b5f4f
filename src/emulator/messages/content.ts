import type * as Td from 'tdlib-types'
import { fail } from '../session'
import type { World } from '../world'
import { caption, keptText } from './kept-text'
import {
	animationContent,
	audioContent,
	documentContent,
	photoContent,
	stickerContent,
	videoContent,
	videoNoteContent,
	voiceNoteContent,
} from './media'

/** Turns `InputMessageContent` into the `MessageContent` the cloud stores (media's in media.ts). */

/**
 * A copy's content with its caption replaced (`messageCopyOptions.replace_caption`). Only media
 * with a caption take one; any other content is copied as it is, as TDLib does.
 */
export function withCaption(
	content: Td.MessageContent,
	newCaption: Td.formattedText$Input | undefined,
	aboveMedia: boolean,
): Td.MessageContent {
	switch (content._) {
		case 'messagePhoto':
		case 'messageVideo':
		case 'messageAnimation':
			return { ...content, caption: caption(newCaption), show_caption_above_media: aboveMedia }
		case 'messageDocument':
		case 'messageAudio':
		case 'messageVoiceNote':
			return { ...content, caption: caption(newCaption) }
		default:
			return content
	}
}

/** Which `InputMessageContent` kinds an album may hold. */
export const ALBUM_KINDS = new Set([
	'inputMessagePhoto',
	'inputMessageVideo',
	'inputMessageDocument',
	'inputMessageAudio',
])

export function messageContent(
	world: World,
	input: Td.InputMessageContent$Input | undefined,
	uploaderId = 0,
): Td.MessageContent {
	switch (input?._) {
		case 'inputMessageText':
			return textContent(input)
		case 'inputMessagePhoto':
			return photoContent(world, input, uploaderId)
		case 'inputMessageVideo':
			return videoContent(world, input, uploaderId)
		case 'inputMessageDocument':
			return documentContent(world, input, uploaderId)
		case 'inputMessageAudio':
			return audioContent(world, input, uploaderId)
		case 'inputMessageAnimation':
			return animationContent(world, input, uploaderId)
		case 'inputMessageVoiceNote':
			return voiceNoteContent(world, input, uploaderId)
		case 'inputMessageVideoNote':
			return videoNoteContent(world, input, uploaderId)
		case 'inputMessageSticker':
			return stickerContent(world, input, uploaderId)
		default:
			return fail('Invalid message content type')
	}
}

/** A text message: non-blank, its link preview options with TDLib's defaults. */
function textContent(input: Td.inputMessageText$Input): Td.MessageContent {
	const text = input.text?.text ?? ''
	if (!text.trim()) fail('Text must be non-empty')
	const options = input.link_preview_options
	return {
		_: 'messageText',
		text: keptText(input.text),
		...(options
			? {
					link_preview_options: {
						_: 'linkPreviewOptions',
						is_disabled: options.is_disabled ?? false,
						url: options.url ?? '',
						force_small_media: options.force_small_media ?? false,
						force_large_media: options.force_large_media ?? false,
						show_above_text: options.show_above_text ?? false,
					},
				}
			: {}),
	}
}
