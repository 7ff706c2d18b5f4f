import {
	BEARER_OR_SESSION,
	type CallerOutcome,
	JSON_HEADERS,
	json,
	type RestContext,
	ROUTE_ERRORS,
	restRoute,
	RestSchemas as S,
	storageAnswer,
} from 'userbot-gateway/plugin'

/**
 * GET /accounts/me/: the hot path. A session memory can vouch for is answered without a promise,
 * from the profile body serialized once. The handler is not async (Elysia would await it), so the
 * 401/403 (and a failure of the database) is answered here: a rejected promise it returns would
 * not reach the app's error handler.
 */
const answer = (outcome: CallerOutcome): Response =>
	outcome.ok
		? new Response(outcome.caller.profile.json, { headers: JSON_HEADERS })
		: json(outcome.body, outcome.status)

function failed(ctx: RestContext, err: unknown): Response {
	const storage = storageAnswer(err)
	ctx.log.error(storage ? 'storage failure' : 'unhandled error', {
		route: 'me',
		error: err instanceof Error ? err : String(err),
	})
	return storage ? json(storage.body, storage.status) : json({ detail: 'Internal server error.' }, 500)
}

export const meRoutes = [
	restRoute({
		method: 'get',
		path: '/accounts/me/',
		response: { 200: S.Profile, ...ROUTE_ERRORS.authed },
		detail: {
			summary: "The caller's profile, work status and company",
			tags: ['accounts'],
			security: BEARER_OR_SESSION,
		},
		handle: (ctx: RestContext, { request }) => {
			const outcome = ctx.auth.resolve(request)
			return outcome instanceof Promise ? outcome.then(answer, (err) => failed(ctx, err)) : answer(outcome)
		},
	}),
] as const
