import type { Config } from '../config'
import { HttpError } from '../http/errors'
import type { CallerOutcome } from './authenticator'
import { readCookie, SESSION_COOKIE } from './cookies'
import type { Families } from './families'
import { json, sessionCookies } from './respond'
import type { MainTokens, Sessions } from './sessions'
import type { TokenSigner } from './tokens'

/**
 * The cookie-session halves of login/ and logout/ that both families share
 * (docs/rest.md#rest-accounts-family-a), so the two cannot drift: same cookies, same session fixation rule,
 * same CSRF and bearer handling. Plugins reach them as `ctx.auth.openSession` and `ctx.auth.endSession`.
 */
export interface WebSessionDeps {
	config: Config
	sessions: Sessions
	families: Families
	signer: TokenSigner
	identify(request: Request): CallerOutcome | Promise<CallerOutcome>
}

/**
 * Ends whatever session the request's cookie named (session fixation), opens a new one for the
 * user (family B passes the main server's tokens, kept in the session row only) and answers the
 * spec's login body with the `sessionid` and `csrftoken` cookies.
 */
export async function openSession(
	deps: WebSessionDeps,
	request: Request,
	user: { id: number; email: string },
	main?: MainTokens,
): Promise<Response> {
	const previous = readCookie(request.headers.get('cookie'), SESSION_COOKIE)
	if (previous) await deps.sessions.destroy(previous)
	const created = await deps.sessions.create(user.id, main)
	return json(
		{ sessionid: created.id, user: { id: user.id, email: user.email } },
		200,
		sessionCookies(deps.config, created.id, created.csrfToken),
	)
}

/**
 * Logout's local part: a cookie request that fails CSRF is refused (403); a bearer token's family
 * is revoked; the cookie's session is deleted (and its refresh token blacklisted) unless the request
 * also carried a bearer token that did not hold. Returns the cookie value of the session it ended
 * (or found already ended), else null. The caller clears the cookies in every case. A member whose
 * work status does not allow work may still log out.
 */
export async function endCaller(deps: WebSessionDeps, request: Request): Promise<string | null> {
	const outcome = await deps.identify(request)
	if (!outcome.ok && outcome.status === 403) throw new HttpError(403, outcome.body)
	const authorization = request.headers.get('authorization')
	if (outcome.ok && outcome.caller.sessionId === null) {
		const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1] ?? ''
		const claims = deps.signer.verify(token, 'access')
		if (claims) await deps.families.revokeFamily(claims.fam)
	}
	const sessionId = readCookie(request.headers.get('cookie'), SESSION_COOKIE)
	if (!sessionId || !(outcome.ok || authorization === null)) return null
	await deps.sessions.destroy(sessionId)
	return sessionId
}

/**
 * The main server's refresh token cached in the session row the request's cookie names, read
 * before the session is ended (the row goes with it). Null for a family A session, an unknown
 * cookie, or none.
 */
export async function mainRefreshOf(sessions: Sessions, request: Request): Promise<string | null> {
	const sessionId = readCookie(request.headers.get('cookie'), SESSION_COOKIE)
	return sessionId ? sessions.mainRefresh(sessionId) : null
}
