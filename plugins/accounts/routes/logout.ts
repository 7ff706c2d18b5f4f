import { Elysia } from 'elysia'
import type { AuthCore } from '../../../src/auth'
import { readCookie, SESSION_COOKIE } from '../../../src/auth/cookies'
import { HttpError } from '../../../src/http/errors'
import { clearedCookies, json } from '../respond'

/**
 * POST /accounts/logout/: deletes the server-side session, blacklists its refresh token and clears
 * the cookies. With a bearer token, that token's family is revoked. A request without a live
 * session still gets its cookies cleared; a cookie request that fails CSRF is refused.
 */
export const logoutRoute = (core: AuthCore) =>
	new Elysia().post(
		'/accounts/logout/',
		async ({ request }) => {
			const outcome = await core.resolve(request)
			if (!outcome.ok && outcome.status === 403) throw new HttpError(403, outcome.body)
			if (outcome.ok && outcome.caller.sessionId === null) {
				const token = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1] ?? ''
				const claims = core.signer.verify(token, 'access')
				if (claims) await core.families.revokeFamily(claims.fam)
			}
			const sessionId = readCookie(request.headers.get('cookie'), SESSION_COOKIE)
			if (sessionId && (outcome.ok || request.headers.get('authorization') === null)) {
				await core.sessions.destroy(sessionId)
			}
			return json({ message: 'Successfully logged out.' }, 200, clearedCookies(core.config))
		},
		{ parse: 'none' },
	)
