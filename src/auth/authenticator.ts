import type { Config } from '../config'
import { type Standing, standingOf } from '../policy/principal'
import type { KeyGrant } from '../policy/scopes'
import { type ApiKeys, type KeyRecord, keyFamily } from './api-keys'
import type { AuthCache, SessionEntry } from './cache'
import { readCookie, SESSION_COOKIE } from './cookies'
import { createCsrfCheck, UNSAFE_METHODS } from './csrf'
import { MESSAGES } from './errors'
import type { Families } from './families'
import type { Profile, Profiles } from './profiles'
import type { Sessions } from './sessions'
import type { TokenSigner } from './tokens'
import type { Authenticator, AuthOutcome, Credential, Principal, UpgradeOutcome } from './types'

/**
 * Resolves the caller: `Authorization: Bearer <access>` first (signature, type, expiry, and its
 * family still alive), else the `sessionid` cookie, whose unsafe requests must pass CSRF. A session
 * that memory alone can vouch for (cached, access token fresh, family alive, profile cached) is
 * answered synchronously: one SHA-256 and four map lookups, no promise. Everything revoked is
 * dropped from that memory at once (see cache.ts), so the fast path never outlives a revocation.
 *
 * A member whose work status does not allow work is refused (403 `status_not_allowed`, the body
 * family B's access rules answer) on every path that resolves a caller: each REST route, the
 * WebSocket upgrade and renewal, and each command (`currentPrincipal`); owners are exempt.
 *
 * A WebSocket outlives its upgrade: it keeps the `Credential` and asks `currentPrincipal` before
 * each command and push, and hears every revocation through `onRevoked` (docs/protocol.md#close-codes).
 */
export interface AuthenticatedCaller {
	principal: Principal
	profile: Profile
	/** The session's cookie value when the caller came by session. */
	sessionId: string | null
	credential: Credential
}

export type CallerOutcome = { ok: true; caller: AuthenticatedCaller } | Extract<AuthOutcome, { ok: false }>

export interface CallerResolver extends Omit<Authenticator, 'guesses'> {
	/**
	 * As `authenticate`, with the profile and session id the accounts routes need; a plain value
	 * when memory alone decided, else a promise.
	 */
	resolve(request: Request, upgrade?: boolean): CallerOutcome | Promise<CallerOutcome>
	/**
	 * Who the credentials name, whatever their work status: for logout, which must end a session
	 * its holder may no longer use.
	 */
	identify(request: Request): CallerOutcome | Promise<CallerOutcome>
	/**
	 * Who the credentials name, an API key included, whatever their standing: for the route guard
	 * (src/auth/route-guard.ts), which asks the policy what this principal may do. Remembered for
	 * the access line, as `resolve` is.
	 */
	caller(request: Request): CallerOutcome | Promise<CallerOutcome>
	/** Who a request was resolved to, if it was (the access log names the user or key). */
	callerOf(request: Request): Principal | undefined
	/**
	 * The Bot API face's caller (docs/bot-api.md): `token` is `<bot_user_id>:<key>` as its path
	 * carries it, a key made with `bot_api`, whose first part must be its account's user id.
	 * Remembered for the access line; its standing checked.
	 */
	botCaller(request: Request, token: string): Promise<CallerOutcome>
}

/** A Bot API token: the account's Telegram user id, then the key. */
const BOT_TOKEN = /^(\d{1,20}):(ubg_[A-Za-z0-9_-]{43})$/

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
const keyForbidden = {
	ok: false,
	status: 403,
	body: { detail: MESSAGES.permissionDenied, code: 'key_scope' },
} as const
/** A key without an expiry: its credential never expires (the expiry timer re-arms every ~24 days). */
const NEVER = Number.MAX_SAFE_INTEGER

/** The access rules' refusal of a principal that may not work (docs/rest.md#members-and-owners). */
const standingRefusal = (standing: Exclude<Standing, 'works'>) =>
	({ ok: false, status: 403, body: { detail: MESSAGES.accessDenied, code: standing } }) as const

