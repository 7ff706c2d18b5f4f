import { BotError, badRequest } from './answer'

/** The most a JSON, form-urlencoded or query request's body may hold here, and a multipart body's fields together. */
const MAX_BODY = 1024 * 1024

/**
 * Multipart bodies (docs/bot-api.md#files): the Bot API's own upload limit, 50 MB, for one file and
 * for the files of one request together (an album's parts share it); at most MAX_PARTS parts, and
 * part names of at most MAX_PART_NAME characters. What the userbot's upload quotas allow is the
 * store's to say when a file is kept.
 */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024
export const MAX_PARTS = 50
const MAX_PART_NAME = 64
/** Boundaries and part headers, beside the files and the fields. */
const MULTIPART_FRAMING = 64 * 1024

/** Telegram's answer to a body over its limits. */
export const TOO_LARGE = new BotError(413, 'Request Entity Too Large')

/**
 * A method's parameters as the Bot API takes them: the query string, and a JSON, form-urlencoded or
 * multipart body (its fields win over the query's). Form and query values are strings; `numberOf`
 * and `objectOf` read them as the Bot API does (a JSON-serialized object in a string). A multipart
 * body's file parts are `File`s under their part's name (`attach://<name>` names one).
 */
export async function readParams(request: Request): Promise<Record<string, unknown>> {
	const params: Record<string, unknown> = Object.fromEntries(new URL(request.url).searchParams)
	if (request.method !== 'POST') return params
	const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
	if (type === 'multipart/form-data') return { ...params, ...(await multipart(request)) }
	const length = Number(request.headers.get('content-length') ?? '0')
	if (length > MAX_BODY) throw TOO_LARGE
	const body = decoded(request, MAX_BODY)
	let text: string
	try {
		text = await body.request.text()
	} catch {
		throw body.over() ? TOO_LARGE : badRequest('the request body could not be decoded')
	}
	if (text.length > MAX_BODY) throw TOO_LARGE
	if (text === '') return params
	if (type === 'application/json') {
		let value: unknown
		try {
			value = JSON.parse(text)
		} catch {
			throw badRequest('the request body is not valid JSON')
		}
		if (typeof value !== 'object' || value === null || Array.isArray(value))
			throw badRequest('the request body is not a JSON object')
		return { ...params, ...(value as Record<string, unknown>) }
	}
	if (type === 'application/x-www-form-urlencoded')
		return { ...params, ...Object.fromEntries(new URLSearchParams(text)) }
	return params
}

/** The `Content-Encoding`s of a request body read here (Bun's `node-fetch` gzips what telegraf sends). */
const ENCODINGS: Readonly<Record<string, 'gzip' | 'deflate'>> = {
	gzip: 'gzip',
	'x-gzip': 'gzip',
	deflate: 'deflate',
}

/**
 * The request with its body decoded as its `Content-Encoding` says, at most `cap` bytes once decoded
 * (past it the body's read fails and `over()` says why: no bomb of a few bytes fills the memory).
 */
function decoded(request: Request, cap: number): { request: Request; over: () => boolean } {
	const encoding = (request.headers.get('content-encoding') ?? '').trim().toLowerCase()
	if (encoding === '' || encoding === 'identity' || !request.body) return { request, over: () => false }
	const format = ENCODINGS[encoding]
	if (!format) throw badRequest('unsupported Content-Encoding')
	let seen = 0
	const capped = new TransformStream<Uint8Array, Uint8Array>({
		transform(chunk, controller) {
			seen += chunk.byteLength
			if (seen > cap) controller.error(new Error('over the limit'))
			else controller.enqueue(chunk)
		},
	})
	const headers = new Headers(request.headers)
	headers.delete('content-encoding')
	headers.delete('content-length')
	const body = request.body.pipeThrough(new DecompressionStream(format)).pipeThrough(capped)
	const init = { method: 'POST', headers, body, duplex: 'half' }
	return { request: new Request(request.url, init as RequestInit), over: () => seen > cap }
}

