import { and, eq, gt, inArray, sql } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { refreshToken } from '../../db/schema'
import type { Config } from '../config'
import type { AuthCache } from './cache'
import { randomToken, sha256 } from './crypto'
import type { Executor } from './db-types'
import type { TokenSigner } from './tokens'

/**
 * Refresh-token families (simplejwt's rotation + blacklist apps): every pair issued by a refresh
 * descends from one login. A dead refresh presented again revokes the whole family, and with it
 * the family's access tokens, which bearer checks look up here.
 *
 * The table keeps the SHA-256 of each token's `jti` and of its family, never the values the tokens
 * carry (docs/rest.md#secrets-at-rest): with a copy of the database and the signing key (which a
 * backup holds beside it), a live jti and family are all it takes to sign a token we would accept;
 * their hashes are not. Lookups hash what the verified token says; the cache knows families by the
 * token's value.
 */
export interface TokenPair {
	access: string
	refresh: string
	/** Unix ms. */
	accessExpiresAt: number
	family: string
	userId: number
}

export interface Families {
	/**
	 * A new pair, its refresh token stored. Inside a caller's `tx` the family is not marked alive in
	 * the cache (the write may yet roll back): the caller calls `remember` once `tx` committed.
	 * `until` (Unix ms) replaces REFRESH_TOKEN_LIFETIME: a session's tokens live as long as it does.
	 */
	issue(userId: number, tx?: Executor, family?: string, until?: number): Promise<TokenPair>
	/** Marks a committed pair's family alive in the cache; `stamp` taken before its write began. */
	remember(pair: TokenPair, stamp: number): void
	/**
	 * A new pair for a live refresh token; null when it is invalid, or dead (then the family dies).
	 * `along` runs in the rotation's transaction: when it throws, the rotation rolls back and the
	 * presented refresh token stays live. `until` as for `issue`.
	 */
	rotate(
		refresh: string,
		along?: (pair: TokenPair, tx: Executor) => Promise<void>,
		until?: number,
	): Promise<TokenPair | null>
	/** Marks a live refresh token blacklisted; false when it was not live. */
	blacklist(refresh: string): Promise<boolean>
	revokeFamily(family: string): Promise<void>
	/** Revokes every family of the user; the caller drops the user's cache entries. */
	revokeUser(userId: number, tx?: Executor): Promise<void>
	isAlive(family: string, userId: number): Promise<boolean>
}

export function createFamilies(
	db: Database,
	config: Config,
	signer: TokenSigner,
	cache: AuthCache,
): Families {
	const liveRow = db
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

	const remember = (pair: TokenPair, stamp: number) => cache.putFamily(pair.family, true, pair.userId, stamp)

	const insertPair = async (
		userId: number,
		tx: Executor,
		family: string,
		until?: number,
	): Promise<TokenPair> => {
		const now = Date.now()
		const access = signer.sign('access', userId, family, config.accessTokenLifetime, now)
		// Rounded up to the second, so the refresh token never dies before what it was issued for.
		const lifetime =
			until === undefined
				? config.refreshTokenLifetime
				: Math.max(1, Math.ceil(until / 1000) - Math.floor(now / 1000))
		const refresh = signer.sign('refresh', userId, family, lifetime, now)
		await tx.insert(refreshToken).values({
			jti: sha256(refresh.claims.jti),
			familyId: sha256(family),
			userId,
			state: 'active',
			expiresAt: refresh.claims.exp * 1000,
		})
		return {
			access: access.token,
			refresh: refresh.token,
			accessExpiresAt: access.claims.exp * 1000,
			family,
			userId,
		}
	}

	const issue = async (
		userId: number,
		tx?: Executor,
		family = randomToken(16),
		until?: number,
	): Promise<TokenPair> => {
		const stamp = cache.stamp()
		const pair = await insertPair(userId, tx ?? db, family, until)
		if (!tx) remember(pair, stamp)
		return pair
	}

	const revokeFamily = async (family: string) => {
		await db
			.update(refreshToken)
			.set({ state: 'revoked' })
			.where(
				and(eq(refreshToken.familyId, sha256(family)), inArray(refreshToken.state, ['active', 'rotated'])),
			)
		cache.dropFamily(family)
	}

	return {
		issue,
		remember,
		revokeFamily,
		async rotate(token, along, until) {
			const claims = signer.verify(token, 'refresh')
			if (!claims) return null
			const stamp = cache.stamp()
			const jti = sha256(claims.jti)
			const pair = await db.transaction(async (tx) => {
				const used = await tx
					.update(refreshToken)
					.set({ state: 'rotated' })
					.where(
						and(
							eq(refreshToken.jti, jti),
							eq(refreshToken.familyId, sha256(claims.fam)),
							eq(refreshToken.state, 'active'),
						),
					)
					.returning({ userId: refreshToken.userId })
				const row = used[0]
				if (!row) return null
				const next = await insertPair(row.userId, tx, claims.fam, until)
				if (along) await along(next, tx)
				return next
			})
			if (pair) {
				remember(pair, stamp)
				return pair
			}
			// Not live: unknown (nothing to do) or presented again after rotation or blacklisting.
			const [row] = await db.select().from(refreshToken).where(eq(refreshToken.jti, jti))
			if (row?.familyId === sha256(claims.fam)) await revokeFamily(claims.fam)
			return null
		},
		async blacklist(token) {
			const claims = signer.verify(token, 'refresh')
			if (!claims) return false
			const done = await db
				.update(refreshToken)
				.set({ state: 'blacklisted' })
				.where(
					and(
						eq(refreshToken.jti, sha256(claims.jti)),
						eq(refreshToken.familyId, sha256(claims.fam)),
						eq(refreshToken.state, 'active'),
					),
				)
				.returning({ jti: refreshToken.jti })
			if (done.length === 0) return false
			cache.dropFamily(claims.fam)
			return true
		},
		async revokeUser(userId, tx = db) {
			await tx
				.update(refreshToken)
				.set({ state: 'revoked' })
				.where(and(eq(refreshToken.userId, userId), inArray(refreshToken.state, ['active', 'rotated'])))
		},
		async isAlive(family, userId) {
			const known = cache.families.get(family)
			if (known) return known.alive
			const stamp = cache.stamp()
			const rows = await liveRow.execute({ family: sha256(family), now: Date.now() })
			const alive = rows.length > 0
			cache.putFamily(family, alive, userId, stamp)
			return alive
		},
	}
}
