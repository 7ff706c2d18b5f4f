import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import parsePrometheusTextFormat, { type MetricFamily } from 'parse-prometheus-text-format'
import { getTestInstance, type TestInstance } from '../helpers'
import { connectWs, createLoggedInUserbot, registerUser } from '../helpers-ws'

/**
 * `GET /metrics` (docs/operator.md): Prometheus text, served only with METRICS_TOKEN (bearer,
 * compared in constant time) or on METRICS_ADDRESS; a counter moves when a command runs; labels name
 * route patterns and commands, never a userbot.
 */
const TOKEN = 'metrics-token-0123456789'

const scrape = async (url: string, token?: string) => {
	const res = await fetch(`${url}/metrics`, token ? { headers: { authorization: `Bearer ${token}` } } : {})
	expect(res.status).toBe(200)
	expect(res.headers.get('content-type')).toContain('text/plain')
	return parsePrometheusTextFormat(await res.text())
}
const family = (families: MetricFamily[], name: string) => families.find((f) => f.name === name)
const sample = (families: MetricFamily[], name: string, labels: Record<string, string>) =>
	Number(
		family(families, name)?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))
			?.value ?? 0,
	)

describe('without METRICS_TOKEN or METRICS_ADDRESS', () => {
	it('does not serve /metrics at all', async () => {
		const t = await getTestInstance()
		try {
			expect((await fetch(`${t.url}/metrics`)).status).toBe(404)
			expect(
				(await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status,
			).toBe(404)
		} finally {
			await t.stop()
		}
	})
})

describe('with METRICS_TOKEN', () => {
	let t: TestInstance
	beforeAll(async () => {
		t = await getTestInstance({ METRICS_TOKEN: TOKEN })
	})
	afterAll(() => t.stop())

	it('answers 401 without the token or with a wrong one', async () => {
		expect((await fetch(`${t.url}/metrics`)).status).toBe(401)
		const wrong = await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}x` } })
		expect(wrong.status).toBe(401)
		expect(wrong.headers.get('www-authenticate')).toContain('Bearer')
		expect(await wrong.text()).not.toContain(TOKEN)
	})

	it('parses as Prometheus text, and the command counter moves when a command runs', async () => {
		const owner = await registerUser(t, `metrics-${Date.now()}@example.com`)
		const userbotId = await createLoggedInUserbot(t, owner.companyId)
		const labels = { command: 'get_account_ttl', outcome: 'ok' }
		const before = await scrape(t.url, TOKEN)
		const s = await connectWs(t.url, { bearer: owner.access })
		try {
			expect(
				(await s.command({ action: 'get_account_ttl', userbot_id: userbotId })).payload.error,
			).toBeUndefined()
			const refused = await s.command({ action: 'get_account_ttl', userbot_id: userbotId + 1000 })
			expect(refused.payload.error).toBe('userbot not found')
			const after = await scrape(t.url, TOKEN)
			expect(sample(after, 'ubg_ws_commands_total', labels)).toBe(
				sample(before, 'ubg_ws_commands_total', labels) + 1,
			)
			expect(sample(after, 'ubg_ws_commands_total', { command: 'get_account_ttl', outcome: 'error' })).toBe(1)
			expect(family(after, 'ubg_ws_command_duration_seconds')?.type).toBe('HISTOGRAM')
			expect(sample(after, 'ubg_ws_sockets', {})).toBe(1)
			expect(sample(after, 'ubg_userbots', { authorization_state: 'authorizationStateReady' })).toBe(1)
			expect(sample(after, 'ubg_supervisor_clients', {})).toBeGreaterThanOrEqual(1)
			expect(sample(after, 'ubg_supervisor_memory_bytes', { child: '0' })).toBeGreaterThan(0)
		} finally {
			s.close()
		}
	})

	it('counts requests by route pattern and status, with no userbot id in any label', async () => {
		const owner = await registerUser(t, `routes-${Date.now()}@example.com`)
		const userbotId = await createLoggedInUserbot(t, owner.companyId)
		const got = await fetch(`${t.url}/api/userbots/${userbotId}/`, {
			headers: { authorization: `Bearer ${owner.access}` },
		})
		expect(got.status).toBe(200)
		expect((await fetch(`${t.url}/api/userbots/${userbotId + 77}/`)).status).toBe(401)
		const text = await (
			await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
		).text()
		const after = parsePrometheusTextFormat(text)
		const route = { method: 'GET', route: '/api/userbots/:id/' }
		expect(sample(after, 'ubg_http_requests_total', { ...route, status: '200' })).toBeGreaterThanOrEqual(1)
		expect(sample(after, 'ubg_http_requests_total', { ...route, status: '401' })).toBeGreaterThanOrEqual(1)
		expect(family(after, 'ubg_http_request_duration_seconds')?.type).toBe('HISTOGRAM')
		expect(text).not.toContain(`/api/userbots/${userbotId}/`)
		expect(text).not.toContain(`"${userbotId + 77}"`)
	})
})

describe('with METRICS_ADDRESS', () => {
	it('serves /metrics on its own listener only, not on the app’s port', async () => {
		const t = await getTestInstance({ METRICS_ADDRESS: '127.0.0.1:0' })
		try {
			expect(t.metricsPort).toBeGreaterThan(0)
			expect((await fetch(`${t.url}/metrics`)).status).toBe(404)
			const own = `http://127.0.0.1:${t.metricsPort}`
			expect(family(await scrape(own), 'ubg_http_requests_total')?.type).toBe('COUNTER')
			expect((await fetch(`${own}/health`)).status).toBe(404)
		} finally {
			await t.stop()
		}
		const both = await getTestInstance({ METRICS_ADDRESS: '127.0.0.1:0', METRICS_TOKEN: TOKEN })
		try {
			expect((await fetch(`http://127.0.0.1:${both.metricsPort}/metrics`)).status).toBe(401)
			await scrape(`http://127.0.0.1:${both.metricsPort}`, TOKEN)
		} finally {
			await both.stop()
		}
	})
})
