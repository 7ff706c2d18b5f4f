import { then } from '../../common/util/then'
import type { Config } from '../config'
import type { Standing } from '../policy/principal'
import type { ApiKeys } from './api-keys'
import { createBearerCallers } from './bearer-callers'
import type { AuthCache } from './cache'
import { type CallerOutcome, keyForbidden, tokenInvalid } from './caller-outcome'
import { createCurrentPrincipal } from './current-principal'
import { MESSAGES } from './errors'
import type { Families } from './families'
import { createPrincipals } from './principals'
import type { Profiles } from './profiles'
import { createSessionCallers } from './session-callers'
import type { Sessions } from './sessions'
import type { TokenSigner } from './tokens'
import type { Authenticator, AuthOutcome, Principal, UpgradeOutcome } from './types'

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
export type { AuthenticatedCaller, CallerOutcome } from './caller-outcome'

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
	 * (src/server/auth/route-guard.ts), which asks the policy what this principal may do. Remembered for
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
	botCaller(request: Request, token: string): CallerOutcome | Promise<CallerOutcome>
}

/** A Bot API token: the account's Telegram user id, then the key. */
const BOT_TOKEN = /^(\d{1,20}):(ubg_[A-Za-z0-9_-]{43})$/

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
	const principals = createPrincipals()
	const bearer = createBearerCallers({ signer, profiles, families, keys, principals })
	const session = createSessionCallers({ config, sessions, profiles, principals })

	const fromDatabase = async (request: Request, upgrade: boolean): Promise<CallerOutcome> => {
		const key = bearer.presentedKey(request.headers)
		if (key !== null) return bearer.fromApiKey(key)
		const authorization = request.headers.get('authorization')
		if (authorization) {
			const match = /^Bearer\s+(\S+)$/i.exec(authorization)
			if (!match?.[1]) return tokenInvalid
			return bearer.fromAccessToken(match[1])
		}
		return session.fromSession(request, upgrade)
	}

	/** A caller whose standing does not let it work is refused, whatever the credential (src/server/policy/principal.ts). */
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
		session.fromMemory(request, upgrade) ?? fromDatabase(request, upgrade)

	const callers = new WeakMap<Request, Principal>()
	const remember = (request: Request, outcome: CallerOutcome): CallerOutcome => {
		if (outcome.ok) callers.set(request, outcome.caller.principal)
		return outcome
	}
	const resolve = (request: Request, upgrade = false) =>
		then(anyCaller(request, upgrade), (o) => remember(request, standing(upgrade ? o : withoutKey(o))))

	return {
		resolve,
		// Logout's: it ends what the credential names, and an API key names nothing it could end.
		identify: (request) => anyCaller(request),
		caller: (request) => then(anyCaller(request), (o) => remember(request, o)),
		callerOf: (request) => callers.get(request),
		botCaller: (request, token) => {
			const parts = BOT_TOKEN.exec(token)
			if (!parts?.[1] || !parts[2]) return tokenInvalid
			// Memory vouches for a known key and its owner (revocations drop both first): no promise.
			const now = bearer.fromApiKeyNow(parts[2], parts[1])
			if (now) return remember(request, standing(now))
			return bearer.fromApiKey(parts[2], parts[1]).then((o) => remember(request, standing(o)))
		},
		authenticate: async (request) => toOutcome(await resolve(request)),
		authenticateUpgrade: async (request): Promise<UpgradeOutcome> =>
			upgradeOutcome(await resolve(request, true)),
		authenticateAccess: async (token): Promise<UpgradeOutcome> => {
			if (token.length > 4096) return tokenInvalid
			return upgradeOutcome(standing(await bearer.fromAccessToken(token)))
		},
		currentPrincipal: createCurrentPrincipal({ sessions, profiles, families, cache, keys, principals }),
		onRevoked: (listener) => cache.onRevoked(listener),
	}
}

const toOutcome = (outcome: CallerOutcome): AuthOutcome =>
	outcome.ok ? { ok: true, principal: outcome.caller.principal } : outcome

const upgradeOutcome = (outcome: CallerOutcome): UpgradeOutcome => {
	if (!outcome.ok) return outcome
	const { principal, credential } = outcome.caller
	return { ok: true, principal, credential }
}
