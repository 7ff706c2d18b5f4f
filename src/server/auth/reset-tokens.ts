import { and, eq, gt, isNull } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { resetToken, userProfile } from '../../../db/schema'
import { normalizeEmail } from '../../common/util/text'
import { randomToken, sha256 } from './crypto'
import type { Executor } from './db-types'

/**
 * Password-reset tokens: 256 random bits, stored as SHA-256, single use, expiring after
 * the lifetime its issuer gives (the accounts plugin's RESET_TOKEN_LIFETIME). Issuing one voids the
 * user's older unused tokens.
 */
export interface ResetTokens {
	issue(userId: number, lifetimeSeconds: number): Promise<string>
	/** The token's id and user when `token` is live for `email`, else null. */
	find(email: string, token: string): Promise<{ id: number; userId: number } | null>
	/** Marks it used; false when someone used it first. */
	consume(id: number, tx: Executor): Promise<boolean>
}

export function createResetTokens(db: Database): ResetTokens {
	return {
		async issue(userId, lifetimeSeconds) {
			const token = randomToken(32)
			await db.transaction(async (tx) => {
				await tx.delete(resetToken).where(and(eq(resetToken.userId, userId), isNull(resetToken.usedAt)))
				await tx.insert(resetToken).values({
					userId,
					tokenHash: sha256(token),
					expiresAt: Date.now() + lifetimeSeconds * 1000,
				})
			})
			return token
		},
		async find(email, token) {
			if (!token || token.length > 512) return null
			const [row] = await db
				.select({ id: resetToken.id, userId: resetToken.userId })
				.from(resetToken)
				.innerJoin(userProfile, eq(userProfile.id, resetToken.userId))
				.where(
					and(
						eq(resetToken.tokenHash, sha256(token)),
						eq(userProfile.email, normalizeEmail(email)),
						isNull(resetToken.usedAt),
						gt(resetToken.expiresAt, Date.now()),
					),
				)
			return row ?? null
		},
		async consume(id, tx) {
			const done = await tx
				.update(resetToken)
				.set({ usedAt: Date.now() })
				.where(and(eq(resetToken.id, id), isNull(resetToken.usedAt)))
				.returning({ id: resetToken.id })
			return done.length > 0
		},
	}
}
