import { LEAK } from './frame-driver'
import { OWN_ID, type RestRequest } from './rest-arbitraries'

/**
 * Sends a fuzzed REST request to a real server and judges the answer: never a 5xx (the database is
 * healthy here, so a 5xx is a bug, not a storage failure; family B's 502 for a main server that
 * answers junk is the one documented exception), a body that is
 * JSON when there is one, and nothing in it that leaks a stack, a query or a library's wording.
 */
/**
 * valibot's sentences (`Invalid type: Expected string but received 5`); DRF's own `Expected a
 * dictionary, but got list.` is the wording docs/rest.md#rest-accounts-family-a promises, and stays allowed.
 */
const VALIBOT_WORDING = /Invalid (type|length|value|key|format|entries): |Expected .* but received /

const MAIN_DOWN = '{"detail":"Main server unavailable"}'

export interface RestState {
	/** The fuzzing user's bearer token (renewed when a fuzzed logout revoked it). */
	bearer: string
	/** The current own userbot and invite (the fuzz may delete or revoke them). */
	userbotId: number
	inviteId: number
}

export interface RestAnswer {
	status: number
	problem: string | null
}

/** The routes that serve a page or an asset, not JSON: the web console and the OpenAPI viewer. */
const PAGES = new Set(['/', '/reset-password', '/console/app.js', '/console/app.css', '/api/docs'])

export async function sendRest(baseUrl: string, req: RestRequest, state: RestState): Promise<RestAnswer> {
	const headers: Record<string, string> = {}
	if (req.contentType !== null) headers['content-type'] = req.contentType
	if (req.auth === 'bearer') headers.authorization = `Bearer ${state.bearer}`
	if (req.auth === 'junk-bearer') headers.authorization = 'Bearer eyJhbGciOiJub25lIn0.e30.'
	if (req.auth === 'junk-cookie') headers.cookie = 'sessionid=../../x; csrftoken=\u00ff'
	const own = req.path.includes('/invites/') ? state.inviteId : state.userbotId
	const path = req.path.replace(OWN_ID, String(own))
	let res: Response
	try {
		// Bytes as a Buffer: with @types/node beside bun-types, a bare Uint8Array is no BodyInit to tsc.
		const body = req.body instanceof Uint8Array ? Buffer.from(req.body) : req.body
		res = await fetch(`${baseUrl}${path}`, { method: req.method, headers, body })
	} catch (err) {
		return {
			status: 0,
			problem: `no answer (${err instanceof Error ? err.message : String(err)}): ${req.describe}`,
		}
	}
	const text = await res.text()
	const where = `${res.status} to ${req.describe}: ${text.slice(0, 300)}`
	// Family B's documented answer when the main server answers junk (it does, on purpose).
	const mainDown = res.status === 502 && path.startsWith('/api/accounts/') && text === MAIN_DOWN
	if (res.status >= 500 && !mainDown) return { status: res.status, problem: `a server error ${where}` }
	if (text !== '' && req.method !== 'HEAD' && !PAGES.has(path)) {
		try {
			JSON.parse(text)
		} catch {
			return { status: res.status, problem: `a body that is not JSON ${where}` }
		}
	}
	if (LEAK.test(text) || VALIBOT_WORDING.test(text)) return { status: res.status, problem: `a leak ${where}` }
	return { status: res.status, problem: null }
}
