import { Elysia } from 'elysia'
import type { AuthCore } from '../../../src/auth'
import { HttpError } from '../../../src/http/errors'
import { JSON_HEADERS } from '../respond'

/** GET /accounts/me/: the hot path. A cached session answers from memory, body serialized once. */
export const meRoute = (core: AuthCore) =>
	new Elysia().get('/accounts/me/', async ({ request }) => {
		const outcome = await core.resolve(request)
		if (!outcome.ok) throw new HttpError(outcome.status, outcome.body)
		return new Response(outcome.caller.profile.json, { headers: JSON_HEADERS })
	})
