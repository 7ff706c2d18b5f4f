import { eq, sql } from 'drizzle-orm'
import type { Database } from '../../db/client'
import { session } from '../../db/schema'
import type { Config } from '../config'
import type { AuthCache, SessionEntry } from './cache'
import { randomToken, sha256 } from './crypto'
import type { Executor } from './db-types'
import type { Families, TokenPair } from './families'
import { openSealedSession, type SessionSecrets, sealSession } from './session-seal'
import { readClaims } from './tokens'

/**
 * Server-side web sessions (docs/rest.md#sessions-and-cookies): the cookie carries 32 random bytes, the table
 * their SHA-256 and, sealed under a key derived from the cookie (src/auth/session-seal.ts), the CSRF token
 * and the JWT pair: a row opens only for a request that carries its cookie. An expired access token is rotated from the stored refresh
 * token without the client noticing; concurrent requests of one session share one rotation. A session whose
 * token family was revoked (reset, a stolen refresh token presented twice) ends at its next request, whatever
 * its access token's remaining lifetime.
 *
 * A session lives SESSION_LIFETIME from its login (absolute, as its cookie's Max-Age says), so the
 * refresh tokens of its family are issued to expire with it rather than after
 * REFRESH_TOKEN_LIFETIME: otherwise a session left idle longer than that would die with its last
 * refresh token. Revocation (reuse, logout, reset) still ends the family at once.
 */
export interface CreatedSession {
	id: string
	csrfToken: string
	entry: SessionEntry
}

/** Family B: the main server's pair, kept in the session row only (never sent to the client). */
export interface MainTokens {
	access: string
	refresh: string
}

export interface Sessions {
	create(userId: number, main?: MainTokens): Promise<CreatedSession>
	/** The live session of a cookie value (access token fresh), or null. */
	resolve(id: string): Promise<SessionEntry | null>
	/**
	 * The hot path: the session when memory alone can vouch for it (cached, unexpired, access token
	 * fresh, family known alive), else undefined and the caller goes through `resolve`.
	 */
	peek(id: string): SessionEntry | undefined
	destroy(id: string): Promise<SessionEntry | null>
	/** Family B: the main server's refresh token kept in the session of this cookie value, or null. */
	mainRefresh(id: string): Promise<string | null>
	destroyUser(userId: number, tx?: Executor): Promise<void>
}

export function createSessions(db: Database, config: Config, families: Families, cache: AuthCache): Sessions {
	const byHash = db
		.select()
		.from(session)
		.where(eq(session.idHash, sql.placeholder('hash')))
		.prepare()
	const refreshing = new Map<string, Promise<SessionEntry | null>>()

	const toEntry = (
		hash: string,
		userId: number,
		csrfToken: string,
		pair: Pick<TokenPair, 'access' | 'refresh'>,
		expiresAt: number,
	) => {
		const claims = readClaims(pair.access)
		return {
			hash,
			userId,
			csrfToken,
			accessToken: pair.access,
			refreshToken: pair.refresh,
			accessExpiresAt: claims ? claims.exp * 1000 : 0,
			expiresAt,
			family: claims?.fam ?? '',
		}
	}

	const end = async (hash: string) => {
		cache.dropSession(hash)
		await db.delete(session).where(eq(session.idHash, hash))
	}

	/** The row's secrets, or null when it is not there or does not open with this cookie value. */
	const open = async (id: string, hash: string) => {
		const [row] = await byHash.execute({ hash })
		if (!row) return null
		const secrets = openSealedSession(id, hash, row.userId, row.sealed)
		return secrets ? { row, secrets } : null
	}

	const refresh = async (id: string, entry: SessionEntry): Promise<SessionEntry | null> => {
		const stamp = cache.stamp()
		// The row takes the new pair in the rotation's transaction: if its update fails, the rotation
		// rolls back and the stored refresh token stays the live one (no self-inflicted reuse). The
		// main server's pair (family B) is read again there and sealed with it.
		const pair = await families.rotate(
			entry.refreshToken,
			async (next, tx) => {
				const [row] = await tx
					.select({ sealed: session.sealed })
					.from(session)
					.where(eq(session.idHash, entry.hash))
				// Gone (logged out meanwhile): nothing to update, as before sealing.
				const current = row && openSealedSession(id, entry.hash, entry.userId, row.sealed)
				if (!current) return
				const secrets: SessionSecrets = { ...current, access: next.access, refresh: next.refresh }
				await tx
					.update(session)
					.set({ sealed: sealSession(id, entry.hash, entry.userId, secrets) })
					.where(eq(session.idHash, entry.hash))
			},
			entry.expiresAt,
		)
		if (!pair) {
			await end(entry.hash)
			return null
		}
		const next = toEntry(entry.hash, entry.userId, entry.csrfToken, pair, entry.expiresAt)
		cache.putSession(next, stamp)
		return next
	}

	const load = async (id: string, hash: string): Promise<SessionEntry | null> => {
		const stamp = cache.stamp()
		const found = await open(id, hash)
		if (!found) return null
		const { row, secrets } = found
		const entry = toEntry(hash, row.userId, secrets.csrfToken, secrets, row.expiresAt)
		cache.putSession(entry, stamp)
		return entry
	}

	const fresh = (entry: SessionEntry, now: number) =>
		entry.expiresAt > now && entry.accessExpiresAt > now && cache.families.get(entry.family)?.alive === true

	return {
		async create(userId, main) {
			const id = randomToken(32)
			const csrfToken = randomToken(32)
			const hash = sha256(id)
			const expiresAt = Date.now() + config.sessionLifetime * 1000
			const stamp = cache.stamp()
			// One transaction: a failed session insert leaves no live refresh token behind.
			const pair = await db.transaction(async (tx) => {
				const issued = await families.issue(userId, tx, undefined, expiresAt)
				const secrets: SessionSecrets = {
					csrfToken,
					access: issued.access,
					refresh: issued.refresh,
					...(main ? { mainAccess: main.access, mainRefresh: main.refresh } : {}),
				}
				await tx.insert(session).values({
					idHash: hash,
					userId,
					sealed: sealSession(id, hash, userId, secrets),
					expiresAt,
				})
				return issued
			})
			families.remember(pair, stamp)
			const entry = toEntry(hash, userId, csrfToken, pair, expiresAt)
			cache.putSession(entry, stamp)
			return { id, csrfToken, entry }
		},
		peek(id) {
			if (id.length > 256) return undefined
			const entry = cache.sessions.get(sha256(id))
			return entry && fresh(entry, Date.now()) ? entry : undefined
		},
		async resolve(id) {
			if (id.length > 256) return null
			const hash = sha256(id)
			const entry = cache.sessions.get(hash) ?? (await load(id, hash))
			if (!entry) return null
			const now = Date.now()
			if (entry.expiresAt <= now || !(await families.isAlive(entry.family, entry.userId))) {
				await end(hash)
				return null
			}
			if (entry.accessExpiresAt > now) return entry
			let pending = refreshing.get(hash)
			if (!pending) {
				pending = refresh(id, entry).finally(() => refreshing.delete(hash))
				refreshing.set(hash, pending)
			}
			return pending
		},
		async destroy(id) {
			const hash = sha256(id)
			const entry = cache.sessions.get(hash) ?? (await load(id, hash))
			await end(hash)
			if (entry) await families.blacklist(entry.refreshToken)
			return entry
		},
		async mainRefresh(id) {
			if (id.length > 256) return null
			return (await open(id, sha256(id)))?.secrets.mainRefresh ?? null
		},
		async destroyUser(userId, tx = db) {
			await tx.delete(session).where(eq(session.userId, userId))
		},
	}
}
