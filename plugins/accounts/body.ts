import { HttpError } from '../../src/http/errors'

/**
 * Reads a request body as a JSON object ourselves (routes use `parse: 'none'`): anything else,
 * a non-JSON content type, bad JSON, or JSON that is not an object, is DRF's parse error, and
 * nothing of what was sent is quoted back.
 */
const MAX_BODY = 4 * 1024 * 1024

const parseError = (why: string) => new HttpError(400, { detail: `JSON parse error - ${why}` })

export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
	const type = request.headers.get('content-type') ?? ''
	const length = Number(request.headers.get('content-length') ?? 0)
	if (length > MAX_BODY) throw parseError('the request body is too large')
	const text = await request.text()
	if (text.length > MAX_BODY) throw parseError('the request body is too large')
	// An empty body is an empty object (DRF's empty `request.data`): the fields then say what is missing.
	if (text.trim() === '') return {}
	if (!/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type)) {
		throw parseError('the content type must be application/json')
	}
	let value: unknown
	try {
		value = JSON.parse(text)
	} catch {
		throw parseError('the request body is not valid JSON')
	}
	if (value === null || typeof value !== 'object' || Array.isArray(value)) {
		throw parseError('the request body must be a JSON object')
	}
	return value as Record<string, unknown>
}
