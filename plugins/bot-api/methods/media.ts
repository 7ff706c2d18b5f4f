import { Refusal } from 'userbot-gateway/plugin'
import { BotError, badRequest } from '../answer'
import { entitiesOf, parseModeOf } from '../entities'
import { messageOf } from '../objects'
import { fileOf } from '../objects-media'
import { intOf, isUpload, jsonOf, stringOf } from '../params'
import { type Call, chatId, command, type Method } from './call'
import { replyTo } from './message-params'

/**
 * Media and files (docs/bot-api.md#files): each send is `send_message` with one `media` item (or 2
 * to 10 for sendMediaGroup) and `wait_sent`, so the answer is the message Telegram has. A file is a
 * `file_id` (TDLib's remote id), an http(s) URL, or a multipart part (the part itself, or
 * `attach://<name>`), stored first with the userbot's uploads (`ctx.files`, the files route's
 * store, within its quotas) and removed once the send is over.
 */

type Params = Record<string, unknown>

/** Longer than any remote file id or URL Telegram takes. */
const MAX_SOURCE = 2048
/** The longest file_id getFile reads (the command's own bound on a remote id). */
const MAX_FILE_ID = 512
const ALBUM_MIN = 2
const ALBUM_MAX = 10
const ALBUM_TYPES: readonly string[] = ['photo', 'video', 'document', 'audio']

/** The parts a call stored with the userbot's uploads, to remove when its send is over. */
interface Stored {
	names: string[]
}

/** The command's refusals of an upload (the store's `Refusal`s) in the Bot API's words. */
function uploadError(err: unknown): BotError {
	if (!(err instanceof Refusal)) throw err
	if (err.status === 413) return new BotError(413, 'Request Entity Too Large')
	if (err.status === 404) return new BotError(401, 'Unauthorized')
	return new BotError(500, 'Internal Server Error')
}

async function stored(call: Call, file: File, kept: Stored): Promise<Params> {
	const saved = await call.ctx.files.upload(call.principal, call.userbotId, file).catch((err: unknown) => {
		throw uploadError(err)
	})
	kept.names.push(saved.file)
	return { upload: saved.file }
}

/**
 * A file parameter as `media`'s source: a part (or `attach://<name>` naming one) is stored first;
 * a string is a file_id or a URL, handed on as TDLib's `inputFileRemote` (the command's other
 * forms, a stored upload's name or a TDLib file number, are refused here). Never a path: the command
 * refuses one, and nothing here makes one.
 */
async function sourceOf(call: Call, value: unknown, field: string, kept: Stored): Promise<Params> {
	if (isUpload(value)) return stored(call, value, kept)
	if (value === undefined || value === null || value === '')
		throw badRequest(`there is no ${field} in the request`)
	if (typeof value !== 'string' || value.length > MAX_SOURCE)
		throw badRequest('wrong file identifier/HTTP URL specified')
	if (value.startsWith('attach://')) {
		const part = call.params[value.slice('attach://'.length)]
		if (!isUpload(part)) throw badRequest(`there is no ${field} in the request`)
		return stored(call, part, kept)
	}
	// Only what the Bot API takes: the command's own forms (`upload:<name>`, a TDLib file number) are not.
	if (value.startsWith('upload:') || /^\d+$/.test(value))
		throw badRequest('wrong file identifier/HTTP URL specified')
	// As TDLib's remote file (a file_id or a URL), so that the command reads it as nothing else.
	return { file: { _: 'inputFileRemote', id: value } }
}

/**
 * A caption and its formatting: with `parse_mode` the command has TDLib parse it (docs/bot-api.md:
 * `caption_entities` are then not read, as Telegram's server does), else its `caption_entities`.
 */
function captionOf(params: Params): Params {
	const caption = stringOf(params, 'caption')
	if (!caption) return {}
	const entities = parseModeOf(params) ? undefined : entitiesOf(params, 'caption_entities')
	return { caption, ...(entities?.length ? { caption_entities: entities } : {}) }
}

/** The one `parse_mode` of an album's captions: the command parses every caption alike. */
function albumParseMode(album: readonly Params[]): string | undefined {
	const modes = new Set(album.filter((m) => stringOf(m, 'caption')).map((m) => parseModeOf(m)))
	if (modes.size > 1) throw badRequest('the captions of a media group must share one parse_mode')
	return [...modes][0]
}

const bool = (params: Params, name: string) => {
	const value = params[name]
	return value === true || value === 'true'
}

/** The optional integer fields of a media item, as the command takes them. */
function ints(params: Params, names: readonly string[]): Params {
	const out: Params = {}
	for (const name of names) {
		const n = intOf(params, name)
		if (n !== undefined) out[name] = n
	}
	return out
}

/** The optional strings of a media item. */
function strings(params: Params, names: readonly string[]): Params {
	const out: Params = {}
	for (const name of names) {
		const s = stringOf(params, name)
		if (s) out[name] = s
	}
	return out
}

/** What a Bot API media kind adds to its item, read from the method's parameters (or an InputMedia). */
interface Kind {
	/** The command's `media_type`. */
	type: string
	extra(params: Params): Params
}

const visual = (params: Params) => ({
	...(bool(params, 'has_spoiler') ? { has_spoiler: true } : {}),
	...(bool(params, 'show_caption_above_media') ? { show_caption_above_media: true } : {}),
})

