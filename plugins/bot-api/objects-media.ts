/**
 * TDLib's media as the Bot API names them (docs/bot-api.md#objects): `PhotoSize`, `Document`,
 * `Video`, `Audio`, `Voice`, `Animation`, `Sticker`, `VideoNote` and `File`. A `file_id` is TDLib's
 * remote file id (`remote.id`: the Bot API's own ids are TDLib's persistent ids), `file_unique_id`
 * its `remote.unique_id`; TDLib's numeric file ids, valid for one client only, never leave.
 */
type Td = Record<string, unknown>
const obj = (x: unknown): Td => (typeof x === 'object' && x !== null ? (x as Td) : {})
const str = (x: unknown) => (typeof x === 'string' && x !== '' ? x : undefined)
const num = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : 0)

/** `file_id`, `file_unique_id` and, when TDLib knows it, `file_size` of a TDLib `file`. */
export function fileIds(file: unknown) {
	const f = obj(file)
	const remote = obj(f.remote)
	const size = num(f.size) || num(f.expected_size)
	return {
		file_id: str(remote.id) ?? '',
		file_unique_id: str(remote.unique_id) ?? '',
		...(size > 0 ? { file_size: size } : {}),
	}
}

/** A Bot API `File` (getFile): the ids, the size, and the path its download is served under. */
export function fileOf(file: Td, filePath?: string) {
	return { ...fileIds(file), ...(filePath ? { file_path: filePath } : {}) }
}

const named = (o: Td) => {
	const name = str(o.file_name)
	const mime = str(o.mime_type)
	return { ...(name ? { file_name: name } : {}), ...(mime ? { mime_type: mime } : {}) }
}

const photoSizes = (photo: Td) =>
	(Array.isArray(photo.sizes) ? photo.sizes : []).map((s) => {
		const size = obj(s)
		return { ...fileIds(size.photo), width: num(size.width), height: num(size.height) }
	})

const STICKER_TYPES: Record<string, string> = {
	stickerFullTypeRegular: 'regular',
	stickerFullTypeMask: 'mask',
	stickerFullTypeCustomEmoji: 'custom_emoji',
}

function stickerOf(s: Td) {
	const format = obj(s.format)._
	const emoji = str(s.emoji)
	return {
		...fileIds(s.sticker),
		type: STICKER_TYPES[String(obj(s.full_type)._)] ?? 'regular',
		width: num(s.width),
		height: num(s.height),
		is_animated: format === 'stickerFormatTgs',
		is_video: format === 'stickerFormatWebm',
		...(emoji ? { emoji } : {}),
	}
}

/**
 * The media fields of a Bot API `Message` from TDLib's `MessageContent`, and its caption (plain
 * text). A content without media gives none. As the Bot API does, an animation is also a `document`.
 */
export function mediaOf(content: Td): Record<string, unknown> {
	const caption = str(obj(content.caption).text)
	const withCaption = (fields: Record<string, unknown>) => ({ ...fields, ...(caption ? { caption } : {}) })
	switch (content._) {
		case 'messagePhoto':
			return withCaption({ photo: photoSizes(obj(content.photo)) })
		case 'messageDocument': {
			const d = obj(content.document)
			return withCaption({ document: { ...fileIds(d.document), ...named(d) } })
		}
		case 'messageVideo': {
			const v = obj(content.video)
			const video = {
				...fileIds(v.video),
				width: num(v.width),
				height: num(v.height),
				duration: num(v.duration),
			}
			return withCaption({ video: { ...video, ...named(v) } })
		}
		case 'messageAudio': {
			const a = obj(content.audio)
			const performer = str(a.performer)
			const title = str(a.title)
			const audio = {
				...fileIds(a.audio),
				duration: num(a.duration),
				...(performer ? { performer } : {}),
				...(title ? { title } : {}),
				...named(a),
			}
			return withCaption({ audio })
		}
		case 'messageVoiceNote': {
			const n = obj(content.voice_note)
			const mime = str(n.mime_type)
			return withCaption({
				voice: { ...fileIds(n.voice), duration: num(n.duration), ...(mime ? { mime_type: mime } : {}) },
			})
		}
		case 'messageAnimation': {
			const a = obj(content.animation)
			const ids = fileIds(a.animation)
			const animation = { ...ids, width: num(a.width), height: num(a.height), duration: num(a.duration) }
			return withCaption({ animation: { ...animation, ...named(a) }, document: { ...ids, ...named(a) } })
		}
		case 'messageSticker':
			return { sticker: stickerOf(obj(content.sticker)) }
		case 'messageVideoNote': {
			const n = obj(content.video_note)
			return { video_note: { ...fileIds(n.video), length: num(n.length), duration: num(n.duration) } }
		}
		default:
			return {}
	}
}
