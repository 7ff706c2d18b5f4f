import type { PeerSource } from '../http/client-address'
import type { RouteGuard } from '../http/rest-route'
import type { CallerOutcome } from './authenticator'
import type { CheckedUser, CredentialCheck, LoginGate } from './credentials'
import type { Executor } from './db-types'
import type { Families } from './families'
import type { PasswordHasher } from './passwords'
import type { Profiles } from './profiles'
import type { RateLimiter } from './rate-limit'
import type { ResetTokens } from './reset-tokens'
import type { Locators } from './route-guard'
import type { MainTokens } from './sessions'
import type { TokenSigner } from './tokens'
import type { Authenticator } from './types'

/**
 * The auth services a plugin reaches as `ctx.auth`: who is calling, and the machinery an account
 * family is built from (hashing, rate limits, token families, web sessions, reset tokens; mail through `createMailer`).
 * Both account families (`plugins/accounts`, `plugins/api-accounts`) are written with nothing more,
 * so a third party's family can be too. The core keeps the rest (its caches, API keys, the signer's
 * signing half) to itself: see `AuthCore` in src/server/auth/index.ts.
 */
export interface AuthServices extends Authenticator {
	/**
	 * As `authenticate`, with the caller's cached profile (`profile.json` is the `me/` body) and the
	 * session's cookie value: a plain value when memory alone decided, else a promise.
	 */
	resolve(request: Request): CallerOutcome | Promise<CallerOutcome>
	/**
	 * Who the request's credential names, an API key included, whatever its standing: what the route
	 * guard hands the policy (docs/policy.md). A route that authenticates by itself uses `resolve`.
	 */
	caller(request: Request): CallerOutcome | Promise<CallerOutcome>
	/**
	 * The Bot API face's caller, from the token its path carries (`<bot_user_id>:<key>`, a key made
	 * with `bot_api`): the one credential read from a URL (docs/bot-api.md). Ask the policy after it.
	 * Without a promise when memory vouches for the key and its owner.
	 */
	botCaller(request: Request, token: string): CallerOutcome | Promise<CallerOutcome>
	/**
	 * The guard of a plugin's routes, which enforces their policy entries:
	 * `serveRoutes(ctx, routes, ctx.auth.guard({ webhook: findEndpoint }))`, a locator for each kind
	 * its routes find by a path parameter (and `userbot` for the userbots a body names).
	 */
	guard(locators?: Locators): RouteGuard
	/** The client's address for rate limits and audit lines: the peer, or what a trusted proxy says. */
	clientAddress(server: PeerSource | null | undefined, request: Request): string
	/** Password hashing (argon2id), each hash taking a turn of PASSWORD_HASH_CONCURRENCY. */
	readonly hasher: PasswordHasher
	/** Counters in the database, shared by every gateway: `hit(key, limit, window)` says how long to wait. */
	readonly limiter: RateLimiter
	/** Refresh-token families (simplejwt's rotation and blacklist): issue, rotate, blacklist, revoke. */
	readonly families: Families
	/** Checks the JWTs this server signs (`verify`); signing stays with `families`. */
	readonly signer: Pick<TokenSigner, 'verify'>
	/** The users' profiles as the caches hold them (`get`), with the work status that decides `mayWork`. */
	readonly profiles: Profiles
	/** Password-reset tokens: issue one for a user (for as long as the issuer says), find it by e-mail and token, consume it once. */
	readonly resetTokens: ResetTokens
	/** A password login of family A: the rate limit, then the user or the 401/403/429 thrown. */
	readonly checkCredentials: CredentialCheck
	/** The rate limit and one-at-a-time turns every password login goes through, in both families. */
	readonly loginGate: LoginGate
	/**
	 * Ends the session the request's cookie named (session fixation), opens a new one for `user`
	 * (family B passes the main server's pair, kept in the session row only) and answers the login
	 * body with the `sessionid` and `csrftoken` cookies.
	 */
	openSession(request: Request, user: CheckedUser, main?: MainTokens): Promise<Response>
	/**
	 * Logout's local part (CSRF checked, a bearer token's family revoked, the cookie's session
	 * deleted): the cookie value of the session it ended, or null. Clear the cookies in every case.
	 */
	endSession(request: Request): Promise<string | null>
	/** The `Set-Cookie` lines that clear the session and CSRF cookies. */
	clearedCookies(): string[]
	/** Family B: the main server's refresh token kept in the session the request's cookie names, or null. */
	mainRefreshOf(request: Request): Promise<string | null>
	/** Deletes every session and revokes every refresh family of the user (inside `tx` if given). */
	revokeUser(userId: number, tx?: Executor): Promise<void>
	/**
	 * Forgets the cached profile (and, with `revoked`, sessions and families) of a user. Call it
	 * after any write to the user's profile, company or tokens has committed.
	 */
	invalidateUser(userId: number, revoked?: boolean): void
}
