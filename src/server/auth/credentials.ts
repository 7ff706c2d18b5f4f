import { eq } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { statusOnWork, userProfile } from '../../../db/schema'
import { createKeyedQueue } from '../../common/util/keyed-queue'
import { normalizeEmail } from '../../common/util/text'
import type { Config } from '../config'
import { MESSAGES, statusNotAllowed, throttled, unauthorized } from './errors'
import { DUMMY_HASH, type PasswordHasher } from './passwords'
import type { RateLimiter } from './rate-limit'

/**
 * Email + password check shared by login/ and token/. An unknown email is verified against a dummy
 * argon2id hash, so it costs the same work and gets the same 401 as a wrong password (no user
 * enumeration). An account made by family B (linked to the main server) has no password here and
 * never passes, whatever its stored hash: its rules live on the main server.
 *
 * With the right password, a member whose work status does not allow work is refused (403
 * `status_not_allowed`): no new token comes out. A login leaves the user's reset tokens alone
 * (docs/rest.md#rest-accounts-family-a): a user who tried a reset link, was refused (a weak
 * password, say) and logged in to see that nothing changed can still use the link.
 */
export interface CheckedUser {
	id: number
	email: string
}

export type CredentialCheck = (email: string, password: string, ip: string) => Promise<CheckedUser>

/**
 * The one gate every password login goes through, in both families: failures count per email+IP
 * in one counter (family A's login/ and token/, family B's login/), and past the limit the answer is
 * 429 with Retry-After before any work is done (hashing, or calling the main server). Attempts of
 * one email+IP run one after the other (the service is one process), so concurrent guesses cannot
 * all pass the limit check made before the first of them failed, and concurrent good logins are
 * delayed, never refused. `attempt` gets the normalised email and `fail`, which counts one failure.
 */
export type LoginGate = <T>(
	email: string,
	ip: string,
	attempt: (email: string, fail: () => Promise<void>) => Promise<T>,
) => Promise<T>

/** Stored emails are trimmed, NFC and lower-cased (src/common/util/text.ts): one account per address. */
export { normalizeEmail }

/** `onFailure` hears each refused log-in, with the client's address (the log line fail2ban reads). */
export function createLoginGate(
	config: Config,
	limiter: RateLimiter,
	onFailure: (ip: string, throttled: boolean) => void = () => {},
): LoginGate {
	const inTurn = createKeyedQueue()
	return (rawEmail, ip, attempt) => {
		const email = normalizeEmail(rawEmail)
		const key = `login:${email}:${ip}`
		const fail = async () => {
			onFailure(ip, false)
			await limiter.hit(key, config.loginRateLimit, config.loginRateWindow)
		}
		return inTurn(key, async () => {
			const wait = await limiter.blocked(key, config.loginRateLimit, config.loginRateWindow)
			if (wait) {
				onFailure(ip, true)
				throw throttled(wait)
			}
			return attempt(email, fail)
		})
	}
}

export function createCredentialCheck(
	db: Database,
	hasher: PasswordHasher,
	gate: LoginGate,
): CredentialCheck {
	const check = async (email: string, password: string, fail: () => Promise<void>): Promise<CheckedUser> => {
		const [user] = await db
			.select({
				id: userProfile.id,
				email: userProfile.email,
				hash: userProfile.passwordHash,
				active: userProfile.active,
				isOwner: userProfile.isOwner,
				allowsWork: statusOnWork.allowsWork,
				mainServerId: userProfile.mainServerId,
			})
			.from(userProfile)
			.innerJoin(statusOnWork, eq(statusOnWork.id, userProfile.statusId))
			.where(eq(userProfile.email, email))
		const matches = await hasher.verify(password, user?.hash ?? DUMMY_HASH)
		if (!user || !matches || !user.active || user.mainServerId !== null) {
			await fail()
			throw unauthorized(MESSAGES.badCredentials, 'no_active_account')
		}
		if (!user.isOwner && !user.allowsWork) throw statusNotAllowed()
		if (hasher.needsRehash(user.hash)) {
			await db
				.update(userProfile)
				.set({ passwordHash: await hasher.hash(password) })
				.where(eq(userProfile.id, user.id))
		}
		return { id: user.id, email: user.email }
	}
	return (rawEmail, password, ip) => gate(rawEmail, ip, (email, fail) => check(email, password, fail))
}