export function createCallerResolver(
	config: Config,
	signer: TokenSigner,
	sessions: Sessions,
	profiles: Profiles,
	families: Families,
	cache: AuthCache,
	keys: ApiKeys,
): CallerResolver {
	const checkCsrf = createCsrfCheck(config)

	// One principal per profile and credential kind, made once: a socket asks for it per command.
	const principals = new WeakMap<Profile, Partial<Record<Principal['via'], Principal>>>()
	const principalOf = (profile: Profile, via: Principal['via']): Principal => {
		let made = principals.get(profile)
		if (!made) {
			made = {}
			principals.set(profile, made)
		}
		made[via] ??= {
			userId: profile.id,
			email: profile.email,
			companyId: profile.companyId,
			isOwner: profile.isOwner,
			grants: profile.grants,
			standing: standingOf(profile),
			via,
		}
		return made[via]
	}

	// One principal per profile and key: the owner's, narrowed by the key's scopes.
	const keyPrincipals = new WeakMap<Profile, Map<number, Principal>>()
	const keyPrincipal = (profile: Profile, key: KeyGrant): Principal => {
		let made = keyPrincipals.get(profile)
		if (!made) {
			made = new Map()
			keyPrincipals.set(profile, made)
		}
		let principal = made.get(key.id)
		if (!principal) {
			principal = { ...principalOf(profile, 'key'), key }
			made.set(key.id, principal)
		}
		return principal
	}
	/** The principal `was` acts as now that its profile reads `profile`. */
	const principalAgain = (profile: Profile, was: Principal): Principal =>
		was.key ? keyPrincipal(profile, was.key) : principalOf(profile, was.via)

	/**
	 * The API key a request presents, from a header only (`X-Api-Key`, or `Authorization: Bearer`
	 * with the key's prefix): never from a cookie or the URL, where it would end up in logs.
	 */
	const presentedKey = (headers: Headers): string | null => {
		const header = headers.get('x-api-key')
		if (header !== null) return header.trim()
		const match = /^Bearer\s+(\S+)$/i.exec(headers.get('authorization') ?? '')
		return match?.[1] && keys.looksLikeKey(match[1]) ? match[1] : null
	}

	/** An API key: live, its owner still the active owner of its company. What it may do is the policy's. */
	const fromApiKey = async (secret: string, botUserId?: string): Promise<CallerOutcome> => {
		const record: KeyRecord | null = await keys.resolve(secret)
		if (!record) return tokenInvalid
		if (botUserId !== undefined && (record.botUserId === null || String(record.botUserId) !== botUserId))
			return tokenInvalid
		const profile = await profiles.get(record.userId)
		if (!profile?.active || !profile.isOwner || profile.companyId !== record.companyId) return tokenInvalid
		const principal = keyPrincipal(profile, { id: record.id, scopes: record.scopes })
		const credential: Credential = {
			principal,
			family: keyFamily(record.id),
			sessionHash: null,
			sessionId: null,
			expiresAt: record.expiresAt ?? NEVER,
		}
		return { ok: true, caller: { principal, profile, sessionId: null, credential } }
	}

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
		const principal = principalOf(profile, 'session')
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

	/** The session caller from memory alone, or undefined when the database must be asked. */
	const fromMemory = (request: Request, upgrade: boolean): CallerOutcome | undefined => {
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
	}

	/** A bearer access token: signature, type, expiry, its family alive, its user active. */
	const fromAccessToken = async (token: string): Promise<CallerOutcome> => {
		const claims = signer.verify(token, 'access')
		if (!claims || !(await families.isAlive(claims.fam, claims.user_id))) return tokenInvalid
		const profile = await profiles.get(claims.user_id)
		if (!profile?.active) return tokenInvalid
		const principal = principalOf(profile, 'bearer')
		const credential: Credential = {
			principal,
			family: claims.fam,
			sessionHash: null,
			sessionId: null,
			expiresAt: claims.exp * 1000,
		}
		return { ok: true, caller: { principal, profile, sessionId: null, credential } }
	}

	const fromDatabase = async (request: Request, upgrade: boolean): Promise<CallerOutcome> => {
		const key = presentedKey(request.headers)
		if (key !== null) return fromApiKey(key)
		const authorization = request.headers.get('authorization')
		if (authorization) {
			const match = /^Bearer\s+(\S+)$/i.exec(authorization)
			if (!match?.[1]) return tokenInvalid
			return fromAccessToken(match[1])
		}
		const sessionId = readCookie(request.headers.get('cookie'), SESSION_COOKIE)
		if (!sessionId) return notAuthenticated
		const entry = await sessions.resolve(sessionId)
		if (!entry) return sessionEnded
		const refused = csrfRefusal(request, upgrade, entry.csrfToken)
		if (refused) return refused
		const profile = await profiles.get(entry.userId)
		if (!profile?.active) return sessionEnded
		return { ok: true, caller: sessionCaller(profile, sessionId, entry) }
	}

	/** A caller whose standing does not let it work is refused, whatever the credential (src/policy/principal.ts). */
	const standing = (outcome: CallerOutcome): CallerOutcome =>
		outcome.ok && outcome.caller.principal.standing !== 'works'
			? standingRefusal(outcome.caller.principal.standing)
			: outcome

	/**
	 * A route that authenticates by itself (`authenticate`, `resolve`) carries no policy entry the
	 * core can read, so an API key is refused there: a key reaches only what an entry admits it to
	 * (the route guard's `caller`), and the command channel.
	 */
	const withoutKey = (outcome: CallerOutcome): CallerOutcome =>
		outcome.ok && outcome.caller.principal.key ? keyForbidden : outcome

	const anyCaller = (request: Request, upgrade = false) =>
		fromMemory(request, upgrade) ?? fromDatabase(request, upgrade)

	const callers = new WeakMap<Request, Principal>()
	const remember = (request: Request, outcome: CallerOutcome): CallerOutcome => {
		if (outcome.ok) callers.set(request, outcome.caller.principal)
		return outcome
	}
	const then = (
		outcome: CallerOutcome | Promise<CallerOutcome>,
		next: (o: CallerOutcome) => CallerOutcome,
	): CallerOutcome | Promise<CallerOutcome> =>
		outcome instanceof Promise ? outcome.then(next) : next(outcome)
	const resolve = (request: Request, upgrade = false) =>
		then(anyCaller(request, upgrade), (o) => remember(request, standing(upgrade ? o : withoutKey(o))))
	// Logout's: it ends what the credential names, and an API key names nothing it could end.
	const identify = (request: Request) => anyCaller(request)

	const toOutcome = (outcome: CallerOutcome): AuthOutcome =>
		outcome.ok ? { ok: true, principal: outcome.caller.principal } : outcome

	/** The user may still act as the principal the credential was issued for, and may work. */
	const stillHolds = (profile: Profile, principal: Principal) =>
		profile.active &&
		standingOf(profile) === 'works' &&
		profile.companyId === principal.companyId &&
		profile.isOwner === principal.isOwner

	const principalFromDatabase = async (credential: Credential): Promise<Principal | null> => {
		const { principal, family, sessionId } = credential
		const alive = principal.key
			? await keys.isAlive(principal.key.id)
			: await families.isAlive(family, principal.userId)
		if (!alive) return null
		if (sessionId !== null) {
			// Refreshes the session's access token if it is due: a session socket lives as its session.
			const entry = await sessions.resolve(sessionId)
			if (!entry || entry.family !== family) return null
		}
		const profile = await profiles.get(principal.userId)
		if (profile === null || !stillHolds(profile, principal) || credential.expiresAt <= Date.now()) return null
		return principalAgain(profile, principal)
	}

	const currentPrincipal = (credential: Credential): Principal | null | Promise<Principal | null> => {
		const now = Date.now()
		if (credential.expiresAt <= now) return null
		const family = cache.families.get(credential.family)
		if (family && !family.alive) return null
		const profile = profiles.peek(credential.principal.userId)
		if (profile && !stillHolds(profile, credential.principal)) return null
		const hash = credential.sessionHash
		const session = hash === null ? undefined : cache.sessions.get(hash)
		if (session && (session.expiresAt <= now || session.family !== credential.family)) return null
		if (family && profile && (hash === null || session)) return principalAgain(profile, credential.principal)
		return principalFromDatabase(credential)
	}

	return {
		resolve,
		identify,
		caller: (request) => then(anyCaller(request), (o) => remember(request, o)),
		callerOf: (request) => callers.get(request),
		botCaller: async (request, token) => {
			const parts = BOT_TOKEN.exec(token)
			if (!parts?.[1] || !parts[2]) return tokenInvalid
			return remember(request, standing(await fromApiKey(parts[2], parts[1])))
		},
		authenticate: async (request) => toOutcome(await resolve(request)),
		authenticateUpgrade: async (request): Promise<UpgradeOutcome> => {
			const outcome = await resolve(request, true)
			if (!outcome.ok) return outcome
			const { principal, credential } = outcome.caller
			return { ok: true, principal, credential }
		},
		authenticateAccess: async (token): Promise<UpgradeOutcome> => {
			if (token.length > 4096) return tokenInvalid
			const outcome = standing(await fromAccessToken(token))
			if (!outcome.ok) return outcome
			const { principal, credential } = outcome.caller
			return { ok: true, principal, credential }
		},
		currentPrincipal,
		onRevoked: (listener) => cache.onRevoked(listener),
	}
}
