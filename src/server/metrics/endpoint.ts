import { Elysia } from 'elysia'
import type { Logger } from '../../common/util/logger'
import { safeEqual } from '../auth/crypto'
import type { Config } from '../config'
import { policyHook } from '../policy/entry'
import type { Metrics } from './metrics'

const PATH = '/metrics'
const JSON_TYPE = { 'content-type': 'application/json;charset=utf-8' }

/** The scrape's answer: the exposition text, or 401 when a token is configured and not presented. */
async function scrape(request: Request, token: string | undefined, metrics: Metrics): Promise<Response> {
	if (token !== undefined) {
		const given = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1] ?? ''
		if (!safeEqual(given, token)) {
			return new Response(JSON.stringify({ detail: 'Authentication credentials were not provided.' }), {
				status: 401,
				headers: { ...JSON_TYPE, 'www-authenticate': 'Bearer realm="metrics"' },
			})
		}
	}
	const { text, contentType } = await metrics.render()
	return new Response(text, { headers: { 'content-type': contentType } })
}

/**
 * `GET /metrics` on the app's own port, only with METRICS_TOKEN and no METRICS_ADDRESS: without a
 * token it is not served at all (404), so a deployment never exposes it by accident.
 */
export function metricsRoute(config: Config, metrics: Metrics): Elysia | null {
	const { token, address } = config.metrics
	if (token === undefined || address !== undefined) return null
	const app: Elysia = new Elysia({ name: 'metrics-route' })
	// The operator's, behind METRICS_TOKEN: no principal's credential opens it (docs/policy.md).
	app.get(
		PATH,
		({ request }) => scrape(request, token, metrics),
		policyHook({ action: 'read', resource: 'operator' }),
	)
	return app
}

/**
 * With METRICS_ADDRESS, `/metrics` has a listener of its own (a private interface, say), asking for
 * METRICS_TOKEN only when that is set too; the returned function stops it.
 */
export function metricsListener(
	config: Config,
	metrics: Metrics,
	log: Logger,
): { port: number; stop(): Promise<void> } | null {
	const { token, address } = config.metrics
	if (address === undefined) return null
	const server = Bun.serve({
		hostname: address.host,
		port: address.port,
		fetch: (request) =>
			new URL(request.url).pathname === PATH && request.method === 'GET'
				? scrape(request, token, metrics)
				: new Response(JSON.stringify({ detail: 'Not found.' }), { status: 404, headers: JSON_TYPE }),
	})
	const port = server.port ?? address.port
	log.info('metrics listening', { address: `${address.host}:${port}` })
	return { port, stop: () => server.stop(true) }
}
