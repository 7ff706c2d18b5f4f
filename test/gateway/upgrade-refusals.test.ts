import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { createHmac } from 'node:crypto'
import { connect } from 'node:net'
import { readClaims } from '../../src/server/auth/tokens'
import { getTestInstance, type TestInstance } from '../helpers'
import { registerUser, type TestUser } from '../helpers-ws'

/**
 * A refused `GET /ws` says why in its body, in DRF's shape, word for word what the REST routes
 * answer for the same credentials (docs/protocol.md#connecting): a client that cannot connect reads
 * the same reason it would read from `GET /accounts/me/`. Asked as a WebSocket client asks (the
 * upgrade headers) and as curl does without them.
 */
let t: TestInstance
let user: TestUser
let refresh: string

beforeAll(async () => {
	t = await getTestInstance()
	user = await registerUser(t, 'upgrade-refusals@example.com')
	const pair = await fetch(`${t.url}/accounts/token/`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ email: user.email, password: user.password }),
	})
	refresh = ((await pair.json()) as { refresh: string }).refresh
})
afterAll(() => t.stop())

const UPGRADE = {
	connection: 'Upgrade',
	upgrade: 'websocket',
	'sec-websocket-version': '13',
	'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
}

/** The user's access token signed again with the server's key, expiring `exp` seconds from now. */
function resignedAccess(exp: number): string {
	const claims = readClaims(user.access)
	if (!claims) throw new Error('no claims')
	const now = Math.floor(Date.now() / 1000)
	const body = { ...claims, iat: now - 3600, exp: now + exp }
	const head = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url')
	const data = `${head}.${Buffer.from(JSON.stringify(body)).toString('base64url')}`
	return `${data}.${createHmac('sha256', t.config.secrets.jwtSecret).update(data).digest('base64url')}`
}

interface Answer {
	status: number
	body: unknown
	wwwAuthenticate: string | null
}

async function answer(path: string, headers: Record<string, string>): Promise<Answer> {
	const res = await fetch(`${t.url}${path}`, { headers })
	return { status: res.status, body: await res.json(), wwwAuthenticate: res.headers.get('www-authenticate') }
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

describe('GET /ws', () => {
	const cases: Array<[string, () => Record<string, string>, unknown]> = [
		[
			'without credentials',
			() => ({}),
			{ detail: 'Authentication credentials were not provided.', code: 'not_authenticated' },
		],
		[
			'with an expired access token',
			() => bearer(resignedAccess(-60)),
			{ detail: 'Token is invalid or expired', code: 'token_not_valid' },
		],
		[
			'with a bad token',
			() => bearer('not-a-token'),
			{ detail: 'Token is invalid or expired', code: 'token_not_valid' },
		],
		[
			'with a refresh token where an access token belongs',
			() => bearer(refresh),
			{ detail: 'Token is invalid or expired', code: 'token_not_valid' },
		],
	]
	for (const [name, credentials, body] of cases) {
		it(`refused ${name}: 401 with the reason GET /accounts/me/ gives, to an upgrade and to a plain GET`, async () => {
			const rest = await answer('/accounts/me/', credentials())
			expect(rest).toEqual({ status: 401, body, wwwAuthenticate: 'Bearer realm="api"' })
			expect(await answer('/ws', { ...UPGRADE, ...credentials() })).toEqual(rest)
			expect(await answer('/ws', credentials())).toEqual(rest)
		})
	}

	it('with good credentials but no upgrade: 400, not 404', async () => {
		expect((await answer('/accounts/me/', bearer(user.access))).status).toBe(200)
		// The expired token above is refused for its `exp` alone: signed alike, a live one passes.
		expect((await answer('/accounts/me/', bearer(resignedAccess(60)))).status).toBe(200)
		expect(await answer('/ws', bearer(user.access))).toEqual({
			status: 400,
			body: { detail: 'Expected a WebSocket upgrade.' },
			wwwAuthenticate: null,
		})
	})

	it('opens the socket of an upgrade whose Upgrade header is not in lower case', async () => {
		// Written on a bare socket: WebSocket classes send `websocket`; the header is case-insensitive.
		const { hostname, port } = new URL(t.url)
		const request = [
			'GET /ws HTTP/1.1',
			`Host: ${hostname}:${port}`,
			'Connection: Upgrade',
			'Upgrade: WebSocket',
			'Sec-WebSocket-Version: 13',
			`Sec-WebSocket-Key: ${UPGRADE['sec-websocket-key']}`,
			`Authorization: Bearer ${user.access}`,
			'',
			'',
		].join('\r\n')
		const statusLine = await new Promise<string>((resolve, reject) => {
			const socket = connect(Number(port), hostname, () => socket.write(request))
			socket.once('data', (chunk) => {
				resolve(chunk.toString('latin1').split('\r\n')[0] ?? '')
				socket.destroy()
			})
			socket.once('error', reject)
		})
		expect(statusLine).toBe('HTTP/1.1 101 Switching Protocols')
	})
})
