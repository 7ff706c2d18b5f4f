import { Elysia } from 'elysia'
import { documentedOnly } from '../server/openapi/route-data'
import * as S from '../server/openapi/schemas'
import { operatorContract } from './operator-contract'

/** The core's own REST routes as data (src/server/openapi/route-data.ts): health, then the operator's. */
export const coreRouteData = new Elysia({ name: 'core-api' })
	.get('/health', documentedOnly, {
		response: { 200: S.Health, 503: S.Health },
		detail: {
			operationId: 'getHealth',
			summary: 'Liveness: the database (probed by a write) and the supervisor',
			tags: ['health'],
		},
	})
	.use(operatorContract)