/** By the Bot API's file parameter (`photo` of sendPhoto, and InputMedia's `type`). */
const KINDS: Readonly<Record<string, Kind>> = {
	photo: { type: 'photo', extra: visual },
	video: {
		type: 'video',
		extra: (p) => ({
			...ints(p, ['duration', 'width', 'height']),
			...(bool(p, 'supports_streaming') ? { supports_streaming: true } : {}),
			...visual(p),
		}),
	},
	document: {
		type: 'document',
		extra: (p) => (bool(p, 'disable_content_type_detection') ? { disable_content_type_detection: true } : {}),
	},
	audio: {
		type: 'audio',
		extra: (p) => ({ ...ints(p, ['duration']), ...strings(p, ['performer', 'title']) }),
	},
	voice: { type: 'voice_note', extra: (p) => ints(p, ['duration']) },
	animation: {
		type: 'animation',
		extra: (p) => ({ ...ints(p, ['duration', 'width', 'height']), ...visual(p) }),
	},
	sticker: { type: 'sticker', extra: (p) => strings(p, ['emoji']) },
	video_note: { type: 'video_note', extra: (p) => ints(p, ['duration', 'length']) },
}

/** Runs the send, then removes what it stored, whatever the send's outcome. */
async function sending<T>(call: Call, send: (kept: Stored) => Promise<T>): Promise<T> {
	// A key that may only read is refused before anything is stored (the command would refuse it after).
	if (call.principal.key?.scopes.readOnly) throw new BotError(403, 'Forbidden: permission denied')
	const kept: Stored = { names: [] }
	try {
		return await send(kept)
	} finally {
		for (const name of kept.names)
			await call.ctx.files.discard(call.userbotId, name).catch((err: unknown) => {
				call.ctx.log.warn('could not remove a Bot API upload', { error: String(err) })
			})
	}
}

/** sendPhoto, sendDocument...: one media item of the kind its file parameter names. */
const sendOne =
	(field: string): Method =>
	(call) =>
		sending(call, async (kept) => {
			const { params } = call
			const kind = KINDS[field] as Kind
			// Every field is checked before a part is stored.
			const chat = chatId(params)
			const fields = { media_type: kind.type, ...captionOf(params), ...kind.extra(params) }
			const reply = replyTo(params, chat)
			const mode = params.caption ? parseModeOf(params) : undefined
			const item = { ...(await sourceOf(call, params[field], field, kept)), ...fields }
			const input = {
				chat_id: chat,
				media: item,
				...reply,
				...(mode ? { parse_mode: mode } : {}),
				wait_sent: true,
			}
			return messageOf(await command(call, 'send_message', input))
		})

/** sendMediaGroup's `media`: 2 to 10 InputMedia, JSON (or JSON in a string), checked whole before any is stored. */
function albumOf(params: Params): Params[] {
	const media = jsonOf(params, 'media', 'object')
	if (!Array.isArray(media)) throw badRequest('media must be an array')
	if (media.length < ALBUM_MIN || media.length > ALBUM_MAX) throw badRequest('media must include 2-10 items')
	for (const item of media) {
		if (typeof item !== 'object' || item === null || Array.isArray(item))
			throw badRequest('media must be an array of InputMedia')
		const type = (item as Params).type
		if (typeof type !== 'string' || !ALBUM_TYPES.includes(type))
			throw badRequest('invalid media type specified')
	}
	return media as Params[]
}

const sendMediaGroup: Method = (call) =>
	sending(call, async (kept) => {
		const { params } = call
		const chat = chatId(params)
		const album = albumOf(params)
		const reply = replyTo(params, chat)
		const mode = albumParseMode(album)
		// Every item's fields are checked before any part is stored.
		const fields = album.map((m) => {
			const kind = KINDS[String(m.type)] as Kind
			return { media_type: kind.type, ...captionOf(m), ...kind.extra(m) }
		})
		const items: Params[] = []
		for (const [i, m] of album.entries())
			items.push({ ...(await sourceOf(call, m.media, 'media', kept)), ...fields[i] })
		const input = {
			chat_id: chat,
			media: items,
			...reply,
			...(mode ? { parse_mode: mode } : {}),
			wait_sent: true,
		}
		const result = await command(call, 'send_message', input)
		const messages = Array.isArray(result.messages) ? (result.messages as Record<string, unknown>[]) : []
		return messages.map((m) => messageOf(m))
	})

/**
 * The path a File is served under (`/file/bot<token>/<file_path>`, files-route.ts): its remote id,
 * which the route looks up again (`get_file`), so the path stays true across TDLib's restarts.
 */
export const filePathOf = (remoteId: string) => remoteId

const getFile: Method = async (call) => {
	const fileId = stringOf(call.params, 'file_id')
	if (fileId === undefined || fileId === '') throw badRequest('file_id is empty')
	if (fileId.length > MAX_FILE_ID) throw badRequest('invalid file_id')
	const file = await command(call, 'get_file', { remote_file_id: fileId })
	const remote = (file.remote ?? {}) as Record<string, unknown>
	return fileOf(file, typeof remote.id === 'string' && remote.id ? filePathOf(remote.id) : undefined)
}

export const MEDIA_METHODS: Readonly<Record<string, Method>> = {
	sendPhoto: sendOne('photo'),
	sendDocument: sendOne('document'),
	sendVideo: sendOne('video'),
	sendAudio: sendOne('audio'),
	sendVoice: sendOne('voice'),
	sendAnimation: sendOne('animation'),
	sendSticker: sendOne('sticker'),
	sendVideoNote: sendOne('video_note'),
	sendMediaGroup,
	getFile,
}
