import type { Database } from '../../db/client'
import type { Config } from '../config'
import { clientAddressOf, type PeerSource } from '../http/client-address'
import type { Logger } from '../logger'
import { type ApiKeys, createApiKeys } from './api-keys'
import { type CallerResolver, createCallerResolver } from './authenticator'
import { type AuthCache, createAuthCache } from './cache'
import { type CredentialCheck, createCredentialCheck, createLoginGate, type LoginGate } from './credentials'
import type { Executor } from './db-types'
import { createFamilies, type Families } from './families'
import { limitHashing } from './hash-limit'
import { createMailer, type Mailer } from './mailer'
import { createPasswordHasher, type PasswordHasher } from './passwords'
import { createProfiles, type Profiles } from './profiles'
import { createRateLimiter, type RateLimiter } from './rate-limit'
import { createResetTokens, type ResetTokens } from './reset-tokens'
import { createSessions, type Sessions } from './sessions'
import { createTokenSigner, type TokenSigner } from './tokens'
import type { Authenticator, GuessLimit } from './types'

/**
 * The auth core of one app: password hashing, JWT families, server-side sessions, CSRF, rate
 * limits, reset tokens and mail. `createAuthenticator` builds it; plugins see it as the
 * `Authenticator` of `ctx.auth`, and the accounts plugins reach the rest through `authCoreOf`.
 */
export interface AuthDeps {
	db: Database
	config: Config
	log: Logger
	/** Tests count hashing work through it (no timing in tests). */
	hasher?: PasswordHasher
	mailer?: Mailer
	/** Hears each refused password log-in (metrics). */
	onLoginFailed?: () => void
}

export interface AuthCore extends CallerResolver {
	readonly guesses: GuessLimit
	readonly config: Config
	readonly db: Database
	readonly log: Logger
	readonly hasher: PasswordHasher
	readonly signer: TokenSigner
	readonly cache: AuthCache
	readonly families: Families
	readonly sessions: Sessions
	readonly profiles: Profiles
	readonly limiter: RateLimiter
	readonly resetTokens: ResetTokens
	readonly mailer: Mailer
	readonly checkCredentials: CredentialCheck
	/** Rate limit and one-at-a-time turns of password logins, shared by both families. */
	readonly loginGate: LoginGate
	/** The company's API keys (src/auth/api-keys.ts). */
	readonly keys: ApiKeys
	/** The client's address for rate limits: the peer, or what a trusted proxy says (TRUSTED_PROXIES). */
	readonly clientAddress: (server: PeerSource | null | undefined, request: Request) => string
	/** Deletes every session and revokes every refresh family of the user (inside `tx` if given). */
	revokeUser(userId: number, tx?: Executor): Promise<void>
	/**
	 * Forgets the cached profile (and, with `revoked`, sessions and families) of a user. Call it
	 * after any write to the user's profile, company or tokens has committed.
	 */
	invalidateUser(userId: number, revoked?: boolean): void
}

const CORES = new WeakMap<Authenticator, AuthCore>()

export function createAuthenticator(deps: AuthDeps): AuthCore {
	const { db, config, log } = deps
	// Every hash of the app (logins, registrations, resets, family B's profiles) takes a turn here.
	const hasher = limitHashing(deps.hasher ?? createPasswordHasher(), config.passwordHashConcurrency)
	const mailer = deps.mailer ?? createMailer(config, log)
	const signer = createTokenSigner(config.secrets.jwtSecret)
	const cache = createAuthCache((err) =>
		log.error('revocation listener failed', { error: err instanceof Error ? err : String(err) }),
	)
	const families = createFamilies(db, config, signer, cache)
	const sessions = createSessions(db, config, families, cache)
	const profiles = createProfiles(db, cache)
	const limiter = createRateLimiter(
		db,
		Date.now,
		Math.max(config.loginRateWindow, config.resetRateWindow, config.guessRateWindow, 24 * 3600),
	)
	// One line per refused log-in, with the client's address: what fail2ban reads (docs/operator.md).
	const loginGate = createLoginGate(config, limiter, (client, throttled) => {
		log.warn(throttled ? 'login throttled' : 'login failed', { client })
		deps.onLoginFailed?.()
	})
	// Per userbot, in the database: every gateway of a deployment counts against one limit.
	const guessKey = (userbotId: number) => `guess:${userbotId}`
	const guesses: GuessLimit = {
		take: (userbotId) => limiter.hit(guessKey(userbotId), config.guessRateLimit, config.guessRateWindow),
		giveBack: (userbotId) => limiter.giveBack(guessKey(userbotId)),
	}
	const keys = createApiKeys(db, cache, (err) =>
		log.warn('api key use not recorded', { error: err instanceof Error ? err : String(err) }),
	)
	const resolver = createCallerResolver(config, signer, sessions, profiles, families, cache, keys)
	const core: AuthCore = {
		...resolver,
		config,
		db,
		log,
		hasher,
		signer,
		cache,
		families,
		sessions,
		profiles,
		limiter,
		guesses,
		resetTokens: createResetTokens(db, config),
		mailer,
		checkCredentials: createCredentialCheck(db, hasher, loginGate),
		loginGate,
		keys,
		clientAddress: clientAddressOf(config.trustedProxies),
		async revokeUser(userId, tx = db) {
			await sessions.destroyUser(userId, tx)
			await families.revokeUser(userId, tx)
		},
		invalidateUser: (userId, revoked = false) => cache.dropUser(userId, revoked),
	}
	CORES.set(core, core)
	return core
}

/** The full core behind an `Authenticator` built here; throws a sentence if it is something else. */
export function authCoreOf(auth: Authenticator): AuthCore {
	const core = CORES.get(auth)
	if (!core) throw new Error('accounts: ctx.auth was not built by createAuthenticator from src/auth')
	return core
}

export type { Mail, Mailer } from './mailer'
export type { PasswordHasher } from './passwords'
export type {
	Authenticator,
	AuthOutcome,
	Credential,
	Principal,
	Revocation,
	UpgradeOutcome,
} from './types'
