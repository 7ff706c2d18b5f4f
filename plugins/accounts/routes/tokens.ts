import {
	json,
	mayWork,
	PUBLIC_WRITE,
	type RestContext,
	ROUTE_ERRORS,
	restRoute,
	RestSchemas as S,
	statusNotAllowed,
	tokenNotValid,
} from 'userbot-gateway/plugin'

/**
 * simplejwt's views for callers without sessions: token/ (obtain), token/refresh/ (rotation; a
 * dead refresh presented again revokes its family), token/blacklist/ (family B's logout). A member
 * whose work status does not allow work gets no new pair from either (403 `status_not_allowed`); a
 * refresh token refused so is not spent, and serves again once the status allows work.
 */
export const tokenRoutes = [
	restRoute({
		method: 'post',
		path: '/accounts/token/',
		policy: PUBLIC_WRITE,
		body: S.Credentials,
		response: {
			200: S.TokenPair,
			...ROUTE_ERRORS.badRequest,
			...ROUTE_ERRORS.unauthenticated,
			...ROUTE_ERRORS.forbidden,
			...ROUTE_ERRORS.throttled,
		},
		detail: { operationId: 'obtainTokenPair', summary: 'A JWT pair for a server client', tags: ['tokens'] },
		handle: async (ctx: RestContext, { body, request, server }) => {
			const user = await ctx.auth.checkCredentials(
				body.email,
				body.password,
				ctx.auth.clientAddress(server, request),
			)
			const pair = await ctx.auth.families.issue(user.id)
			return json({ access: pair.access, refresh: pair.refresh })
		},
	}),
	restRoute({
		method: 'post',
		path: '/accounts/token/refresh/',
		policy: PUBLIC_WRITE,
		body: S.Refresh,
		response: {
			200: S.TokenPair,
			...ROUTE_ERRORS.badRequest,
			...ROUTE_ERRORS.unauthenticated,
			...ROUTE_ERRORS.forbidden,
		},
		detail: {
			operationId: 'refreshTokenPair',
			summary: 'Rotates a refresh token; reusing a used one revokes its family',
			tags: ['tokens'],
		},
		handle: async (ctx: RestContext, { body: { refresh } }) => {
			// A live token of a member who may not work now: refused, and kept for their return.
			const claims = ctx.auth.signer.verify(refresh, 'refresh')
			if (claims && (await ctx.auth.families.isAlive(claims.fam, claims.user_id))) {
				const holder = await ctx.auth.profiles.get(claims.user_id)
				if (holder?.active && !mayWork(holder)) throw statusNotAllowed()
			}
			const pair = await ctx.auth.families.rotate(refresh)
			if (!pair) throw tokenNotValid()
			const profile = await ctx.auth.profiles.get(pair.userId)
			if (!profile?.active) {
				await ctx.auth.families.revokeFamily(pair.family)
				throw tokenNotValid()
			}
			return json({ access: pair.access, refresh: pair.refresh })
		},
	}),
	restRoute({
		method: 'post',
		path: '/accounts/token/blacklist/',
		policy: PUBLIC_WRITE,
		body: S.Refresh,
		response: { 200: S.EmptyObject, ...ROUTE_ERRORS.badRequest, ...ROUTE_ERRORS.unauthenticated },
		detail: {
			operationId: 'revokeRefreshToken',
			summary: 'Revokes a refresh token and its family',
			tags: ['tokens'],
		},
		handle: async (ctx: RestContext, { body: { refresh } }) => {
			if (!(await ctx.auth.families.blacklist(refresh))) throw tokenNotValid()
			return json({})
		},
	}),
] as const
