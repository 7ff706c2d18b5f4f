import { type RestApi, ROUTES } from './generated/rest-api'

/** REST through `fetch`, typed by the OpenAPI document: `await rest.accounts.me.get()`. */

export interface RestClientOptions {
	/** A bearer access token, or a function giving the current one (called for every request). */
	token?: string | (() => string | undefined | Promise<string | undefined>)
	/** Further headers (a session cookie and `Origin` on a server; browsers send cookies themselves). */
	headers?: Record<string, string>
	fetch?: typeof fetch
}

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete'])

/** `/api/userbots/{}/phone` (parameters as `{}`, no trailing slash) → the document's path. */
const TEMPLATES = new Map(ROUTES.map((r) => [template(r), r]))

function template(path: string): string {
	return path.replace(/\{[^}]+\}/g, '{}').replace(/\/+$/, '')
}

interface CallOptions {
	query?: Record<string, string | number | undefined>
	headers?: Record<string, string>
	signal?: AbortSignal
}

/**
 * The tree is built as it is walked (`rest.api.userbots({ id })` adds a segment of the parameter's
 * value), and a method name sends: the path is the document's own, trailing slash included.
 */
export function createRestClient(url: string, opts: RestClientOptions = {}): RestApi {
	const base = url.replace(/\/+$/, '')
	const send = async (
		method: string,
		shape: string[],
		values: string[],
		body: unknown,
		call: CallOptions,
	) => {
		const documented = TEMPLATES.get(`/${shape.join('/')}`) ?? `/${shape.join('/')}`
		let i = 0
		const path = documented.replace(/\{[^}]+\}/g, () => encodeURIComponent(values[i++] ?? ''))
		const query = new URLSearchParams()
		for (const [k, v] of Object.entries(call.query ?? {})) if (v !== undefined) query.set(k, String(v))
		const token = typeof opts.token === 'function' ? await opts.token() : opts.token
		const headers: Record<string, string> = { ...opts.headers, ...call.headers }
		if (token) headers.authorization = `Bearer ${token}`
		const isForm = typeof FormData !== 'undefined' && body instanceof FormData
		if (body !== undefined && !isForm) headers['content-type'] = 'application/json'
		const search = query.toString()
		const response = await (opts.fetch ?? fetch)(`${base}${path}${search ? `?${search}` : ''}`, {
			method: method.toUpperCase(),
			headers,
			body: body === undefined ? undefined : isForm ? (body as FormData) : JSON.stringify(body),
			signal: call.signal,
		})
		const value = await readBody(response)
		const ok = response.status >= 200 && response.status < 300
		return {
			data: ok ? value : null,
			error: ok ? null : { status: response.status, value },
			status: response.status,
			headers: response.headers,
			response,
		}
	}
	const node = (shape: string[], values: string[]): unknown =>
		new Proxy(() => {}, {
			get(_, key) {
				if (typeof key !== 'string') return undefined
				if (METHODS.has(key)) {
					return key === 'get'
						? (call: CallOptions = {}) => send(key, shape, values, undefined, call)
						: (body: unknown, call: CallOptions = {}) => send(key, shape, values, body, call)
				}
				return node([...shape, key], values)
			},
			apply(_, __, args: unknown[]) {
				const params = (args[0] ?? {}) as Record<string, string | number>
				const value = Object.values(params)[0]
				return node([...shape, '{}'], [...values, String(value)])
			},
		})
	return node([], []) as RestApi
}

async function readBody(response: Response): Promise<unknown> {
	if (response.status === 204 || response.status === 304) return null
	const type = response.headers.get('content-type') ?? ''
	if (type.includes('application/json')) {
		const text = await response.text()
		try {
			return JSON.parse(text)
		} catch {
			return text
		}
	}
	if (type.startsWith('text/')) return response.text()
	return response.blob()
}
