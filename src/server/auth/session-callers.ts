import type { Config } from '../config'
import type { SessionEntry } from './cache'
import {
	type AuthenticatedCaller,
	type CallerOutcome,
	notAuthenticated,
	sessionEnded,
} from './caller-outcome'
import { readCookie, SESSION_COOKIE } from './cookies'
import { createCsrfCheck, UNSAFE_METHODS } from './csrf'
import type { PrincipalMaker } from './principals'
import type { Profile, Profiles } from './profiles'
import type { Sessions } from './sessions'

/**
 * The callers of the `sessionid` cookie, whose unsafe requests (and WebSocket upgrades) must pass
 * CSRF: from memory alone when it can vouch for the session, else from the database.
 */
export function createSessionCallers(deps: {
	config: Config
	sessions: Sessions
	profiles: Profiles
	principals: PrincipalMaker
}) {
	const { sessions, profiles, principals } = deps
	const checkCsrf = createCsrfCheck(deps.config)

	/**
	 * A cookie upgrade whose Origin fails is refused like any unauthenticated upgrade: 401
	 * (docs/protocol.md#connecting).
	 */
	const csrfRefusal = (request: Request, upgrade: boolean, csrfToken: string): CallerOutcome | null => {
		if (!upgrade && !UNSAFE_METHODS.has(request.method)) return null
		const refused = checkCsrf(request, csrfToken)
		if (!refused) return null
		return { ok: false, status: upgrade ? 401 : 403, body: { detail: refused, code: 'csrf_failed' } }
	}

	const sessionCaller = (profile: Profile, sessionId: string, entry: SessionEntry): AuthenticatedCaller => {
		const principal = principals.of(profile, 'session')
		return {
			principal,
			profile,
			sessionId,
			credential: {
				principal,
				family: entry.family,
				sessionHash: entry.hash,
				sessionId,
				expiresAt: entry.expiresAt,
			},
		}
	}

	return {
		/** The session caller from memory alone, or undefined when the database must be asked. */
		fromMemory(request: Request, upgrade: boolean): CallerOutcome | undefined {
			const headers = request.headers
			if (headers.has('authorization') || headers.has('x-api-key')) return undefined
			const sessionId = readCookie(headers.get('cookie'), SESSION_COOKIE)
			if (!sessionId) return notAuthenticated
			const entry = sessions.peek(sessionId)
			if (!entry) return undefined
			const profile = profiles.peek(entry.userId)
			if (!profile?.active) return undefined
			return (
				csrfRefusal(request, upgrade, entry.csrfToken) ?? {
					ok: true,
					caller: sessionCaller(profile, sessionId, entry),
				}
			)
		},

		/** The session caller, its session and profile read from the database if need be. */
		async fromSession(request: Request, upgrade: boolean): Promise<CallerOutcome> {
			const sessionId = readCookie(request.headers.get('cookie'), SESSION_COOKIE)
			if (!sessionId) return notAuthenticated
			const entry = await sessions.resolve(sessionId)
			if (!entry) return sessionEnded
			const refused = csrfRefusal(request, upgrade, entry.csrfToken)
			if (refused) return refused
			const profile = await profiles.get(entry.userId)
			if (!profile?.active) return sessionEnded
			return { ok: true, caller: sessionCaller(profile, sessionId, entry) }
		},
	}
}
