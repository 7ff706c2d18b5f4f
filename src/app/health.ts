import type { DatabaseHandle } from '../../db/client'
import { probeDatabase } from '../../db/health'
import type { ProcessRuntime } from '../runtime/bus/process'
import { json } from '../server/auth/respond'
import { describeRoutes, type RouteGuard, restRoute, serveRoutes } from '../server/http/rest-route'
import * as S from '../server/openapi/schemas'
import { PUBLIC_READ } from '../server/policy/entry'

/** What `/health` reads: the database it probes, the runtime it asks. */
export interface HealthContext {
	handle: DatabaseHandle
	runtime: ProcessRuntime['runtime']
}

/**
 * `GET /health`, one definition (src/server/http/rest-route.ts): served from it, and described from
 * it in the OpenAPI document (core-routes.ts). Public and unauthenticated.
 */
export const healthRouteList = [
	restRoute({
		method: 'get',
		path: '/health',
		policy: PUBLIC_READ,
		response: { 200: S.Health, 503: S.Health },
		detail: {
			operationId: 'getHealth',
			summary: 'Liveness: the database (probed by a write) and the supervisor',
			tags: ['health'],
		},
		handle: async ({ handle, runtime }: HealthContext) => {
			const database = await probeDatabase(handle.client)
			const health = runtime?.health()
			const supervisor = health ? (health.up ? 'ok' : 'restarting') : 'not configured'
			// With the bus: lease mismatches and a lagging feed say `degraded`; no bus at all is a 503 too.
			const bus = health?.bus
			const down = database !== 'ok' || (bus && !bus.connected)
			const status = database === 'ok' && !bus?.degraded ? 'ok' : 'degraded'
			// Whether a new userbot fits, nothing countable; the counts are metrics behind
			// METRICS_TOKEN (docs/capacity.md#watching-it).
			const room = runtime?.room?.()
			const capacity = room && { room: room.used < room.clients }
			return json(
				{ status, database, supervisor, ...(bus ? { bus } : {}), ...(capacity ? { capacity } : {}) },
				down ? 503 : 200,
			)
		},
	}),
] as const

/** `/health` as route data: what the OpenAPI document and the typed client read. */
export const healthApi = describeRoutes('health-api', healthRouteList)

/** `/health` as it is served, behind the app's guard (a public entry: nobody is identified). */
export const healthRoutes = (health: HealthContext, guard: RouteGuard) =>
	serveRoutes(health, healthRouteList, guard)
