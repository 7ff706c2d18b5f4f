import { and, eq, gt, inArray, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { refreshToken } from '../../../db/schema'
import { sha256 } from './crypto'
import type { Executor } from './db-types'

/** A live, unexpired token of a family (`family`: its hash; `now`: Unix ms), prepared once. */
const liveRowOf = (db: Database) =>
	db
		.select({ jti: refreshToken.jti })
		.from(refreshToken)
		.where(
			and(
				eq(refreshToken.familyId, sql.placeholder('family')),
				eq(refreshToken.state, 'active'),
				gt(refreshToken.expiresAt, sql.placeholder('now')),
			),
		)
		.limit(1)
		.prepare()

/**
 * The refresh-token table, by the SHA-256 of each token's `jti` and of its family: every value
 * given here is the token's own, hashed here (docs/rest.md#secrets-at-rest).
 */
export function createRefreshRows(db: Database) {
	const liveRow = liveRowOf(db)
	/** The live token `jti` of `family`. */
	const active = (jti: string, family: string) =>
		and(
			eq(refreshToken.jti, sha256(jti)),
			eq(refreshToken.familyId, sha256(family)),
			eq(refreshToken.state, 'active'),
		)

	return {
		async insert(tx: Executor, t: { jti: string; family: string; userId: number; expiresAt: number }) {
			await tx.insert(refreshToken).values({
				jti: sha256(t.jti),
				familyId: sha256(t.family),
				userId: t.userId,
				state: 'active',
				expiresAt: t.expiresAt,
			})
		},

		/** The live token marked rotated; its user, or null when it was not live. */
		async rotate(tx: Executor, jti: string, family: string): Promise<number | null> {
			const used = await tx
				.update(refreshToken)
				.set({ state: 'rotated' })
				.where(active(jti, family))
				.returning({ userId: refreshToken.userId })
			return used[0]?.userId ?? null
		},

		/** Whether the token `jti` was ever issued in `family` (a dead one presented again). */
		async issuedIn(jti: string, family: string): Promise<boolean> {
			const [row] = await db
				.select()
				.from(refreshToken)
				.where(eq(refreshToken.jti, sha256(jti)))
			return row?.familyId === sha256(family)
		},

		/** The live token marked blacklisted; false when it was not live. */
		async blacklist(jti: string, family: string): Promise<boolean> {
			const done = await db
				.update(refreshToken)
				.set({ state: 'blacklisted' })
				.where(active(jti, family))
				.returning({ jti: refreshToken.jti })
			return done.length > 0
		},

		async revokeFamily(family: string) {
			await db
				.update(refreshToken)
				.set({ state: 'revoked' })
				.where(
					and(eq(refreshToken.familyId, sha256(family)), inArray(refreshToken.state, ['active', 'rotated'])),
				)
		},

		async revokeUser(userId: number, tx: Executor = db) {
			await tx
				.update(refreshToken)
				.set({ state: 'revoked' })
				.where(and(eq(refreshToken.userId, userId), inArray(refreshToken.state, ['active', 'rotated'])))
		},

		/** Whether `family` has a live, unexpired token. */
		async live(family: string): Promise<boolean> {
			const rows = await liveRow.execute({ family: sha256(family), now: Date.now() })
			return rows.length > 0
		},
	}
}
