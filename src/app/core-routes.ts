import { Elysia } from 'elysia'
import { healthApi } from './health'
import { operatorContract } from './operator-contract'

/**
 * The core's own REST routes as data (src/server/openapi/route-data.ts): health, then the
 * operator's. Each is described from the very definition it is served from (health.ts,
 * audit-routes.ts, src/server/keys/routes.ts), its operation id on it.
 */
export const coreRouteData = new Elysia({ name: 'core-api' }).use(healthApi).use(operatorContract)
