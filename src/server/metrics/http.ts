import type { AnyElysia } from 'elysia'
import type { Logger } from '../../common/util/logger'
import type { AuthCore } from '../auth'
import type { Principal } from '../auth/types'
import type { Metrics } from './metrics'

/** Who acted, as an access line names it: the user, and the API key when one was used. */
export function actorFields(principal: Principal | undefined): Record<string, unknown> {
	if (!principal) return {}
	return principal.key
		? { user: principal.userId, credential: `key:${principal.key.id}` }
		: { user: principal.userId }
}

/**
 * One access line and one metrics sample per HTTP request: the method, the route's pattern (never
 * the raw path, which may carry ids or a token a client put there by mistake), the status, the time
 * taken, the client's address after TRUSTED_PROXIES, and the user or key that was resolved. Never a
 * header, a query string or a body. The line is written at `info`: at a quieter LOG_LEVEL neither it
 * nor the client's address is made.
 */
export function instrumentHttp(app: AnyElysia, core: AuthCore, metrics: Metrics, log: Logger): void {
	const accessLog = log.writes('info')
	const started = new WeakMap<Request, { at: number; client: string }>()
	// onRequest is global by nature: every route and every plugin's routes. The peer is read here:
	// once the answer is sent, the server no longer tells it. Only the access line names it, and
	// asking Bun for it is a fair part of a cheap request: not read when no line is written.
	app.onRequest(({ request, server }) => {
		started.set(request, {
			at: performance.now(),
			client: accessLog ? core.clientAddress(server, request) : '',
		})
	})
	app.onAfterResponse({ as: 'global' }, (c) => {
		const { request, set } = c
		const begun = started.get(request)
		const seconds = begun === undefined ? 0 : (performance.now() - begun.at) / 1000
		const context = c as unknown as { route?: string; responseValue?: unknown }
		const route = context.route || 'unmatched'
		const value = context.responseValue
		const status =
			value instanceof Response ? value.status : typeof set.status === 'number' ? set.status : 200
		metrics.request(request.method, route, status, seconds)
		if (!accessLog) return
		log.info('http', {
			method: request.method,
			route,
			status,
			ms: Math.round(seconds * 1000 * 10) / 10,
			client: begun?.client ?? 'unknown',
			...actorFields(core.callerOf(request)),
		})
	})
}
