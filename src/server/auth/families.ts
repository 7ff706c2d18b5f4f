import type { Database } from '../../../db/client'
import type { Config } from '../config'
import type { AuthCache } from './cache'
import { randomToken } from './crypto'
import type { Executor } from './db-types'
import { createRefreshRows } from './refresh-rows'
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

/** A new pair of `family`; the refresh token lives until `until` (Unix ms) or REFRESH_TOKEN_LIFETIME. */
function signPair(signer: TokenSigner, config: Config, userId: number, family: string, until?: number) {
	const now = Date.now()
	const access = signer.sign('access', userId, family, config.accessTokenLifetime, now)
	// Rounded up to the second, so the refresh token never dies before what it was issued for.
	const lifetime =
		until === undefined
			? config.refreshTokenLifetime
			: Math.max(1, Math.ceil(until / 1000) - Math.floor(now / 1000))
	const refresh = signer.sign('refresh', userId, family, lifetime, now)
	const pair: TokenPair = {
		access: access.token,
		refresh: refresh.token,
		accessExpiresAt: access.claims.exp * 1000,
		family,
		userId,
	}
	return { pair, refresh: refresh.claims }
}

export function createFamilies(
	db: Database,
	config: Config,
	signer: TokenSigner,
	cache: AuthCache,
): Families {
	const rows = createRefreshRows(db)
	const remember = (pair: TokenPair, stamp: number) => cache.putFamily(pair.family, true, pair.userId, stamp)

	const insertPair = async (
		userId: number,
		tx: Executor,
		family: string,
		until?: number,
	): Promise<TokenPair> => {
		const { pair, refresh } = signPair(signer, config, userId, family, until)
		await rows.insert(tx, { jti: refresh.jti, family, userId, expiresAt: refresh.exp * 1000 })
		return pair
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
		await rows.revokeFamily(family)
		cache.dropFamily(family)
	}

	const rotate: Families['rotate'] = async (token, along, until) => {
		const claims = signer.verify(token, 'refresh')
		if (!claims) return null
		const stamp = cache.stamp()
		const pair = await db.transaction(async (tx) => {
			const userId = await rows.rotate(tx, claims.jti, claims.fam)
			if (userId === null) return null
			const next = await insertPair(userId, tx, claims.fam, until)
			if (along) await along(next, tx)
			return next
		})
		if (pair) {
			remember(pair, stamp)
			return pair
		}
		// Not live: unknown (nothing to do) or presented again after rotation or blacklisting.
		if (await rows.issuedIn(claims.jti, claims.fam)) await revokeFamily(claims.fam)
		return null
	}

	return {
		issue,
		remember,
		revokeFamily,
		rotate,
		async blacklist(token) {
			const claims = signer.verify(token, 'refresh')
			if (!claims || !(await rows.blacklist(claims.jti, claims.fam))) return false
			cache.dropFamily(claims.fam)
			return true
		},
		revokeUser: (userId, tx) => rows.revokeUser(userId, tx),
		async isAlive(family, userId) {
			const known = cache.families.get(family)
			if (known) return known.alive
			const stamp = cache.stamp()
			const alive = await rows.live(family)
			cache.putFamily(family, alive, userId, stamp)
			return alive
		},
	}
}
