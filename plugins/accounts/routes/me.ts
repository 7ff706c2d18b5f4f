import { Elysia } from 'elysia'
import {
	type CallerOutcome,
	JSON_HEADERS,
	json,
	type RestContext,
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

export const meRoute = (ctx: RestContext) => {
	const failed = (err: unknown) => {
		const storage = storageAnswer(err)
		ctx.log.error(storage ? 'storage failure' : 'unhandled error', {
			route: 'me',
			error: err instanceof Error ? err : String(err),
		})
		return storage ? json(storage.body, storage.status) : json({ detail: 'Internal server error.' }, 500)
	}
	return new Elysia().get('/accounts/me/', ({ request }) => {
		const outcome = ctx.auth.resolve(request)
		return outcome instanceof Promise ? outcome.then(answer, failed) : answer(outcome)
	})
}
