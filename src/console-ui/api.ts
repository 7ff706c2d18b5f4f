/// <reference lib="dom" />

/**
 * REST calls of the console: same origin, with the session cookie. Unsafe requests pass the CSRF
 * check by their `Origin`, which the browser sets and scripts cannot (the `csrftoken` cookie is
 * HttpOnly, so there is no token to copy into a header).
 */
export interface ApiAnswer<T = unknown> {
	status: number
	ok: boolean
	data: T
}

export async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<ApiAnswer<T>> {
	const res = await fetch(path, {
		method,
		credentials: 'same-origin',
		headers: body === undefined ? {} : { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	})
	const type = res.headers.get('content-type') ?? ''
	const data = (type.includes('json') ? await res.json().catch(() => null) : null) as T
	return { status: res.status, ok: res.ok, data }
}

/** One line from a DRF-shaped error body: `detail`, or `field: message` for each field error. */
export function errorText(answer: ApiAnswer): string {
	const data = answer.data
	if (data && typeof data === 'object') {
		const o = data as Record<string, unknown>
		if (typeof o.detail === 'string') return o.detail
		const parts: string[] = []
		for (const [k, v] of Object.entries(o)) {
			if (Array.isArray(v)) parts.push(`${k}: ${v.filter((x) => typeof x === 'string').join(' ')}`)
		}
		if (parts.length) return parts.join('; ')
	}
	return `HTTP ${answer.status}`
}
