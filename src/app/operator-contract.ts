import { Elysia, t } from 'elysia'
import * as v from 'valibot'
import { keysApi } from '../keys/routes'
import { documentedOnly } from '../openapi/route-data'
import * as S from '../openapi/schemas'

/** The operator's routes (docs/operator.md) as data (route-data.ts): API keys (from their definitions) and the audit log. */
const ownerOnly: Array<Record<string, string[]>> = [{ bearer: [] }, { session: [] }]
const authed = { 401: S.Detail, 403: S.Detail }

const AuditLine = t.Object({
	id: S.Id(),
	at: t.String({ format: 'date-time' }),
	action: t.String(),
	user_id: t.Union([S.Id(), t.Null()]),
	key_id: t.Union([S.Id(), t.Null()]),
	target: t.Union([t.String(), t.Null()]),
	detail: t.Unknown(),
	client: t.Union([t.String(), t.Null()]),
})

export const operatorContract = new Elysia({ name: 'operator-contract' })
	.use(keysApi)
	.get('/api/audit/', documentedOnly, {
		// Documented only: the route reads them with `queryInteger` (DRF's IntegerField wording).
		query: v.object({ limit: v.optional(v.string()), before: v.optional(v.string()) }),
		response: { 200: t.Array(AuditLine), 400: S.FieldErrors, ...authed },
		detail: {
			operationId: 'listAuditLog',
			summary: "The company's audit log, newest first (owner only)",
			tags: ['operator'],
			security: ownerOnly,
		},
	})
