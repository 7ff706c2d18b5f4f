import { eq, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { session } from '../../../db/schema'
import type { AuthCache, SessionEntry } from './cache'
import type { Executor } from './db-types'
import type { TokenPair } from './families'
import { openSealedSession, type SessionSecrets, sealSession } from './session-seal'
import { readClaims } from './tokens'

/** A session as memory keeps it, from its row's secrets and its access token's claims. */
export function toEntry(
	hash: string,
	userId: number,
	csrfToken: string,
	pair: Pick<TokenPair, 'access' | 'refresh'>,
	expiresAt: number,
): SessionEntry {
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

/**
 * The session table: each row found by the SHA-256 of its cookie value, its secrets sealed under
 * a key derived from that value (src/server/auth/session-seal.ts).
 */
export function createSessionRows(db: Database, cache: AuthCache) {
	const byHash = db
		.select()
		.from(session)
		.where(eq(session.idHash, sql.placeholder('hash')))
		.prepare()
	return {
		/** The row's secrets, or null when it is not there or does not open with this cookie value. */
		async open(id: string, hash: string) {
			const [row] = await byHash.execute({ hash })
			if (!row) return null
			const secrets = openSealedSession(id, hash, row.userId, row.sealed)
			return secrets ? { row, secrets } : null
		},

		/** Forgotten from memory and deleted. */
		async end(hash: string) {
			cache.dropSession(hash)
			await db.delete(session).where(eq(session.idHash, hash))
		},

		async insert(
			tx: Executor,
			row: { id: string; hash: string; userId: number; secrets: SessionSecrets; expiresAt: number },
		) {
			await tx.insert(session).values({
				idHash: row.hash,
				userId: row.userId,
				sealed: sealSession(row.id, row.hash, row.userId, row.secrets),
				expiresAt: row.expiresAt,
			})
		},

		/**
		 * The row takes a rotation's new pair, in the rotation's transaction; the main server's pair
		 * (family B) is read again there and sealed with it. A row gone (logged out meanwhile) is left gone.
		 */
		async reseal(tx: Executor, id: string, entry: SessionEntry, next: Pick<TokenPair, 'access' | 'refresh'>) {
			const [row] = await tx
				.select({ sealed: session.sealed })
				.from(session)
				.where(eq(session.idHash, entry.hash))
			const current = row && openSealedSession(id, entry.hash, entry.userId, row.sealed)
			if (!current) return
			const secrets: SessionSecrets = { ...current, access: next.access, refresh: next.refresh }
			await tx
				.update(session)
				.set({ sealed: sealSession(id, entry.hash, entry.userId, secrets) })
				.where(eq(session.idHash, entry.hash))
		},

		async destroyUser(userId: number, tx: Executor = db) {
			await tx.delete(session).where(eq(session.userId, userId))
		},
	}
}

export type SessionRows = ReturnType<typeof createSessionRows>
