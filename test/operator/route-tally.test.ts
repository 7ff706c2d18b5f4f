import { describe, expect, it } from 'bun:test'
import { Counter, Histogram, Registry } from 'prom-client'
import { routeTally } from '../../src/server/metrics/route-tally'

/**
 * The HTTP requests' tally (src/server/metrics/route-tally.ts) renders what prom-client's own Counter and
 * Histogram render for the same requests, line for line: the operators' dashboards see no change.
 */
const BOUNDS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]
const REQUESTS: Array<[string, string, number, number]> = [
	['GET', '/accounts/me/', 200, 0.0004],
	['GET', '/accounts/me/', 200, 0.005],
	['GET', '/accounts/me/', 401, 0.0051],
	['POST', '/accounts/login/', 200, 0.31],
	['POST', '/accounts/login/', 429, 45],
	['GET', '/api/userbots/:id/', 404, 0.001],
	['GET', 'unmatched', 404, 0],
]

function byPromClient(): Registry {
	const registry = new Registry()
	const counter = new Counter({
		name: 'ubg_http_requests_total',
		help: 'HTTP requests answered, by method, route pattern and status.',
		labelNames: ['method', 'route', 'status'],
		registers: [registry],
	})
	const histogram = new Histogram({
		name: 'ubg_http_request_duration_seconds',
		help: 'Time to answer an HTTP request, by method and route pattern.',
		labelNames: ['method', 'route'],
		buckets: BOUNDS,
		registers: [registry],
	})
	for (const [method, route, status, seconds] of REQUESTS) {
		counter.inc({ method, route, status: String(status) })
		histogram.observe({ method, route }, seconds)
	}
	return registry
}

describe('the HTTP requests tally', () => {
	it("renders what prom-client's Counter and Histogram render for the same requests", async () => {
		const registry = new Registry()
		const tally = routeTally(registry, BOUNDS)
		for (const [method, route, status, seconds] of REQUESTS) tally.record(method, route, status, seconds)
		const ours = await registry.metrics()
		expect(ours).toContain(
			'ubg_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/accounts/me/"} 2',
		)
		expect(ours).toBe(await byPromClient().metrics())
	})

	it('starts again from nothing when the registry is reset', async () => {
		const registry = new Registry()
		const tally = routeTally(registry, BOUNDS)
		tally.record('GET', '/health', 200, 0.002)
		registry.resetMetrics()
		expect(await registry.metrics()).not.toContain('/health')
		tally.record('GET', '/health', 503, 0.002)
		expect(await registry.metrics()).toContain(
			'ubg_http_requests_total{method="GET",route="/health",status="503"} 1',
		)
	})
})
