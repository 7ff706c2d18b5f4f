import {
	PUBLIC_WRITE,
	type RestContext,
	ROUTE_ERRORS,
	restRoute,
	RestSchemas as S,
} from 'userbot-gateway/plugin'

/** POST /accounts/login/: a new server-side session (new id every time) holding a fresh JWT pair. */
export const loginRoutes = [
	restRoute({
		method: 'post',
		path: '/accounts/login/',
		policy: PUBLIC_WRITE,
		body: S.Credentials,
		response: {
			200: S.Session,
			...ROUTE_ERRORS.badRequest,
			...ROUTE_ERRORS.unauthenticated,
			...ROUTE_ERRORS.forbidden,
			...ROUTE_ERRORS.throttled,
		},
		detail: {
			operationId: 'logIn',
			summary: 'Opens a session: cookies sessionid and csrftoken',
			tags: ['accounts'],
		},
		handle: async (ctx: RestContext, { body, request, server }) => {
			const user = await ctx.auth.checkCredentials(
				body.email,
				body.password,
				ctx.auth.clientAddress(server, request),
			)
			return ctx.auth.openSession(request, user)
		},
	}),
] as const
