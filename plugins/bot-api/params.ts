import { badRequest } from './answer'

/** The most a Bot API request's body may hold here (multipart uploads are not served yet). */
const MAX_BODY = 1024 * 1024

/**
 * A method's parameters as the Bot API takes them: the query string, and a JSON or form-urlencoded
 * body (its fields win over the query's). Form and query values are strings; `numberOf` and
 * `objectOf` read them as the Bot API does (a JSON-serialized object in a string).
 */
export async function readParams(request: Request): Promise<Record<string, unknown>> {
	const params: Record<string, unknown> = Object.fromEntries(new URL(request.url).searchParams)
	if (request.method !== 'POST') return params
	const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
	const text = await request.text()
	if (text.length > MAX_BODY) throw badRequest('request is too large')
	if (text === '') return params
	if (type === 'application/json') {
		let body: unknown
		try {
			body = JSON.parse(text)
		} catch {
			throw badRequest('the request body is not valid JSON')
		}
		if (typeof body !== 'object' || body === null || Array.isArray(body))
			throw badRequest('the request body is not a JSON object')
		return { ...params, ...(body as Record<string, unknown>) }
	}
	if (type === 'application/x-www-form-urlencoded')
		return { ...params, ...Object.fromEntries(new URLSearchParams(text)) }
	if (type === 'multipart/form-data') throw badRequest('multipart uploads are not supported yet')
	return params
}

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
