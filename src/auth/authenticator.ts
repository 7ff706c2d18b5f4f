import type { Config } from '../config'
import { readCookie, SESSION_COOKIE } from './cookies'
import { createCsrfCheck, UNSAFE_METHODS } from './csrf'
import { MESSAGES } from './errors'
import type { Families } from './families'
import type { Profile, Profiles } from './profiles'
import type { Sessions } from './sessions'
import type { TokenSigner } from './tokens'
import type { Authenticator, AuthOutcome, Principal } from './types'

/**
 * Resolves the caller: `Authorization: Bearer <access>` first (signature, type, expiry, and its
 * family still alive), else the `sessionid` cookie, whose unsafe requests must pass CSRF. A session
 * that memory alone can vouch for (cached, access token fresh, family alive, profile cached) is
 * answered synchronously: one SHA-256 and four map lookups, no promise. Everything revoked is
 * dropped from that memory at once (see cache.ts), so the fast path never outlives a revocation.
 */
export interface AuthenticatedCaller {
	principal: Principal
	profile: Profile
	/** The session's cookie value when the caller came by session. */
	sessionId: string | null
}

export type CallerOutcome = { ok: true; caller: AuthenticatedCaller } | Extract<AuthOutcome, { ok: false }>

export interface CallerResolver extends Authenticator {
	/**
	 * As `authenticate`, with the profile and session id the accounts routes need; a plain value
	 * when memory alone decided, else a promise.
	 */
	resolve(request: Request, upgrade?: boolean): CallerOutcome | Promise<CallerOutcome>
}

const notAuthenticated = {
	ok: false,
	status: 401,
	body: { detail: MESSAGES.notAuthenticated, code: 'not_authenticated' },
} as const
const tokenInvalid = {
	ok: false,
	status: 401,
	body: { detail: MESSAGES.tokenNotValid, code: 'token_not_valid' },
} as const
const sessionEnded = {
	ok: false,
	status: 401,
	body: { detail: MESSAGES.sessionEnded, code: 'session_expired' },
} as const

export function createCallerResolver(
	config: Config,
	signer: TokenSigner,
	sessions: Sessions,
	profiles: Profiles,
	families: Families,
): CallerResolver {
	const checkCsrf = createCsrfCheck(config)

	const principalOf = (profile: Profile, via: Principal['via']): Principal => ({
		userId: profile.id,
		email: profile.email,
		companyId: profile.companyId,
		isOwner: profile.isOwner,
		via,
	})

	const csrfRefusal = (request: Request, upgrade: boolean, csrfToken: string): CallerOutcome | null => {
		if (!upgrade && !UNSAFE_METHODS.has(request.method)) return null
		const refused = checkCsrf(request, csrfToken)
		return refused ? { ok: false, status: 403, body: { detail: refused, code: 'csrf_failed' } } : null
	}

	/** The session caller from memory alone, or undefined when the database must be asked. */
	const fromMemory = (request: Request, upgrade: boolean): CallerOutcome | undefined => {
		const headers = request.headers
		if (headers.has('authorization')) return undefined
		const sessionId = readCookie(headers.get('cookie'), SESSION_COOKIE)
		if (!sessionId) return notAuthenticated
		const entry = sessions.peek(sessionId)
		if (!entry) return undefined
		const profile = profiles.peek(entry.userId)
		if (!profile?.active) return undefined
		return (
			csrfRefusal(request, upgrade, entry.csrfToken) ?? {
				ok: true,
				caller: { principal: principalOf(profile, 'session'), profile, sessionId },
			}
		)
	}

	const fromDatabase = async (request: Request, upgrade: boolean): Promise<CallerOutcome> => {
		const authorization = request.headers.get('authorization')
		if (authorization) {
			const match = /^Bearer\s+(\S+)$/i.exec(authorization)
			if (!match?.[1]) return tokenInvalid
			const claims = signer.verify(match[1], 'access')
			if (!claims || !(await families.isAlive(claims.fam, claims.user_id))) return tokenInvalid
			const profile = await profiles.get(claims.user_id)
			if (!profile?.active) return tokenInvalid
			return { ok: true, caller: { principal: principalOf(profile, 'bearer'), profile, sessionId: null } }
		}
		const sessionId = readCookie(request.headers.get('cookie'), SESSION_COOKIE)
		if (!sessionId) return notAuthenticated
		const entry = await sessions.resolve(sessionId)
		if (!entry) return sessionEnded
		const refused = csrfRefusal(request, upgrade, entry.csrfToken)
		if (refused) return refused
		const profile = await profiles.get(entry.userId)
		if (!profile?.active) return sessionEnded
		return { ok: true, caller: { principal: principalOf(profile, 'session'), profile, sessionId } }
	}

	const resolve = (request: Request, upgrade = false) =>
		fromMemory(request, upgrade) ?? fromDatabase(request, upgrade)

	const toOutcome = (outcome: CallerOutcome): AuthOutcome =>
		outcome.ok ? { ok: true, principal: outcome.caller.principal } : outcome

	return {
		resolve,
		authenticate: async (request) => toOutcome(await resolve(request)),
		authenticateUpgrade: async (request) => toOutcome(await resolve(request, true)),
	}
}
