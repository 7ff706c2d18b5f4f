import { Elysia } from 'elysia'
import * as v from 'valibot'
import { readAudit } from '../server/audit/log'
import { json } from '../server/auth/respond'
import type { AppContext } from '../server/context'
import { answerOtherMethods } from '../server/http/methods'
import { queryInteger } from '../server/http/query'
import { describeRoutes, restRoute, serveRoutes } from '../server/http/rest-route'
import * as S from '../server/openapi/schemas'
import { OF_COMPANY, type PolicyEntry } from '../server/policy/entry'
import { companyOf } from '../server/policy/principal'

/** The audit log is the owner's in person: the kind `audit` admits neither a member nor a key. */
export const AUDIT_POLICY: PolicyEntry = { action: 'read', resource: 'audit', find: [OF_COMPANY] }

const PAGE = 100
const ownerOnly: Array<Record<string, string[]>> = [{ bearer: [] }, { session: [] }]

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

/**
 * `GET /api/audit/`: the company's audit log, newest first, for its owner in person (neither a
 * member nor an API key). `?before=<id>` pages back, `?limit=` up to 100. One definition
 * (src/server/http/rest-route.ts): served from it, and described from it in the OpenAPI document.
 */
export const auditRouteList = [
	restRoute({
		method: 'get',
		path: '/api/audit/',
		policy: AUDIT_POLICY,
		// Documented as strings: the handler reads them with `queryInteger` (DRF's IntegerField wording).
		query: v.object({ limit: v.optional(v.string()), before: v.optional(v.string()) }),
		response: { 200: v.array(AuditLine), 400: S.FieldErrors, 401: S.Detail, 403: S.Detail },
		detail: {
			operationId: 'listAuditLog',
			summary: "The company's audit log, newest first (owner only)",
			tags: ['operator'],
			security: ownerOnly,
		},
		handle: async (ctx: AppContext, { request, principal }) => {
			const query = new URL(request.url).searchParams
			const limit = queryInteger(query, 'limit', { min: 1, max: PAGE }) ?? PAGE
			const before = queryInteger(query, 'before', { min: 1, max: Number.MAX_SAFE_INTEGER })
			return json(await readAudit(ctx.db, companyOf(principal), limit, before))
		},
	}),
] as const

/** The audit log's route as route data: what the OpenAPI document and the typed client read. */
export const auditApi = describeRoutes('audit-api', auditRouteList)

export function auditRoutes(ctx: AppContext): Elysia {
	const app: Elysia = new Elysia({ name: 'audit-routes' })
	app.use(serveRoutes(ctx, auditRouteList, ctx.auth.guard()))
	answerOtherMethods(app)
	return app
}
