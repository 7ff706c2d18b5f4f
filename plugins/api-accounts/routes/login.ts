import { and, eq, isNotNull } from 'drizzle-orm'
import {
	AUTH_MESSAGES as AUTH,
	HttpError,
	PUBLIC_WRITE,
	type RestContext,
	ROUTE_ERRORS,
	restRoute,
	RestSchemas as S,
	throttled,
	unauthorized,
	userProfile,
} from 'userbot-gateway/plugin'
import { refusalOf } from '../access-rules'
import { mainUnavailable, refused } from '../errors'
import type { FamilyB } from '../family-b'
import { type MainServer, MainServerError } from '../main-server'
import { syncProfile } from '../sync-profile'

/**
 * POST /api/accounts/login/: the main server checks the credentials (token/, then me/ with its
 * access token, within one deadline), the local profile is synchronised, the access rules decide,
 * and a local session holds the main server's pair server-side. The rate limit is family A's
 * (one counter per email+IP) and is checked before the main server is called. A refusal after the
 * main accepted blacklists the pair it just gave, so no live session is left behind there.
 */
export const loginRoutes = [
	restRoute({
		method: 'post',
		path: '/api/accounts/login/',
		body: S.Credentials,
		// Public: the password in the body is the credential, checked against the main server.
		policy: PUBLIC_WRITE,
		response: {
			200: S.Session,
			...ROUTE_ERRORS.badRequest,
			...ROUTE_ERRORS.unauthenticated,
			...ROUTE_ERRORS.forbidden,
			...ROUTE_ERRORS.throttled,
			502: S.Detail,
		},
		detail: {
			operationId: 'logInOnMainServer',
			summary: "Logs in against the main server's accounts (family B)",
			tags: ['main-server login'],
		},
		handle: ({ ctx, main }: FamilyB, { body: { email, password }, request, server }) =>
			ctx.auth.loginGate(email, ctx.auth.clientAddress(server, request), (normalised, fail) =>
				logIn(ctx, main, request, normalised, password, fail),
			),
	}),
] as const

async function logIn(
	ctx: RestContext,
	main: MainServer,
	request: Request,
	email: string,
	password: string,
	fail: () => Promise<void>,
): Promise<Response> {
	const deadline = AbortSignal.timeout(main.timeoutMs)
	let pair: Awaited<ReturnType<MainServer['obtainPair']>>
	try {
		pair = await main.obtainPair(email, password, deadline)
	} catch (err) {
		if (err instanceof MainServerError && err.failure.kind === 'status_not_allowed') {
			// As when the rules refuse here: this account's sessions opened before end too.
			await endLinkedSessions(ctx, email)
		}
		throw await answerFor(err, ctx, fail)
	}
	let response: Response
	try {
		const profile = await main.profile(pair.access, deadline)
		const account = await syncProfile(ctx, profile)
		const reason = refusalOf(account)
		if (reason) {
			// The main server's data says this user may not work here now: sessions opened before end too.
			await ctx.auth.revokeUser(account.id)
			ctx.auth.invalidateUser(account.id, true)
			throw refused(reason)
		}
		const previousMain = await ctx.auth.mainRefreshOf(request)
		response = await ctx.auth.openSession(request, account, pair)
		// The session the cookie named ended (fixation): so does its session on the main server.
		if (previousMain) await main.blacklist(previousMain)
	} catch (err) {
		await main.blacklist(pair.refresh)
		throw await answerFor(err, ctx, fail)
	}
	return response
}

/**
 * A failure as the client sees it. Counted against the rate limit: answers that say something of
 * the password (401, 403). Not counted: the main server down (502) or throttling us (429).
 */
async function answerFor(err: unknown, ctx: RestContext, fail: () => Promise<void>): Promise<unknown> {
	if (err instanceof HttpError) {
		if (err.status === 403) await fail()
		return err
	}
	if (!(err instanceof MainServerError)) return err
	const failure = err.failure
	if (failure.kind === 'bad_credentials') {
		await fail()
		return unauthorized(AUTH.badCredentials, 'no_active_account')
	}
	if (failure.kind === 'status_not_allowed') {
		await fail()
		return refused('status_not_allowed')
	}
	if (failure.kind === 'throttled') return throttled(failure.retryAfter ?? ctx.config.loginRateWindow)
	return mainUnavailable()
}

/** Revokes the sessions of the local account linked to the main server under `email`, if any. */
async function endLinkedSessions(ctx: RestContext, email: string): Promise<void> {
	const [linked] = await ctx.db
		.select({ id: userProfile.id })
		.from(userProfile)
		.where(and(eq(userProfile.email, email), isNotNull(userProfile.mainServerId)))
	if (!linked) return
	await ctx.auth.revokeUser(linked.id)
	ctx.auth.invalidateUser(linked.id, true)
}
