import type { Permission } from '../policy/permissions'
import type { Principal } from '../policy/principal'

export type { Principal } from '../policy/principal'

export type AuthOutcome =
	| { ok: true; principal: Principal }
	| { ok: false; status: 401 | 403 | 404; body: { detail: string; code?: string } }

/**
 * The limit on guessing a userbot's secrets (its 2FA password, recovery and log-in codes): each try
 * is counted in the same atomic step that checks the limit, so concurrent tries cannot all pass it.
 */
export interface GuessLimit {
	/** Counts one try at a secret of the userbot: 0 to go on, else the seconds to wait. */
	take(userbotId: number): Promise<number>
	/** The try was right: it no longer counts against the limit. */
	giveBack(userbotId: number): Promise<void>
}

/**
 * What a long-lived connection (a WebSocket) keeps of the credential it was opened with, to learn
 * later whether that credential still holds.
 */
export interface Credential {
	principal: Principal
	/** The refresh-token family the bearer token, or the session's token pair, descends from. */
	family: string
	/** SHA-256 of the session cookie (a session caller), else null. */
	sessionHash: string | null
	/** The session cookie itself, kept in memory only to re-read a session the cache forgot. */
	sessionId: string | null
	/** Unix ms: the bearer access token's `exp`, or the end of the session's lifetime. */
	expiresAt: number
}

export type UpgradeOutcome =
	| { ok: true; principal: Principal; credential: Credential }
	| Extract<AuthOutcome, { ok: false }>

/**
 * What a revocation ended, announced right after its database write: one token family (blacklist,
 * refresh-token reuse, bearer logout), one session (logout, expiry), or everything of a user
 * (password reset). `changed` announces a profile change: the user's credentials may still hold,
 * but whoever acts on them should check again (deactivation, another company).
 */
export type Revocation =
	| { family: string }
	| { sessionHash: string }
	| { userId: number; revoked: true }
	| { userId: number; changed: true }

/**
 * The one way every plugin (accounts, userbots, the WebSocket gateway) learns who is calling.
 * Built by `src/server/auth` from the database and the config; family A and family B both create the
 * sessions it reads.
 */
export interface Authenticator {
	/**
	 * REST: `Authorization: Bearer <access>` first, else the `sessionid` cookie. An unsafe method (POST, PUT,
	 * PATCH, DELETE) authenticated by the cookie must pass the CSRF check
	 * (docs/rest.md#rest-accounts-family-a). An expired access token inside a session is refreshed from the
	 * stored refresh token.
	 */
	authenticate(request: Request): Promise<AuthOutcome>
	/**
	 * WebSocket upgrade: bearer, or the session cookie with an allowed `Origin` (docs/protocol.md#connecting).
	 * Every refusal, a failed Origin check included, is a 401. The credential lets the connection check later
	 * that it still holds.
	 */
	authenticateUpgrade(request: Request): Promise<UpgradeOutcome>
	/**
	 * A bearer access token given in band (the WebSocket `authenticate` frame, which renews an open
	 * socket's credential before it expires): as a `Bearer` upgrade would check it.
	 */
	authenticateAccess(token: string): Promise<UpgradeOutcome>
	/**
	 * The principal `credential` acts as now, or null when it no longer holds: expired, its family
	 * revoked, its session (if any) ended, its user inactive, of another company or role, or a member
	 * whose work status does not allow work. The principal carries the member's grants as they stand
	 * now. A plain value when memory alone can tell, else a promise (the database is asked, and
	 * memory refilled).
	 */
	currentPrincipal(credential: Credential): Principal | null | Promise<Principal | null>
	/** The per-userbot limit on commands and log-in steps that check a password or code. */
	guesses: GuessLimit
	/** Calls `listener` synchronously after every revocation; returns the unsubscribe. */
	onRevoked(listener: (revocation: Revocation) => void): () => void
}

/**
 * The caller's profile as `GET /accounts/me/` shows it, kept serialized in the cache: the hot path
 * answers from memory. Anything that changes a profile must call `AuthCache.dropUser`.
 */
export interface Profile {
	id: number
	email: string
	companyId: number | null
	isOwner: boolean
	active: boolean
	/** The work status allows work (an owner works whatever it says). */
	allowsWork: boolean
	/** The company's `active` flag (true without a company): off, nobody of it works (src/server/policy/principal.ts). */
	companyActive: boolean
	grants: ReadonlySet<Permission>
	/** The `me/` body, serialized once. */
	json: string
}
