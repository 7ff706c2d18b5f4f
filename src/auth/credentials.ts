import { eq } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { userProfile } from '../../db/schema'
import type { Config } from '../config'
import { createKeyedQueue } from '../keyed-queue'
import { normalizeEmail } from '../text'
import { MESSAGES, throttled, unauthorized } from './errors'
import { DUMMY_HASH, type PasswordHasher } from './passwords'
import type { RateLimiter } from './rate-limit'

/**
 * Email + password check shared by login/ and token/. An unknown email is verified against a dummy
 * argon2id hash, so it costs the same work and gets the same 401 as a wrong password (no user
 * enumeration). Failures count per email+IP, login/ and token/ together; past the limit the answer
 * is 429 with Retry-After, before any hashing. Attempts of one email+IP are checked one after the
 * other (the service is one process), so concurrent guesses cannot all pass the limit check made
 * before the first of them failed, and concurrent good logins are delayed, never refused.
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
	const inTurn = createKeyedQueue()
	const check = async (email: string, password: string, key: string): Promise<CheckedUser> => {
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
	return (rawEmail, password, ip) => {
		const email = normalizeEmail(rawEmail)
		const key = `login:${email}:${ip}`
		return inTurn(key, () => check(email, password, key))
	}
}
