import { Elysia } from 'elysia'
import { MESSAGES } from '../auth/errors'
import { json } from '../auth/respond'
import type { AppContext } from '../context'
import { HttpError } from '../http/errors'
import { answerOtherMethods } from '../http/methods'
import { queryInteger } from '../http/query'
import { readAudit } from './log'

const PAGE = 100

/**
 * `GET /api/audit/`: the company's audit log, newest first, for its owner in person (neither a
 * member nor an API key). `?before=<id>` pages back, `?limit=` up to 100.
 */
export function auditRoutes(ctx: AppContext): Elysia {
	const app: Elysia = new Elysia({ name: 'audit-routes' })
	app.get('/api/audit/', async ({ request }) => {
		const outcome = await ctx.auth.resolve(request)
		if (!outcome.ok) throw new HttpError(outcome.status, outcome.body)
		const p = outcome.caller.principal
		if (!p.isOwner || p.companyId === null || p.key) {
			throw new HttpError(403, { detail: MESSAGES.permissionDenied, code: 'permission_denied' })
		}
		const query = new URL(request.url).searchParams
		const limit = queryInteger(query, 'limit', { min: 1, max: PAGE }) ?? PAGE
		const before = queryInteger(query, 'before', { min: 1, max: Number.MAX_SAFE_INTEGER })
		return json(await readAudit(ctx.db, p.companyId, limit, before))
	})
	answerOtherMethods(app)
	return app
}
