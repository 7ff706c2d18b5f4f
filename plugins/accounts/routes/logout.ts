import { Elysia } from 'elysia'
import type { AuthCore } from '../../../src/auth'
import { clearedCookies, json } from '../../../src/auth/respond'
import { endCaller } from '../../../src/auth/web-session'

/**
 * POST /accounts/logout/: deletes the server-side session, blacklists its refresh token and clears
 * the cookies. With a bearer token, that token's family is revoked. A request without a live
 * session still gets its cookies cleared; a cookie request that fails CSRF is refused.
 */
export const logoutRoute = (core: AuthCore) =>
	new Elysia().post(
		'/accounts/logout/',
		async ({ request }) => {
			await endCaller(core, request)
			return json({ message: 'Successfully logged out.' }, 200, clearedCookies(core.config))
		},
		{ parse: 'none' },
	)
