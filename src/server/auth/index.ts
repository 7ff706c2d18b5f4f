import type { Database } from '../../../db/client'
import type { Logger } from '../../common/util/logger'
import type { Config } from '../config'
import { clientAddressOf } from '../http/client-address'
import { type ApiKeys, createApiKeys } from './api-keys'
import { type CallerResolver, createCallerResolver } from './authenticator'
import { type AuthCache, createAuthCache } from './cache'
import { createCredentialCheck, createLoginGate } from './credentials'
import { createFamilies } from './families'
import { limitHashing } from './hash-limit'
import { createPasswordHasher, type PasswordHasher } from './passwords'
import { createProfiles } from './profiles'
import { createRateLimiter } from './rate-limit'
import { createResetTokens } from './reset-tokens'
import { clearedCookies } from './respond'
import { createRouteGuard } from './route-guard'
import type { AuthServices } from './services'
import { createSessions, type Sessions } from './sessions'
import { createTokenSigner, type TokenSigner } from './tokens'
import type { GuessLimit } from './types'
import { endCaller, mainRefreshOf, openSession } from './web-session'

/**
 * The auth core of one app: password hashing, JWT families, server-side sessions, CSRF, rate
 * limits and reset tokens (mail is the accounts plugin's own). `createAuthenticator` builds it; plugins see it as the
 * `AuthServices` of `ctx.auth` (src/server/auth/services.ts), the core's own routes and tests as all of it.
 */
export interface AuthDeps {
	db: Database
	config: Config
	log: Logger
	/** Tests count hashing work through it (no timing in tests). */
	hasher?: PasswordHasher
	/** Hears each refused password log-in (metrics). */
	onLoginFailed?: () => void
}

export interface AuthCore extends CallerResolver, AuthServices {
	resolve(request: Request, upgrade?: boolean): ReturnType<CallerResolver['resolve']>
	readonly guesses: GuessLimit
	readonly config: Config
	readonly db: Database
	readonly log: Logger
	readonly signer: TokenSigner
	readonly cache: AuthCache
	readonly sessions: Sessions
	/** The company's API keys (src/server/auth/api-keys.ts). */
	readonly keys: ApiKeys
}

export function createAuthenticator(deps: AuthDeps): AuthCore {
	const { db, config, log } = deps
	// Every hash of the app (logins, registrations, resets, family B's profiles) takes a turn here.
	const hasher = limitHashing(deps.hasher ?? createPasswordHasher(), config.passwordHashConcurrency)
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
		// Rows are kept for the longest window in use: a plugin's own limits (reset, register) are at
		// most a day, as are these.
		Math.max(config.loginRateWindow, config.guessRateWindow, 24 * 3600),
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
		resetTokens: createResetTokens(db),
		checkCredentials: createCredentialCheck(db, hasher, loginGate),
		loginGate,
		keys,
		clientAddress: clientAddressOf(config.trustedProxies),
		openSession: (request, user, main) => openSession(core, request, user, main),
		endSession: (request) => endCaller(core, request),
		clearedCookies: () => clearedCookies(config),
		mainRefreshOf: (request) => mainRefreshOf(sessions, request),
		async revokeUser(userId, tx = db) {
			await sessions.destroyUser(userId, tx)
			await families.revokeUser(userId, tx)
		},
		invalidateUser: (userId, revoked = false) => cache.dropUser(userId, revoked),
		guard: (locators) => createRouteGuard(resolver, locators),
	}
	return core
}

export type { Mail, Mailer } from './mailer'
export type { PasswordHasher } from './passwords'
export type { AuthServices } from './services'
export type {
	Authenticator,
	AuthOutcome,
	Credential,
	Principal,
	Revocation,
	UpgradeOutcome,
} from './types'
