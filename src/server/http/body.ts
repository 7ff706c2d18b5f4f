import { HttpError } from './errors'

/**
 * Reads a request body as a JSON object (the parser of every route definition, src/server/http/rest-route.ts,
 * and of a route that reads its own body), answering as DRF does and quoting nothing of what was sent:
 * - not JSON (bad syntax, bad UTF-8, a non-JSON content type): 400 `{"detail": "JSON parse error - ..."}`;
 * - JSON that is not an object: 400 `{"non_field_errors": ["Invalid data. Expected a dictionary, but
 *   got list."]}` (`null`: "No data provided"), DRF's serializer answers;
 * - more than MAX_BODY bytes: 413, and reading stops there (a chunked body is not buffered whole).
 * An empty body is an empty object (DRF's empty `request.data`): the fields then say what is missing.
 */
/** Django's DATA_UPLOAD_MAX_MEMORY_SIZE: roomy for a 1 MB field, which then fails on its length. */
export const MAX_BODY = 2.5 * 1024 * 1024

const parseError = (why: string) => new HttpError(400, { detail: `JSON parse error - ${why}` })
const tooLarge = () =>
	new HttpError(413, { detail: 'Request body is too large.', code: 'request_entity_too_large' })
const notAnObject = (message: string) => new HttpError(400, { non_field_errors: [message] })
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i

export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
	const text = await readText(request)
	if (text.trim() === '') return {}
	if (!JSON_TYPE.test(request.headers.get('content-type') ?? '')) {
		throw parseError('the content type must be application/json')
	}
	let value: unknown
	try {
		value = JSON.parse(text)
	} catch {
		throw parseError('the request body is not valid JSON')
	}
	if (value === null) throw notAnObject('No data provided')
	if (typeof value !== 'object' || Array.isArray(value)) {
		throw notAnObject(`Invalid data. Expected a dictionary, but got ${pythonTypeOf(value, text)}.`)
	}
	return value as Record<string, unknown>
}

/** The body as UTF-8 text, read chunk by chunk and abandoned past MAX_BODY bytes. */
async function readText(request: Request): Promise<string> {
	if (Number(request.headers.get('content-length') ?? 0) > MAX_BODY) throw tooLarge()
	const body = request.body
	if (!body) return ''
	const chunks: Uint8Array[] = []
	let size = 0
	const reader = body.getReader()
	for (;;) {
		const { done, value } = await reader.read()
		if (done) break
		size += value.byteLength
		if (size > MAX_BODY) {
			await reader.cancel().catch(() => {})
			throw tooLarge()
		}
		chunks.push(value)
	}
	try {
		return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks, size))
	} catch {
		throw parseError('the request body is not valid UTF-8')
	}
}

/** The name Python gives the parsed value's type, as DRF's message shows it. */
function pythonTypeOf(value: unknown, text: string): string {
	if (Array.isArray(value)) return 'list'
	if (typeof value === 'string') return 'str'
	if (typeof value === 'boolean') return 'bool'
	return /^\s*-?\d+\s*$/.test(text) ? 'int' : 'float'
}
