import { existsSync, statSync } from 'node:fs'
import { basename, extname } from 'node:path'
import type * as Td from 'tdlib-types'
import { bytesOf, type FileRecord, fileRecord, recordOfRemoteId, registerFile } from '../files'
import { formattedText } from '../objects'
import { fail } from '../session'
import type { World } from '../world'

/** Turns `InputMessageContent` into the `MessageContent` the cloud stores. */

const REMOTE_ID = /^[A-Za-z0-9_-]{16,}$/

/** Refuses a URL as TDLib's `parse_url` does, with its reason after FileManager's prefix. */
function checkUrl(url: string) {
	const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(url)
	if (scheme && !['http', 'https'].includes(scheme[1]!.toLowerCase()))
		fail('Invalid file HTTP URL specified: Unsupported URL protocol')
	const rest = scheme ? url.slice(scheme[0].length) : url
	const authority = rest.split(/[/?#]/, 1)[0]!
	const hostPort = authority.slice(authority.lastIndexOf('@') + 1)
	const colon = hostPort.startsWith('[')
		? hostPort.indexOf(':', hostPort.indexOf(']'))
		: hostPort.indexOf(':')
	const host = colon === -1 ? hostPort : hostPort.slice(0, colon)
	if (host === '') fail('Invalid file HTTP URL specified: URL host is empty')
	const port = colon === -1 ? '' : hostPort.slice(colon + 1)
	if (port !== '' && !(/^\d{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65_535))
		fail('Invalid file HTTP URL specified: Wrong port number specified in the URL')
	if (!host.startsWith('[') && /[^A-Za-z0-9._~%!$&'()*+,;=\x80-\uffff-]/.test(host))
		fail('Invalid file HTTP URL specified: Unallowed characters in URL host')
}

/** Refuses a remote file identifier TDLib cannot decode; takes one the emulator made or takes as real. */
function checkRemoteId(id: string) {
	if (id === '') fail('Remote file identifier must be non-empty')
	if (/[^A-Za-z0-9_=-]/.test(id))
		fail('Wrong remote file identifier specified: Wrong character in the string')
	if (id.replace(/=+$/, '').length % 4 === 1)
		fail('Wrong remote file identifier specified: Wrong string length')
	if (!REMOTE_ID.test(id))
		fail("Wrong remote file identifier specified: can't unserialize it. Wrong last symbol")
}

const MIME: Record<string, string> = {
	'.png': 'image/png',
	'.jpg': 'image/jpeg',
	'.jpeg': 'image/jpeg',
	'.gif': 'image/gif',
	'.webp': 'image/webp',
	'.mp4': 'video/mp4',
	'.mp3': 'audio/mpeg',
	'.ogg': 'audio/ogg',
	'.pdf': 'application/pdf',
	'.txt': 'text/plain',
}
export const mimeOf = (name: string) => MIME[extname(name).toLowerCase()] ?? 'application/octet-stream'

/**
 * The same bytes again, under the new id the message's copy gets: the sender's own upload keeps its
 * path (its local copy); another's file is the bytes only, never a path of someone else's folder.
 */
function copyOf(world: World, known: FileRecord, id: number, uploader: number): number {
	const own = known.uploaderId === uploader
	const bytes = known.data ? Buffer.from(known.data, 'base64') : own ? undefined : bytesOf(known)
	registerFile(world, { ...known, id, uploaderId: uploader, bytes, source: own ? known.source : '' })
	return known.size
}

/** `uploader`: who sends it; the files they upload are theirs (files.ts). */
function file(world: World, input: Td.InputFile$Input | undefined, uploader: number): Td.file {
	const id = world.nextFileId++
	let remoteId = ''
	let path = ''
	let size = 0
	switch (input?._) {
		case 'inputFileRemote': {
			const rid = input.id ?? ''
			// TDLib reads an identifier with a dot as a URL (FileManager::from_persistent_id).
			if (rid.includes('.')) checkUrl(rid)
			else checkRemoteId(rid)
			remoteId = rid
			// A file of the cloud by the remote id it was given: the same bytes again, as Telegram sends them.
			const known = recordOfRemoteId(world, rid)
			if (known) size = copyOf(world, known, id, uploader)
			break
		}
		case 'inputFileId': {
			if (!input.id || input.id <= 0 || input.id >= world.nextFileId) fail('Invalid file identifier')
			remoteId = `emulated-file-${input.id}`
			const known = fileRecord(world, input.id ?? 0)
			if (known) size = copyOf(world, known, id, uploader)
			break
		}
		case 'inputFileLocal': {
			// TDLib's FileManager::check_local_location, in its order.
			path = input.path ?? ''
			if (!path) fail('File must have non-empty path')
			if (!existsSync(path)) fail("Can't find real file path")
			const stat = statSync(path)
			if (!stat.isFile()) fail('File must be a regular file')
			if (stat.size === 0) fail('File must be non-empty')
			size = stat.size
			remoteId = `emulated-file-${id}`
			registerFile(world, {
				id,
				name: basename(path),
				mime: mimeOf(path),
				uploaderId: uploader,
				source: path,
			})
			break
		}
		case undefined:
			fail('InputFile is not specified')
			break
		default:
			fail(`emulator: ${input?._} is not supported`)
	}
	return {
		_: 'file',
		id,
		size,
		expected_size: size,
		local: {
			_: 'localFile',
			path,
			can_be_downloaded: true,
			can_be_deleted: path !== '',
			is_downloading_active: false,
			is_downloading_completed: path !== '',
			download_offset: 0,
			downloaded_prefix_size: size,
			downloaded_size: size,
		},
		remote: {
			_: 'remoteFile',
			id: remoteId,
			unique_id: `u${id}`,
			is_uploading_active: false,
			is_uploading_completed: true,
			uploaded_size: size,
		},
	}
}

/**
 * A client's formatted text as the cloud keeps it: its entities sorted by offset (then the longer
 * first) and cut to the text, those left empty dropped, as TDLib's fix_formatted_text leaves them.
 */
export function keptText(input: Td.formattedText$Input | undefined): Td.formattedText {
	const text = input?.text ?? ''
	const entities: Td.textEntity[] = []
	for (const e of input?.entities ?? []) {
		const offset = Math.max(0, e.offset ?? 0)
		const length = Math.min(e.length ?? 0, text.length - offset)
		if (length > 0 && e.type)
			entities.push({ _: 'textEntity', offset, length, type: e.type as Td.TextEntityType })
	}
	entities.sort((a, b) => a.offset - b.offset || b.length - a.length)
	return entities.length ? { _: 'formattedText', text, entities } : formattedText(text)
}

const caption = (c: Td.formattedText$Input | undefined): Td.formattedText => keptText(c)

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
		case 'inputMessageText': {
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
		case 'inputMessagePhoto': {
			const f = file(world, input.photo?.photo, uploaderId)
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
		case 'inputMessageVideo': {
			const v = input.video
			const f = file(world, v?.video, uploaderId)
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
		case 'inputMessageDocument': {
			const f = file(world, input.document?.document, uploaderId)
			const d: Td.document = {
				_: 'document',
				file_name: nameOf(f, 'document'),
				mime_type: fileRecord(world, f.id)?.mime ?? 'application/octet-stream',
				document: f,
			}
			return { _: 'messageDocument', document: d, caption: caption(input.caption) }
		}
		case 'inputMessageAudio': {
			const a = input.audio
			const f = file(world, a?.audio, uploaderId)
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
		case 'inputMessageAnimation': {
			const a = input.animation
			const f = file(world, a?.animation, uploaderId)
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
		case 'inputMessageVoiceNote': {
			const f = file(world, input.voice_note, uploaderId)
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
		case 'inputMessageVideoNote': {
			const f = file(world, input.video_note, uploaderId)
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
		case 'inputMessageSticker': {
			const f = file(world, input.sticker, uploaderId)
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
		default:
			return fail('Invalid message content type')
	}
}
