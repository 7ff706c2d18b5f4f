import { and, desc, eq, isNull, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { apiKey, company } from '../../../db/schema'
import type { KeyScopes } from '../policy/scopes'
import type { AuthCache } from './cache'
import { randomToken, safeEqual, sha256 } from './crypto'

/**
 * API keys: `ubg_` and 256 random bits (base64url), so that secret scanners can tell one; stored as
 * their SHA-256 only. A key's life is a token family `key:<id>` in the auth cache: revoking drops it,
 * which closes its sockets here and, over the bus, on every gateway (src/runtime/bus/invalidation.ts).
 */
export const KEY_PREFIX = 'ubg_'
const KEY_SHAPE = /^ubg_[A-Za-z0-9_-]{43}$/
/** How often, at most, one gateway writes a key's last use. */
export const LAST_USE_EVERY_MS = 60_000
const CAP = 10_000
/** Live keys a company may hold: a clear refusal past it, not a table without end. */
export const MAX_KEYS_PER_COMPANY = 100

export interface KeyRecord {
	id: number
	companyId: number
	userId: number
	name: string
	prefix: string
	scopes: KeyScopes
	expiresAt: number | null
	lastUsedAt: number | null
	createdAt: number
	revokedAt: number | null
	/** A Bot API token's first part: the Telegram user id of its userbot's account; null for a plain key. */
	botUserId: number | null
}

export interface NewKey {
	companyId: number
	userId: number
	name: string
	scopes: KeyScopes
	expiresAt: number | null
	/** Makes it a Bot API token `<botUserId>:<key>` too (docs/bot-api.md). */
	botUserId?: number | null
}

export interface ApiKeys {
	/** Whether `value` is shaped like a key (it is then never taken for a JWT). */
	looksLikeKey(value: string): boolean
	/** The live key `secret` is, or null (unknown, revoked, expired). Records its use, at most once a minute. */
	resolve(secret: string): Promise<KeyRecord | null>
	/**
	 * As `resolve`, from memory alone: the record when memory vouches for it (known by its hash, its
	 * family alive in the auth cache, not expired), else undefined (ask `resolve`). A revocation drops
	 * the family first, so this never outlives one. Records its use as `resolve` does.
	 */
	resolveNow(secret: string): KeyRecord | undefined
	/** Whether the key is still live (not revoked); expiry is the credential's own. */
	isAlive(keyId: number): Promise<boolean>
	/** The new key, shown this once; null when the company holds MAX_KEYS_PER_COMPANY live keys. */
	create(key: NewKey): Promise<{ record: KeyRecord; secret: string } | null>
	list(companyId: number): Promise<KeyRecord[]>
	/** The company a live key belongs to, or null (for the keys routes' guard, docs/policy.md). */
	located(keyId: number): Promise<{ companyId: number } | null>
	/** Revokes a live key of the company; the record as it was, or null when there was none. */
	revoke(companyId: number, keyId: number): Promise<KeyRecord | null>
}

export const keyFamily = (keyId: number) => `key:${keyId}`

/** Scopes as stored and shown: the wire names of `POST /api/keys/`. */
export function scopesToJson(s: KeyScopes) {
	return {
		userbot_ids: s.userbotIds,
		groups: s.groups,
		commands: s.commands,
		read_only: s.readOnly,
		webhooks: s.webhooks,
		td_invoke: s.tdInvoke,
	}
}

function scopesFromJson(text: string): KeyScopes {
	const raw = JSON.parse(text) as ReturnType<typeof scopesToJson>
	const list = <T>(value: unknown, is: (x: unknown) => x is T): T[] | null =>
		Array.isArray(value) ? value.filter(is) : null
	return {
		userbotIds: list(raw.userbot_ids, (x): x is number => Number.isSafeInteger(x)),
		groups: list(raw.groups, (x): x is string => typeof x === 'string'),
		commands: list(raw.commands, (x): x is string => typeof x === 'string'),
		readOnly: raw.read_only === true,
		webhooks: raw.webhooks === true,
		tdInvoke: raw.td_invoke === true,
	}
}

type Row = typeof apiKey.$inferSelect

function toRecord(row: Row): KeyRecord {
	const { keyHash: _, scopes, ...rest } = row
	return { ...rest, scopes: scopesFromJson(scopes) }
}

/**
 * The key's row, unless its company holds MAX_KEYS_PER_COMPANY live keys: the limit is checked in
 * the insert's own statement, so two creations at once cannot both pass it.
 */
async function insertWithinLimit(db: Database, key: NewKey, secret: string): Promise<Row | undefined> {
	const live = sql`(select count(*) from ${apiKey} where ${apiKey.companyId} = ${key.companyId} and ${apiKey.revokedAt} is null)`
	const [row] = await db
		.insert(apiKey)
		.select(
			db
				.select({
					id: sql<number>`null`.as('id'),
					companyId: company.id,
					userId: sql`${key.userId}`.as('user_id'),
					name: sql`${key.name}`.as('name'),
					keyHash: sql`${sha256(secret)}`.as('key_hash'),
					prefix: sql`${secret.slice(0, KEY_PREFIX.length + 6)}`.as('prefix'),
					scopes: sql`${JSON.stringify(scopesToJson(key.scopes))}`.as('scopes'),
					expiresAt: sql`${key.expiresAt}`.as('expires_at'),
					lastUsedAt: sql`null`.as('last_used_at'),
					createdAt: sql`${Date.now()}`.as('created_at'),
					revokedAt: sql`null`.as('revoked_at'),
					botUserId: sql`${key.botUserId ?? null}`.as('bot_user_id'),
				})
				.from(company)
				.where(and(eq(company.id, key.companyId), sql`${live} < ${MAX_KEYS_PER_COMPANY}`)),
		)
		.returning()
	return row
}

/** Writes a key's last use, at most every LAST_USE_EVERY_MS per key, without waiting for it. */
function lastUseWriter(db: Database, reportError: (err: unknown) => void) {
	const lastWritten = new Map<number, number>()
	return (id: number, now: number) => {
		if (now - (lastWritten.get(id) ?? 0) < LAST_USE_EVERY_MS) return
		if (lastWritten.size >= CAP) lastWritten.clear()
		lastWritten.set(id, now)
		db.update(apiKey).set({ lastUsedAt: now }).where(eq(apiKey.id, id)).then(undefined, reportError)
	}
}

/** A presented key to its record: from memory when known and alive, else from its row (and remembered). */
function keyResolver(
	db: Database,
	cache: AuthCache,
	reportError: (err: unknown) => void,
): Pick<ApiKeys, 'resolveNow' | 'resolve' | 'isAlive'> {
	// What never changes of a key, by hash: a request with a known key reads no row.
	const byHash = new Map<string, KeyRecord & { hash: string }>()
	const touch = lastUseWriter(db, reportError)

	const isAlive = async (keyId: number) => {
		const known = cache.families.get(keyFamily(keyId))
		if (known) return known.alive
		const stamp = cache.stamp()
		const [row] = await db
			.select({ userId: apiKey.userId, revokedAt: apiKey.revokedAt })
			.from(apiKey)
			.where(eq(apiKey.id, keyId))
		const alive = row !== undefined && row.revokedAt === null
		cache.putFamily(keyFamily(keyId), alive, row?.userId ?? 0, stamp)
		return alive
	}

	return {
		resolveNow(secret) {
			if (!KEY_SHAPE.test(secret)) return undefined
			const entry = byHash.get(sha256(secret))
			if (!entry || cache.families.get(keyFamily(entry.id))?.alive !== true) return undefined
			const now = Date.now()
			if (entry.expiresAt !== null && entry.expiresAt <= now) return undefined
			touch(entry.id, now)
			return entry
		},
		async resolve(secret) {
			if (!KEY_SHAPE.test(secret)) return null
			const hash = sha256(secret)
			let entry = byHash.get(hash)
			if (!entry) {
				const [row] = await db.select().from(apiKey).where(eq(apiKey.keyHash, hash))
				if (!row || !safeEqual(row.keyHash, hash)) return null
				entry = { ...toRecord(row), hash }
				if (byHash.size >= CAP) byHash.clear()
				byHash.set(hash, entry)
			}
			const now = Date.now()
			if (entry.expiresAt !== null && entry.expiresAt <= now) return null
			if (!(await isAlive(entry.id))) return null
			touch(entry.id, now)
			return entry
		},
		isAlive,
	}
}

export function createApiKeys(db: Database, cache: AuthCache, reportError: (err: unknown) => void): ApiKeys {
	return {
		looksLikeKey: (value) => value.startsWith(KEY_PREFIX),
		...keyResolver(db, cache, reportError),
		async create(key) {
			const secret = `${KEY_PREFIX}${randomToken(32)}`
			const stamp = cache.stamp()
			const row = await insertWithinLimit(db, key, secret)
			if (!row) return null
			cache.putFamily(keyFamily(row.id), true, row.userId, stamp)
			return { record: toRecord(row), secret }
		},
		async list(companyId) {
			const rows = await db
				.select()
				.from(apiKey)
				.where(and(eq(apiKey.companyId, companyId), isNull(apiKey.revokedAt)))
				.orderBy(desc(apiKey.id))
			return rows.map(toRecord)
		},
		async located(keyId) {
			const [row] = await db
				.select({ companyId: apiKey.companyId })
				.from(apiKey)
				.where(and(eq(apiKey.id, keyId), isNull(apiKey.revokedAt)))
			return row ?? null
		},
		async revoke(companyId, keyId) {
			const [row] = await db
				.update(apiKey)
				.set({ revokedAt: Date.now() })
				.where(and(eq(apiKey.id, keyId), eq(apiKey.companyId, companyId), isNull(apiKey.revokedAt)))
				.returning()
			if (!row) return null
			// After the write: every socket of the key closes now, here and on the other gateways.
			cache.dropFamily(keyFamily(keyId))
			return toRecord(row)
		},
	}
}
