import { Elysia } from 'elysia'
import { MESSAGES } from '../auth/errors'
import { json } from '../auth/respond'
import type { AppContext } from '../context'
import { badRequest, HttpError } from '../http/errors'
import { answerOtherMethods } from '../http/methods'
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
		const number = (name: string, max: number) => {
			const raw = query.get(name)
			if (raw === null) return undefined
			if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1 || Number(raw) > max)
				throw badRequest({ [name]: ['A valid integer is required.'] })
			return Number(raw)
		}
		const limit = number('limit', PAGE) ?? PAGE
		return json(await readAudit(ctx.db, p.companyId, limit, number('before', Number.MAX_SAFE_INTEGER)))
	})
	answerOtherMethods(app)
	return app
}
