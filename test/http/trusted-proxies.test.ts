import { afterEach, describe, expect, it } from 'bun:test'
import { startTestServer, type TestServer } from '../../src/app/testing/server'

/**
 * Over the real server: the registration limit (one per client address here) keys on the client
 * that a trusted proxy names, and on the socket's peer otherwise. The test's own connection comes
 * from 127.0.0.1: trusting it makes the test the proxy.
 */
const servers: TestServer[] = []
afterEach(async () => {
	for (const s of servers.splice(0)) await s.stop()
})

let n = 0
async function register(server: TestServer, forwarded: Record<string, string>): Promise<number> {
	const res = await fetch(`${server.url}/accounts/register/`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...forwarded },
		body: JSON.stringify({
			email: `proxied-${process.pid}-${++n}@example.com`,
			password: 'Correct-Horse-42',
			first_name: 'P',
			last_name: 'Q',
		}),
	})
	await res.body?.cancel()
	return res.status
}

async function serve(env: Record<string, string>) {
	const server = await startTestServer({ env: { REGISTER_RATE_LIMIT_IP: '1', ...env } })
	servers.push(server)
	return server
}

describe('TRUSTED_PROXIES', () => {
	it('gives each client a trusted proxy names its own bucket (X-Forwarded-For and Forwarded)', async () => {
		const server = await serve({ TRUSTED_PROXIES: '127.0.0.1, ::1' })
		expect(await register(server, { 'x-forwarded-for': '198.51.100.1' })).toBe(201)
		expect(await register(server, { 'x-forwarded-for': '198.51.100.1' })).toBe(429)
		// Another client, named by the proxy in either header: its own bucket.
		expect(await register(server, { 'x-forwarded-for': '198.51.100.2' })).toBe(201)
		expect(await register(server, { forwarded: 'for="[2001:db8::7]:4711"' })).toBe(201)
		expect(await register(server, { forwarded: 'for=2001:db8::7' })).toBe(429)
		// A client that forged an entry before the real one is still the real one.
		expect(await register(server, { 'x-forwarded-for': '203.0.113.9, 198.51.100.1' })).toBe(429)
	})

	it('believes no header from a peer that is not a trusted proxy: one bucket for all', async () => {
		const server = await serve({ TRUSTED_PROXIES: '10.0.0.0/8' })
		expect(await register(server, { 'x-forwarded-for': '198.51.100.1' })).toBe(201)
		expect(await register(server, { 'x-forwarded-for': '198.51.100.2' })).toBe(429)
		expect(await register(server, { forwarded: 'for=198.51.100.3' })).toBe(429)
	})

	it('believes none by default', async () => {
		const server = await serve({})
		expect(await register(server, { 'x-forwarded-for': '198.51.100.1' })).toBe(201)
		expect(await register(server, { 'x-forwarded-for': '198.51.100.2' })).toBe(429)
	})
})