/**
 * A multipart body, read by the runtime's own parser (`Request.formData`) once its announced length
 * fits; then checked whole: the part count, each name, the fields' bytes, each file and all of them.
 * (The server itself refuses any body past UPLOAD_MAX_BYTES and its framing, announced or not.)
 */
async function multipart(request: Request): Promise<Record<string, unknown>> {
	const length = Number(request.headers.get('content-length') ?? '0')
	const cap = MAX_UPLOAD_BYTES + MAX_BODY + MULTIPART_FRAMING
	if (length > cap) throw TOO_LARGE
	const body = decoded(request, cap)
	let form: FormData
	try {
		form = await body.request.formData()
	} catch {
		throw body.over() ? TOO_LARGE : badRequest('the request body is not valid multipart/form-data')
	}
	const out: Record<string, unknown> = {}
	let parts = 0
	let fieldBytes = 0
	let fileBytes = 0
	for (const [name, entry] of form.entries()) {
		const value = entry as unknown as string | File
		if (++parts > MAX_PARTS) throw badRequest(`a request may have at most ${MAX_PARTS} parts`)
		if (name.length === 0 || name.length > MAX_PART_NAME) throw badRequest('invalid part name specified')
		if (typeof value === 'string') {
			fieldBytes += value.length
			if (fieldBytes > MAX_BODY) throw TOO_LARGE
		} else {
			fileBytes += value.size
			if (value.size > MAX_UPLOAD_BYTES || fileBytes > MAX_UPLOAD_BYTES) throw TOO_LARGE
		}
		out[name] = value
	}
	return out
}

/** A file part of a multipart body. */
export const isUpload = (x: unknown): x is File => x instanceof File

/** An integer parameter (a number, or a string of digits), or undefined when absent. */
export function intOf(params: Record<string, unknown>, name: string): number | undefined {
	const value = params[name]
	if (value === undefined || value === null || value === '') return undefined
	const n = typeof value === 'string' && /^-?\d{1,16}$/.test(value) ? Number(value) : value
	if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw badRequest(`invalid ${name} specified`)
	return n
}

export function requiredInt(params: Record<string, unknown>, name: string, missing: string): number {
	const n = intOf(params, name)
	if (n === undefined) throw badRequest(missing)
	return n
}

export function stringOf(params: Record<string, unknown>, name: string): string | undefined {
	const value = params[name]
	if (value === undefined || value === null) return undefined
	if (typeof value !== 'string') throw badRequest(`invalid ${name} specified`)
	return value
}

/** A parameter that is an object: given as one (JSON), or JSON-serialized in a string (form, query). */
export function objectOf(params: Record<string, unknown>, name: string): Record<string, unknown> | undefined {
	let value = params[name]
	if (value === undefined || value === null || value === '') return undefined
	if (typeof value === 'string') {
		try {
			value = JSON.parse(value)
		} catch {
			throw badRequest(`can't parse ${name} JSON object`)
		}
	}
	if (typeof value !== 'object' || value === null || Array.isArray(value))
		throw badRequest(`invalid ${name} specified`)
	return value as Record<string, unknown>
}

/** A boolean parameter: JSON's true/false, or "true"/"false" (or 1/0) in a query or a form; undefined when absent. */
export function boolOf(params: Record<string, unknown>, name: string): boolean | undefined {
	const value = params[name]
	if (value === undefined || value === null || value === '') return undefined
	if (value === true || value === 'true' || value === 1 || value === '1') return true
	if (value === false || value === 'false' || value === 0 || value === '0') return false
	throw badRequest(`invalid ${name} specified`)
}

/**
 * A parameter that may come as JSON in a string (a form, a query: `entities`, `media`, `reaction`,
 * lists of ids), parsed; undefined when absent or empty. Unparsable: `can't parse <name> JSON <what>`.
 */
export function jsonOf(params: Record<string, unknown>, name: string, what: 'array' | 'object'): unknown {
	const value = params[name]
	if (value === undefined || value === null || value === '') return undefined
	if (typeof value !== 'string') return value
	try {
		return JSON.parse(value)
	} catch {
		throw badRequest(`can't parse ${name} JSON ${what}`)
	}
}
