import {
	BEARER_OR_SESSION,
	json,
	PUBLIC_WRITE,
	type RestContext,
	ROUTE_ERRORS,
	restRoute,
	RestSchemas as S,
} from 'userbot-gateway/plugin'

/**
 * POST /accounts/logout/: deletes the server-side session, blacklists its refresh token and clears
 * the cookies. With a bearer token, that token's family is revoked. A request without a live
 * session still gets its cookies cleared; a cookie request that fails CSRF is refused.
 */
export const logoutRoutes = [
	restRoute({
		method: 'post',
		path: '/accounts/logout/',
		policy: PUBLIC_WRITE,
		response: { 200: S.Message, ...ROUTE_ERRORS.authed },
		detail: {
			operationId: 'logOut',
			summary: 'Ends the session and clears its cookies',
			tags: ['accounts'],
			security: BEARER_OR_SESSION,
		},
		handle: async (ctx: RestContext, { request }) => {
			await ctx.auth.endSession(request)
			return json({ message: 'Successfully logged out.' }, 200, ctx.auth.clearedCookies())
		},
	}),
] as const
