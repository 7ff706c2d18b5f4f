import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { WWW_AUTHENTICATE } from '../../src/server/http/errors'
import { getTestInstance, type TestInstance } from '../helpers'

/**
 * RFC 9110 §15.5.2: a 401 carries `WWW-Authenticate`; simplejwt sends `Bearer realm="api"`. Every
 * route the app serves (both login families, userbots, the WebSocket upgrade, the member routes) is
 * asked without credentials, with a bad bearer token, with a dead session cookie, and with wrong
 * credentials in the body: every 401 must carry the challenge, and every route that is not public
 * must have answered 401 to at least one of them.
 */
const PUBLIC = new Set([
	'GET /health',
	'POST /accounts/register/',
	'POST /accounts/check-password/',
	'POST /accounts/logout/',
	'POST /accounts/request-reset/',
	'POST /accounts/reset-password/',
	'POST /api/accounts/logout/',
	'GET /api/commands/',
	'GET /api/asyncapi.json',
	'GET /api/openapi.json',
	'GET /api/docs',
	'GET /',
	'GET /reset-password',
	'GET /console/app.js',
	'GET /console/app.css',
	// The Bot API face: its credential is the token in its path (docs/bot-api.md), no header is read.
	'GET /bot:token/:method',
	'POST /bot:token/:method',
	'GET /file/bot:token/:file_path',
])

const WS_HEADERS = {
	upgrade: 'websocket',
	connection: 'Upgrade',
	'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
	'sec-websocket-version': '13',
}
const VARIANTS: Array<Record<string, string>> = [
	{},
	{ authorization: 'Bearer not-a-token' },
	{ cookie: 'sessionid=no-such-session; csrftoken=x' },
]

let main: TestInstance
let t: TestInstance
beforeAll(async () => {
	main = await getTestInstance({ PLUGINS: 'accounts' })
	// Every plugin, family B included.
	t = await getTestInstance({ MAIN_SERVER_URL: main.url })
})
afterAll(async () => {
	await t?.stop()
	await main?.stop()
})

describe('WWW-Authenticate', () => {
	it('comes with every 401 of every route, and every route that is not public answers 401', async () => {
		const routes = t.app.routes
			.filter((r) => !['ALL', 'HEAD', 'OPTIONS'].includes(r.method))
			.map((r) => ({ method: r.method, path: r.path }))
		const answered401 = new Set<string>()
		let sent = 0
		const missing: string[] = []
		for (const { method, path } of routes) {
			const key = `${method} ${path}`
			const url = t.url + path.replace(':permission', 'security.password').replace(/:\w+/g, '1')
			for (const headers of VARIANTS) {
				const ws = method === 'WS'
				const res = await fetch(url, {
					method: ws ? 'GET' : method,
					headers: {
						...headers,
						...(ws ? WS_HEADERS : {}),
						...(method === 'POST' ? { 'content-type': 'application/json', origin: t.url } : {}),
					},
					// Wrong credentials for the routes that take them in the body (an e-mail each: no rate limit).
					...(method === 'POST'
						? {
								body: JSON.stringify({
									email: `nobody-${++sent}@example.com`,
									password: 'Wrong-pass-1',
									refresh: 'a.b.c',
								}),
							}
						: {}),
				})
				await res.arrayBuffer()
				if (res.status !== 401) continue
				answered401.add(key)
				if (res.headers.get('www-authenticate') !== WWW_AUTHENTICATE)
					missing.push(`${key} ${JSON.stringify(headers)}`)
			}
		}
		expect(missing).toEqual([])
		const protectedRoutes = [...new Set(routes.map((r) => `${r.method} ${r.path}`))].filter(
			(k) => !PUBLIC.has(k),
		)
		expect(protectedRoutes.filter((k) => !answered401.has(k))).toEqual([])
		// The sweep met the routes of every kind: token views, family B, userbots, members, the socket, MCP.
		for (const key of [
			'POST /accounts/token/',
			'POST /accounts/token/refresh/',
			'POST /api/accounts/login/',
			'GET /accounts/me/',
			'DELETE /accounts/members/:id/grants/:permission/',
			'POST /api/userbots/:id/files/',
			'WS /ws',
			// The MCP face: an API key as the bearer, nothing else (docs/mcp.md).
			'POST /mcp',
			'GET /mcp',
			'DELETE /mcp',
		])
			expect(answered401.has(key)).toBe(true)
	}, 60_000)
})
