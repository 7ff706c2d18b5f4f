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
	// onRequest is global by nature: every route and every plugin's routes. The start is kept on the
	// request's context (the one object Elysia hands every hook of the request), not in a map of
	// requests. The peer is read here: once the answer is sent, the server no longer tells it. Only
	// the access line names it, and asking Bun for it is a fair part of a cheap request: not read when
	// no line is written. The server is the app's own (what the context's `server` gives): named in
	// the hook, Elysia would define `server` on every request's context for it.
	app.onRequest((c) => {
		const timed = c as unknown as Timed
		timed[STARTED] = performance.now()
		if (accessLog) timed[CLIENT] = core.clientAddress(app.server, c.request)
	})
	app.onAfterResponse({ as: 'global' }, (c) => {
		const { request, set } = c
		const context = c as unknown as Timed & { route?: string; responseValue?: unknown }
		const begun = context[STARTED]
		const seconds = begun === undefined ? 0 : (performance.now() - begun) / 1000
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
			client: context[CLIENT] ?? 'unknown',
			...actorFields(core.callerOf(request)),
		})
	})
}

/** Where a request's context keeps its start and its client's address (no handler reads them). */
const STARTED = Symbol('ubg.started')
const CLIENT = Symbol('ubg.client')
interface Timed {
	[STARTED]?: number
	[CLIENT]?: string
}
