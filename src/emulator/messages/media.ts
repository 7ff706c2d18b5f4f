import { basename } from 'node:path'
import type * as Td from 'tdlib-types'
import { fileRecord } from '../files'
import type { World } from '../world'
import { storedFile } from './input-file'
import { caption } from './kept-text'

/**
 * The `MessageContent` of each kind of media a client sends (messageContent in content.ts picks
 * one): its file stored (input-file.ts), TDLib's defaults where the input leaves a field out.
 */

/** What photos, videos and animations carry beside their file: caption, its place, the spoiler. */
const visualCaption = (input: {
	caption?: Td.formattedText$Input
	show_caption_above_media?: boolean
	has_spoiler?: boolean
}) => ({
	caption: caption(input.caption),
	show_caption_above_media: input.show_caption_above_media ?? false,
	has_spoiler: input.has_spoiler ?? false,
	is_secret: false,
})
const nameOf = (f: Td.file, fallback: string) => (f.local.path ? basename(f.local.path) : fallback)

export function photoContent(
	world: World,
	input: Td.inputMessagePhoto$Input,
	uploader: number,
): Td.MessageContent {
	const f = storedFile(world, input.photo?.photo, uploader)
	const w = input.photo?.width ?? 0
	const h = input.photo?.height ?? 0
	return {
		_: 'messagePhoto',
		photo: {
			_: 'photo',
			has_stickers: false,
			sizes: [{ _: 'photoSize', type: 'x', photo: f, width: w, height: h, progressive_sizes: [] }],
		},
		...visualCaption(input),
	}
}

export function videoContent(
	world: World,
	input: Td.inputMessageVideo$Input,
	uploader: number,
): Td.MessageContent {
	const v = input.video
	const f = storedFile(world, v?.video, uploader)
	return {
		_: 'messageVideo',
		video: {
			_: 'video',
			duration: v?.duration ?? 0,
			width: v?.width ?? 0,
			height: v?.height ?? 0,
			file_name: nameOf(f, 'video.mp4'),
			mime_type: 'video/mp4',
			has_stickers: false,
			supports_streaming: v?.supports_streaming ?? false,
			video: f,
		},
		alternative_videos: [],
		storyboards: [],
		start_timestamp: 0,
		...visualCaption(input),
	}
}

export function documentContent(
	world: World,
	input: Td.inputMessageDocument$Input,
	uploader: number,
): Td.MessageContent {
	const f = storedFile(world, input.document?.document, uploader)
	const d: Td.document = {
		_: 'document',
		file_name: nameOf(f, 'document'),
		mime_type: fileRecord(world, f.id)?.mime ?? 'application/octet-stream',
		document: f,
	}
	return { _: 'messageDocument', document: d, caption: caption(input.caption) }
}

export function audioContent(
	world: World,
	input: Td.inputMessageAudio$Input,
	uploader: number,
): Td.MessageContent {
	const a = input.audio
	const f = storedFile(world, a?.audio, uploader)
	return {
		_: 'messageAudio',
		audio: {
			_: 'audio',
			duration: a?.duration ?? 0,
			title: a?.title ?? '',
			performer: a?.performer ?? '',
			file_name: nameOf(f, 'audio.mp3'),
			mime_type: 'audio/mpeg',
			external_album_covers: [],
			audio: f,
		},
		caption: caption(input.caption),
	}
}

export function animationContent(
	world: World,
	input: Td.inputMessageAnimation$Input,
	uploader: number,
): Td.MessageContent {
	const a = input.animation
	const f = storedFile(world, a?.animation, uploader)
	return {
		_: 'messageAnimation',
		animation: {
			_: 'animation',
			duration: a?.duration ?? 0,
			width: a?.width ?? 0,
			height: a?.height ?? 0,
			file_name: nameOf(f, 'animation.mp4'),
			mime_type: 'video/mp4',
			has_stickers: false,
			animation: f,
		},
		...visualCaption(input),
	}
}

export function voiceNoteContent(
	world: World,
	input: Td.inputMessageVoiceNote$Input,
	uploader: number,
): Td.MessageContent {
	const f = storedFile(world, input.voice_note, uploader)
	return {
		_: 'messageVoiceNote',
		voice_note: {
			_: 'voiceNote',
			duration: input.duration ?? 0,
			waveform: input.waveform ?? '',
			mime_type: 'audio/ogg',
			voice: f,
		},
		caption: caption(input.caption),
		is_listened: false,
	}
}

export function videoNoteContent(
	world: World,
	input: Td.inputMessageVideoNote$Input,
	uploader: number,
): Td.MessageContent {
	const f = storedFile(world, input.video_note, uploader)
	return {
		_: 'messageVideoNote',
		video_note: {
			_: 'videoNote',
			duration: input.duration ?? 0,
			waveform: '',
			length: input.length ?? 0,
			video: f,
		},
		is_viewed: false,
		is_secret: false,
	}
}

export function stickerContent(
	world: World,
	input: Td.inputMessageSticker$Input,
	uploader: number,
): Td.MessageContent {
	const f = storedFile(world, input.sticker, uploader)
	return {
		_: 'messageSticker',
		sticker: {
			_: 'sticker',
			id: String(f.id),
			set_id: '0',
			width: input.width ?? 512,
			height: input.height ?? 512,
			emoji: input.emoji ?? '',
			format: { _: 'stickerFormatWebp' },
			full_type: { _: 'stickerFullTypeRegular' },
			sticker: f,
		},
		is_premium: false,
	}
}
