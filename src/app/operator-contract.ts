import { Elysia } from 'elysia'
import * as v from 'valibot'
import { keysApi } from '../server/keys/routes'
import { documentedOnly } from '../server/openapi/route-data'
import * as S from '../server/openapi/schemas'

/** The operator's routes (docs/operator.md) as data (route-data.ts): API keys (from their definitions) and the audit log. */
const ownerOnly: Array<Record<string, string[]>> = [{ bearer: [] }, { session: [] }]
const authed = { 401: S.Detail, 403: S.Detail }

const AuditLine = v.object({
	id: S.Id(),
	at: v.pipe(v.string(), v.metadata({ format: 'date-time' })),
	action: v.string(),
	user_id: v.union([S.Id(), v.null()]),
	key_id: v.union([S.Id(), v.null()]),
	target: v.union([v.string(), v.null()]),
	detail: v.unknown(),
	client: v.union([v.string(), v.null()]),
})

export const operatorContract = new Elysia({ name: 'operator-contract' })
	.use(keysApi)
	.get('/api/audit/', documentedOnly, {
		// Documented only: the route reads them with `queryInteger` (DRF's IntegerField wording).
		query: v.object({ limit: v.optional(v.string()), before: v.optional(v.string()) }),
		response: { 200: v.array(AuditLine), 400: S.FieldErrors, ...authed },
		detail: {
			operationId: 'listAuditLog',
			summary: "The company's audit log, newest first (owner only)",
			tags: ['operator'],
			security: ownerOnly,
		},
	})
