import type { InputMessageContent$Input } from 'tdlib-types'
import {
	type CommandContext,
	CommandError,
	checkTdObject,
	type FormattedText,
	formattedText,
	isObject,
	isRemoteFileRef,
	type JsonObject,
	tdSlot,
	toInt,
	typeOf,
} from 'userbot-gateway/plugin'
import { MessagesErrors as E } from './errors'

/**
 * Media of `send_message`, built into TDLib 1.8.65's input objects (docs/tdlib-mapping.md#messages).
 *
 * A media item is `{file, media_type?, caption?, caption_entities?, width?, height?, duration?, ...}`
 * where `file` (or `url`, `file_id`, `remote_id`, `upload`) is one of (docs/protocol.md#media-in-a-command):
 * - an http(s) URL or a Telegram remote file id → `inputFileRemote`;
 * - a numeric TDLib file id → `inputFileId`;
 * - a file uploaded to this userbot, `{upload: "<name>"}` or `"upload:<name>"` → `inputFileLocal`
 *   with the path the server itself resolved.
 * A path on the server's disk (`/etc/passwd`, `file:///etc/passwd`) is refused, and so is any
 * client-built `inputFileLocal` / `inputFileGenerated`, including inside a ready-made
 * `inputMessage*` object, which is otherwise passed through.
 */

export const MEDIA_TYPES = [
	'photo',
	'video',
	'document',
	'audio',
	'animation',
	'voice',
	'voice_note',
	'video_note',
	'sticker',
] as const
export type MediaType = (typeof MEDIA_TYPES)[number]
const ALBUM_TYPES: readonly string[] = ['photo', 'video', 'document', 'audio']
const ALBUM_CONTENTS: readonly string[] = [
	'inputMessagePhoto',
	'inputMessageVideo',
	'inputMessageDocument',
	'inputMessageAudio',
]

/** A ready-made `inputMessage*` content, checked whole (files on the server's disk refused at any depth). */
const CONTENT = tdSlot('InputMessageContent')

export type InputFile =
	| { _: 'inputFileId'; id: number }
	| { _: 'inputFileRemote'; id: string }
	| { _: 'inputFileLocal'; path: string }

/** `media` is an object or a non-empty array of objects. */
export const isMediaShape = (x: unknown) =>
	isObject(x) || (Array.isArray(x) && x.length > 0 && x.every(isObject))

async function uploaded(name: unknown, ctx: CommandContext): Promise<InputFile> {
	if (typeof name !== 'string') throw new CommandError(E.MEDIA_SOURCE)
	const path = await ctx.uploadedFilePath(name)
	if (!path) throw new CommandError(E.UPLOAD_NOT_FOUND)
	return { _: 'inputFileLocal', path }
}

/** `F`: the InputFile of a media item, never a client-chosen local path. */
export async function resolveInputFile(spec: unknown, ctx: CommandContext): Promise<InputFile> {
	if (spec === undefined || spec === null) throw new CommandError(E.MEDIA_FILE_REQUIRED)
	if (typeof spec === 'number') {
		if (Number.isSafeInteger(spec) && spec > 0) return { _: 'inputFileId', id: spec }
		throw new CommandError(E.MEDIA_SOURCE)
	}
	if (typeof spec === 'string') {
		if (spec.startsWith('upload:')) return uploaded(spec.slice('upload:'.length), ctx)
		if (/^\d{1,15}$/.test(spec)) return { _: 'inputFileId', id: Number(spec) }
		if (isRemoteFileRef(spec)) return { _: 'inputFileRemote', id: spec }
		throw new CommandError(E.MEDIA_SOURCE)
	}
	if (isObject(spec)) {
		if ('upload' in spec) return uploaded(spec.upload, ctx)
		const type = typeOf(spec)
		if (type === 'inputFileId') {
			const id = toInt(spec.id)
			if (id !== undefined && id > 0) return { _: 'inputFileId', id }
		}
		if (type === 'inputFileRemote' && isRemoteFileRef(spec.id)) return { _: 'inputFileRemote', id: spec.id }
	}
	throw new CommandError(E.MEDIA_SOURCE)
}

function fileSpecOf(item: JsonObject): unknown {
	if (typeOf(item)?.startsWith('inputFile')) return item
	if ('upload' in item) return { upload: item.upload }
	// `path` is read only to be refused: a server path is never a valid source.
	return item.file ?? item.url ?? item.file_id ?? item.remote_id ?? item.path
}

const num = (x: unknown) => toInt(x) ?? 0
const bool = (x: unknown) => x === true

/** The caption of an item: its own, else the command's text (single media or the album's first item). */
interface CaptionFallback {
	text?: unknown
	entities?: unknown
}

/**
 * One `InputMessageContent` of a media item; `mediaType` is the command's default. Typed against
 * TDLib 1.8.65's own input types, so a wrong field name does not compile.
 */
