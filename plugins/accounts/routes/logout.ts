import { Elysia } from 'elysia'
import { json, type RestContext } from 'userbot-gateway/plugin'

/**
 * POST /accounts/logout/: deletes the server-side session, blacklists its refresh token and clears
 * the cookies. With a bearer token, that token's family is revoked. A request without a live
 * session still gets its cookies cleared; a cookie request that fails CSRF is refused.
 */
export const logoutRoute = (ctx: RestContext) =>
	new Elysia().post(
		'/accounts/logout/',
		async ({ request }) => {
			await ctx.auth.endSession(request)
			return json({ message: 'Successfully logged out.' }, 200, ctx.auth.clearedCookies())
		},
		{ parse: 'none' },
	)
