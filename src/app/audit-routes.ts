import { Elysia } from 'elysia'
import { readAudit } from '../server/audit/log'
import { json } from '../server/auth/respond'
import type { AppContext } from '../server/context'
import { answerOtherMethods } from '../server/http/methods'
import { queryInteger } from '../server/http/query'
import { OF_COMPANY, type PolicyEntry, policyHook } from '../server/policy/entry'
import { companyOf } from '../server/policy/principal'

/** The audit log is the owner's in person: the kind `audit` admits neither a member nor a key. */
export const AUDIT_POLICY: PolicyEntry = { action: 'read', resource: 'audit', find: [OF_COMPANY] }

const PAGE = 100

/**
 * `GET /api/audit/`: the company's audit log, newest first, for its owner in person (neither a
 * member nor an API key). `?before=<id>` pages back, `?limit=` up to 100.
 */
export function auditRoutes(ctx: AppContext): Elysia {
	const app: Elysia = new Elysia({ name: 'audit-routes' })
	const guard = ctx.auth.guard()
	app.get(
		'/api/audit/',
		async ({ request, server }) => {
			const p = await guard.admit(AUDIT_POLICY, { request, server, params: {} })
			if (!p) throw new Error('the audit log admitted nobody')
			const query = new URL(request.url).searchParams
			const limit = queryInteger(query, 'limit', { min: 1, max: PAGE }) ?? PAGE
			const before = queryInteger(query, 'before', { min: 1, max: Number.MAX_SAFE_INTEGER })
			return json(await readAudit(ctx.db, companyOf(p), limit, before))
		},
		policyHook(AUDIT_POLICY),
	)
	answerOtherMethods(app)
	return app
}