export async function buildMediaContent(
	item: JsonObject,
	mediaType: string | undefined,
	ctx: CommandContext,
	fallback: CaptionFallback = {},
): Promise<InputMessageContent$Input> {
	const own = typeOf(item)
	if (own?.startsWith('inputMessage')) return checkTdObject<InputMessageContent$Input>(item, CONTENT, 'media')
	const type = (
		typeof item.media_type === 'string' ? item.media_type : (mediaType ?? 'document')
	) as MediaType
	if (!MEDIA_TYPES.includes(type)) throw new CommandError(E.MEDIA_TYPE_UNSUPPORTED)
	const file = await resolveInputFile(fileSpecOf(item), ctx)
	const caption: FormattedText = formattedText(
		item.caption ?? fallback.text,
		item.caption_entities ?? (item.caption === undefined ? fallback.entities : undefined),
		item.caption === undefined ? 'text' : 'media.caption',
	)
	return isVisual(type) ? visualContent(type, item, file, caption) : otherContent(type, item, file, caption)
}

/** The kinds whose caption may stand above them and whose content may hide behind a spoiler. */
const VISUAL: ReadonlySet<MediaType> = new Set(['photo', 'video', 'animation'])
type Visual = 'photo' | 'video' | 'animation'
const isVisual = (t: MediaType): t is Visual => VISUAL.has(t)

/** A photo, a video or an animation: the caption's place and the spoiler beside the file. */
function visualContent(
	type: Visual,
	item: JsonObject,
	file: InputFile,
	caption: FormattedText,
): InputMessageContent$Input {
	const aboveMedia = bool(item.show_caption_above_media)
	const spoiler = bool(item.has_spoiler)
	switch (type) {
		case 'photo':
			return {
				_: 'inputMessagePhoto',
				photo: { _: 'inputPhoto', photo: file, width: num(item.width), height: num(item.height) },
				caption,
				show_caption_above_media: aboveMedia,
				has_spoiler: spoiler,
			}
		case 'video':
			return {
				_: 'inputMessageVideo',
				video: {
					_: 'inputVideo',
					video: file,
					duration: num(item.duration),
					width: num(item.width),
					height: num(item.height),
					supports_streaming: bool(item.supports_streaming),
				},
				caption,
				show_caption_above_media: aboveMedia,
				has_spoiler: spoiler,
			}
		case 'animation':
			return {
				_: 'inputMessageAnimation',
				animation: {
					_: 'inputAnimation',
					animation: file,
					duration: num(item.duration),
					width: num(item.width),
					height: num(item.height),
				},
				caption,
				show_caption_above_media: aboveMedia,
				has_spoiler: spoiler,
			}
	}
}

/** A document, an audio, a voice note, a video note or a sticker. */
function otherContent(
	type: Exclude<MediaType, Visual>,
	item: JsonObject,
	file: InputFile,
	caption: FormattedText,
): InputMessageContent$Input {
	switch (type) {
		case 'document':
			return {
				_: 'inputMessageDocument',
				document: {
					_: 'inputDocument',
					document: file,
					disable_content_type_detection: bool(item.disable_content_type_detection),
				},
				caption,
			}
		case 'audio':
			return {
				_: 'inputMessageAudio',
				audio: {
					_: 'inputAudio',
					audio: file,
					duration: num(item.duration),
					title: typeof item.title === 'string' ? item.title : '',
					performer: typeof item.performer === 'string' ? item.performer : '',
				},
				caption,
			}
		case 'voice':
		case 'voice_note':
			return {
				_: 'inputMessageVoiceNote',
				voice_note: file,
				duration: num(item.duration),
				waveform: typeof item.waveform === 'string' ? item.waveform : '',
				caption,
			}
		case 'video_note':
			return {
				_: 'inputMessageVideoNote',
				video_note: file,
				duration: num(item.duration),
				length: num(item.length),
			}
		case 'sticker':
			return {
				_: 'inputMessageSticker',
				sticker: file,
				width: num(item.width),
				height: num(item.height),
				emoji: typeof item.emoji === 'string' ? item.emoji : '',
			}
	}
}

/**
 * Album items: photo, video, document and audio only (docs/tdlib-mapping.md#messages), ready-made ones too.
 */
export function checkAlbumType(item: JsonObject, mediaType: string | undefined): void {
	const own = typeOf(item)
	if (own?.startsWith('inputMessage')) {
		if (ALBUM_CONTENTS.includes(own)) return
		throw new CommandError(E.ALBUM_MEDIA_TYPE)
	}
	const type = typeof item.media_type === 'string' ? item.media_type : (mediaType ?? 'document')
	if (!ALBUM_TYPES.includes(type)) throw new CommandError(E.ALBUM_MEDIA_TYPE)
}
