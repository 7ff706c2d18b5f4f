import { HttpError, READ_PART_BYTES } from 'userbot-gateway/plugin'
import type { FileOutcome, PartReader } from './lifecycle/file-download'

type Ready = Extract<FileOutcome, { ready: true }>

/** TDLib's file ids are int32; a number past that names no file (404), anything else is a 400. */
export function fileIdOf(raw: string): number | undefined {
	// The value is not quoted back: validation errors never echo what was sent.
	if (!/^\d{1,15}$/.test(raw)) throw new HttpError(400, { file_id: ['A valid integer is required.'] })
	const id = Number(raw)
	return id > 0 && id <= 2 ** 31 - 1 ? id : undefined
}

/** `bytes=a-b`, `bytes=a-`, `bytes=-n` over `size`: the bytes asked, 'unsatisfiable', or null to send it all. */
export function parseRange(
	header: string | null,
	size: number,
): { start: number; end: number } | 'unsatisfiable' | null {
	// Several ranges, another unit or a malformed header: ignored, the whole file answers (RFC 9110 §14.2).
	const m = header ? /^bytes=(\d{0,15})-(\d{0,15})$/.exec(header.trim()) : null
	if (!m || (m[1] === '' && m[2] === '')) return null
	if (m[1] === '') {
		const suffix = Number(m[2])
		if (suffix === 0 || size === 0) return 'unsatisfiable'
		return { start: Math.max(0, size - suffix), end: size - 1 }
	}
	const start = Number(m[1])
	const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1)
	if (m[2] !== '' && Number(m[2]) < start) return null
	if (start >= size) return 'unsatisfiable'
	return { start, end }
}

/** A `Content-Disposition` that survives any name: an ASCII fallback and the UTF-8 form (RFC 6266). */
function disposition(name: string): string {
	const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_')
	return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`
}

const etagMatches = (header: string | null, etag: string) =>
	!!header?.split(',').some((t) => t.trim() === '*' || t.trim().replace(/^W\//, '') === etag)

/**
 * The file as an HTTP answer. Always an attachment, with `nosniff` and a sandboxing CSP: a file
 * someone sent the account (HTML, SVG) must never run as a page of the gateway's origin.
 */
export function fileResponse(file: Ready, request: Request): Response {
	const blob = 'path' in file ? Bun.file(file.path) : undefined
	const size = blob ? blob.size : file.size
	// From the name's extension (Bun.file reads nothing for its type).
	const type = blob?.type ?? Bun.file(file.name).type
	const headers: Record<string, string> = {
		'content-type': type || 'application/octet-stream',
		'content-disposition': disposition(file.name),
		etag: file.etag,
		'accept-ranges': 'bytes',
		'cache-control': 'private, no-cache',
		'x-content-type-options': 'nosniff',
		'content-security-policy': "default-src 'none'; sandbox",
	}
	if (etagMatches(request.headers.get('if-none-match'), file.etag))
		return new Response(null, { status: 304, headers })
	const range = parseRange(request.headers.get('range'), size)
	if (range === 'unsatisfiable')
		return Response.json(
			{ detail: 'Requested range not satisfiable.', code: 'range_not_satisfiable' },
			{ status: 416, headers: { 'content-range': `bytes */${size}` } },
		)
	const body = (start: number, end: number) =>
		blob ? blob.slice(start, end + 1) : 'read' in file ? partStream(file.read, start, end) : null
	if (!range) return new Response(size === 0 ? null : body(0, size - 1), { status: 200, headers })
	headers['content-range'] = `bytes ${range.start}-${range.end}/${size}`
	return new Response(body(range.start, range.end), { status: 206, headers })
}

/**
 * Bytes `start`..`end` (inclusive) of a file read through TDLib, streamed part by part as the client
 * reads: one part of at most READ_PART_BYTES in flight, never the whole file in memory. A part that
 * fails or comes back empty ends the body with an error (the connection is cut, the length unmet).
 */
function partStream(read: PartReader, start: number, end: number): ReadableStream<Uint8Array> {
	let at = start
	return new ReadableStream<Uint8Array>(
		{
			async pull(controller) {
				if (at > end) return controller.close()
				const bytes = await read(at, Math.min(READ_PART_BYTES, end - at + 1))
				if (bytes.length === 0) return controller.error(new Error('the file ended before its size'))
				at += bytes.length
				controller.enqueue(bytes)
				if (at > end) controller.close()
			},
		},
		{ highWaterMark: 0 },
	)
}

/** A download TDLib has not finished within the wait: 202, its progress, and when to ask again. */
export const pendingResponse = (p: Extract<FileOutcome, { ready: false }>) =>
	Response.json(
		{ downloaded_size: p.downloaded_size, expected_size: p.expected_size },
		{ status: 202, headers: { 'retry-after': '1' } },
	)
