import {
	AUTH_MESSAGES,
	BEARER_OR_SESSION,
	JSON_HEADERS,
	json,
	type Profile,
	type RestContext,
	ROUTE_ERRORS,
	restRoute,
	RestSchemas as S,
} from 'userbot-gateway/plugin'

/**
 * GET /accounts/me/: the hot path. The guard admits a session memory can vouch for without a
 * promise, and the answer is the profile body serialized once, read from the same memory.
 */
const answer = (profile: Profile | null | undefined): Response =>
	profile ? new Response(profile.json, { headers: JSON_HEADERS }) : json(SESSION_ENDED, 401)

/** The profile went between the guard and here (a change just dropped it): read again. */
const SESSION_ENDED = { detail: AUTH_MESSAGES.sessionEnded, code: 'session_expired' }

export const meRoutes = [
	restRoute({
		method: 'get',
		path: '/accounts/me/',
		policy: { action: 'read', resource: 'self' },
		response: { 200: S.Profile, ...ROUTE_ERRORS.authed },
		detail: {
			operationId: 'getMe',
			summary: "The caller's profile, work status and company",
			tags: ['accounts'],
			security: BEARER_OR_SESSION,
		},
		handle: (ctx: RestContext, { principal }) => {
			const cached = ctx.auth.profiles.peek(principal.userId)
			return cached ? answer(cached) : ctx.auth.profiles.get(principal.userId).then(answer)
		},
	}),
] as const
