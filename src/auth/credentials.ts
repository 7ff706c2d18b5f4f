import { eq } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { userProfile } from '../../db/schema'
import type { Config } from '../config'
import { MESSAGES, throttled, unauthorized } from './errors'
import { DUMMY_HASH, type PasswordHasher } from './passwords'
import type { RateLimiter } from './rate-limit'

/**
 * Email + password check shared by login/ and token/. An unknown email is verified against a dummy
 * argon2id hash, so it costs the same work and gets the same 401 as a wrong password (no user
 * enumeration). Failures count per email+IP; past the limit the answer is 429 before any hashing.
 */
export interface CheckedUser {
	id: number
	email: string
}

export type CredentialCheck = (email: string, password: string, ip: string) => Promise<CheckedUser>

export function createCredentialCheck(
	db: Database,
	config: Config,
	hasher: PasswordHasher,
	limiter: RateLimiter,
): CredentialCheck {
	return async (rawEmail, password, ip) => {
		const email = rawEmail.trim().toLowerCase()
		const key = `login:${email}:${ip}`
		const wait = await limiter.blocked(key, config.loginRateLimit, config.loginRateWindow)
		if (wait) throw throttled(wait)
		const [user] = await db
			.select({
				id: userProfile.id,
				email: userProfile.email,
				hash: userProfile.passwordHash,
				active: userProfile.active,
			})
			.from(userProfile)
			.where(eq(userProfile.email, email))
		const matches = await hasher.verify(password, user?.hash ?? DUMMY_HASH)
		if (!user || !matches || !user.active) {
			await limiter.hit(key, config.loginRateLimit, config.loginRateWindow)
			throw unauthorized(MESSAGES.badCredentials, 'no_active_account')
		}
		if (hasher.needsRehash(user.hash)) {
			await db
				.update(userProfile)
				.set({ passwordHash: await hasher.hash(password) })
				.where(eq(userProfile.id, user.id))
		}
		return { id: user.id, email: user.email }
	}
}
