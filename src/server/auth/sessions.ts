import type { Database } from '../../../db/client'
import type { Config } from '../config'
import type { AuthCache, SessionEntry } from './cache'
import { randomToken, sha256 } from './crypto'
import type { Executor } from './db-types'
import type { Families } from './families'
import { createSessionRows, type SessionRows, toEntry } from './session-rows'
import type { SessionSecrets } from './session-seal'

/**
 * Server-side web sessions (docs/rest.md#sessions-and-cookies): the cookie carries 32 random bytes, the table
 * their SHA-256 and, sealed under a key derived from the cookie (src/server/auth/session-seal.ts), the CSRF token
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

/** Memory alone vouches for a session: unexpired, its access token fresh, its family known alive. */
const fresh = (cache: AuthCache, entry: SessionEntry, now: number) =>
	entry.expiresAt > now && entry.accessExpiresAt > now && cache.families.get(entry.family)?.alive === true

interface Parts {
	db: Database
	config: Config
	families: Families
	cache: AuthCache
	rows: SessionRows
}

/** A new session and its token family, in one transaction: a failed insert leaves no live refresh token behind. */
async function createSession(
	{ db, config, families, cache, rows }: Parts,
	userId: number,
	main?: MainTokens,
) {
	const id = randomToken(32)
	const csrfToken = randomToken(32)
	const hash = sha256(id)
	const expiresAt = Date.now() + config.sessionLifetime * 1000
	const stamp = cache.stamp()
	const pair = await db.transaction(async (tx) => {
		const issued = await families.issue(userId, tx, undefined, expiresAt)
		const secrets: SessionSecrets = {
			csrfToken,
			access: issued.access,
			refresh: issued.refresh,
			...(main ? { mainAccess: main.access, mainRefresh: main.refresh } : {}),
		}
		await rows.insert(tx, { id, hash, userId, secrets, expiresAt })
		return issued
	})
	families.remember(pair, stamp)
	const entry = toEntry(hash, userId, csrfToken, pair, expiresAt)
	cache.putSession(entry, stamp)
	return { id, csrfToken, entry }
}

/**
 * The session's access token rotated from its refresh token. The row takes the new pair in the
 * rotation's transaction: if its update fails, the rotation rolls back and the stored refresh
 * token stays the live one (no self-inflicted reuse). A rotation refused ends the session.
 */
async function rotate({ families, cache, rows }: Parts, id: string, entry: SessionEntry) {
	const stamp = cache.stamp()
	const pair = await families.rotate(
		entry.refreshToken,
		(next, tx) => rows.reseal(tx, id, entry, next),
		entry.expiresAt,
	)
	if (!pair) {
		await rows.end(entry.hash)
		return null
	}
	const next = toEntry(entry.hash, entry.userId, entry.csrfToken, pair, entry.expiresAt)
	cache.putSession(next, stamp)
	return next
}

/** The session of a cookie value read from its row into memory, or null. */
async function load({ cache, rows }: Parts, id: string, hash: string): Promise<SessionEntry | null> {
	const stamp = cache.stamp()
	const found = await rows.open(id, hash)
	if (!found) return null
	const { row, secrets } = found
	const entry = toEntry(hash, row.userId, secrets.csrfToken, secrets, row.expiresAt)
	cache.putSession(entry, stamp)
	return entry
}

export function createSessions(db: Database, config: Config, families: Families, cache: AuthCache): Sessions {
	const rows = createSessionRows(db, cache)
	const parts: Parts = { db, config, families, cache, rows }
	/** Concurrent requests of one session share one rotation. */
	const refreshing = new Map<string, Promise<SessionEntry | null>>()
	const known = async (id: string, hash: string) => cache.sessions.get(hash) ?? (await load(parts, id, hash))

	return {
		create: (userId, main) => createSession(parts, userId, main),
		peek(id) {
			if (id.length > 256) return undefined
			const entry = cache.sessions.get(sha256(id))
			return entry && fresh(cache, entry, Date.now()) ? entry : undefined
		},
		async resolve(id) {
			if (id.length > 256) return null
			const hash = sha256(id)
			const entry = await known(id, hash)
			if (!entry) return null
			const now = Date.now()
			if (entry.expiresAt <= now || !(await families.isAlive(entry.family, entry.userId))) {
				await rows.end(hash)
				return null
			}
			if (entry.accessExpiresAt > now) return entry
			let pending = refreshing.get(hash)
			if (!pending) {
				pending = rotate(parts, id, entry).finally(() => refreshing.delete(hash))
				refreshing.set(hash, pending)
			}
			return pending
		},
		async destroy(id) {
			const hash = sha256(id)
			const entry = await known(id, hash)
			await rows.end(hash)
			if (entry) await families.blacklist(entry.refreshToken)
			return entry
		},
		async mainRefresh(id) {
			if (id.length > 256) return null
			return (await rows.open(id, sha256(id)))?.secrets.mainRefresh ?? null
		},
		destroyUser: (userId, tx?: Executor) => rows.destroyUser(userId, tx),
	}
}
