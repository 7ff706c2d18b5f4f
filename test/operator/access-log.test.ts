import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { getTestInstance, type TestInstance } from '../helpers'
import { connectWs, registerUser, type TestUser } from '../helpers-ws'

/**
 * Logs an operator can use (docs/operator.md): one access line per HTTP request and per WebSocket
 * session, with the route pattern, status, time, client address after TRUSTED_PROXIES and the user;
 * one line per failed log-in with the client address. Never a token, a password or a body.
 */
const lines: string[] = []
let t: TestInstance
let owner: TestUser
beforeAll(async () => {
	t = await getTestInstance({ TRUSTED_PROXIES: '127.0.0.1' }, { logLines: lines })
	owner = await registerUser(t, `logs-${Date.now()}@example.com`)
})
afterAll(() => t.stop())

const parsed = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>)

describe('access lines', () => {
	it('names the route pattern, status, client after the trusted proxy, and the user; no token', async () => {
		const res = await fetch(`${t.url}/api/userbots/12345/?secret=query-value`, {
			headers: { authorization: `Bearer ${owner.access}`, 'x-forwarded-for': '203.0.113.9' },
		})
		expect(res.status).toBe(404)
		// The line is written once the answer has gone: wait for it.
		let line: Record<string, unknown> | undefined
		while (!line) {
			line = parsed().find((l) => l.msg === 'http' && l.route === '/api/userbots/:id/')
			if (!line) await Bun.sleep(5)
		}
		expect(line).toMatchObject({ method: 'GET', status: 404, client: '203.0.113.9', user: owner.userId })
		expect(typeof line?.ms).toBe('number')
		const all = lines.join('\n')
		expect(all).not.toContain(owner.access)
		expect(all).not.toContain('query-value')
		expect(all).not.toContain('12345')
	})

	it('writes one line per WebSocket session when it closes', async () => {
		const s = await connectWs(t.url, { bearer: owner.access })
		s.close()
		await s.closed
		let line: Record<string, unknown> | undefined
		while (!line) {
			line = parsed().find((l) => l.msg === 'ws')
			if (!line) await Bun.sleep(5)
		}
		expect(line).toMatchObject({ method: 'WS', route: '/ws', client: '127.0.0.1', user: owner.userId })
		expect(lines.join('\n')).not.toContain(owner.access)
	})

	it('writes one line per failed log-in with the client address, and no password or e-mail', async () => {
		const res = await fetch(`${t.url}/accounts/login/`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.7' },
			body: JSON.stringify({ email: owner.email, password: 'Wrong-Password-99' }),
		})
		expect(res.status).toBe(401)
		const failed = parsed().filter((l) => l.msg === 'login failed')
		expect(failed).toHaveLength(1)
		expect(failed[0]).toMatchObject({ level: 'warn', client: '198.51.100.7' })
		const all = lines.join('\n')
		expect(all).not.toContain('Wrong-Password-99')
		expect(JSON.stringify(failed[0])).not.toContain(owner.email)
	})
})
