import { sql } from 'drizzle-orm'
import {
	type AnySQLiteColumn,
	index,
	integer,
	primaryKey,
	sqliteTable,
	text,
	uniqueIndex,
} from 'drizzle-orm/sqlite-core'

/**
 * The one place that says what is stored. Times are Unix milliseconds (integers); booleans are
 * SQLite integers through drizzle's `mode: 'boolean'`. No column holds a credential a client could
 * present (docs/rest.md#secrets-at-rest): what must be looked up (session ids, reset and invite
 * tokens, API keys, refresh tokens' ids and families) is stored as its SHA-256; what the server must
 * read back (a session's tokens) is sealed under a key derived from the session's cookie.
 */

const now = sql`(cast(unixepoch('subsec') * 1000 as integer))`

export const statusOnWork = sqliteTable('status_on_work', {
	id: integer('id').primaryKey({ autoIncrement: true }),
	code: text('code').notNull().unique(),
	name: text('name').notNull(),
	allowsWork: integer('allows_work', { mode: 'boolean' }).notNull(),
})

export const company = sqliteTable(
	'company',
	{
		id: integer('id').primaryKey({ autoIncrement: true }),
		name: text('name').notNull(),
		ownerId: integer('owner_id').references((): AnySQLiteColumn => userProfile.id, { onDelete: 'set null' }),
		active: integer('active', { mode: 'boolean' }).notNull().default(true),
		/** Family B: the id of this company on the main server (one local company per main company). */
		mainServerId: integer('main_server_id'),
		createdAt: integer('created_at').notNull().default(now),
	},
	(t) => [uniqueIndex('company_main_server_id_unique').on(t.mainServerId)],
)

export const userProfile = sqliteTable(
	'user_profile',
	{
		id: integer('id').primaryKey({ autoIncrement: true }),
		/** Stored lower-cased: one account per address whatever its case. */
		email: text('email').notNull(),
		passwordHash: text('password_hash').notNull(),
		firstName: text('first_name').notNull().default(''),
		lastName: text('last_name').notNull().default(''),
		statusId: integer('status_id')
			.notNull()
			.references(() => statusOnWork.id),
		companyId: integer('company_id').references((): AnySQLiteColumn => company.id, { onDelete: 'set null' }),
		isOwner: integer('is_owner', { mode: 'boolean' }).notNull().default(false),
		active: integer('active', { mode: 'boolean' }).notNull().default(true),
		/** Family B: the id of this user on the main server. */
		mainServerId: integer('main_server_id'),
		createdAt: integer('created_at').notNull().default(now),
		updatedAt: integer('updated_at').notNull().default(now),
	},
	(t) => [
		uniqueIndex('user_profile_email_unique').on(t.email),
		// One local account per main-server account, even when two first logins race.
		uniqueIndex('user_profile_main_server_id_unique').on(t.mainServerId),
	],
)

export const invite = sqliteTable(
	'invite',
	{
		id: integer('id').primaryKey({ autoIncrement: true }),
		companyId: integer('company_id')
			.notNull()
			.references(() => company.id, { onDelete: 'cascade' }),
		email: text('email'),
		tokenHash: text('token_hash').notNull(),
		invitedBy: integer('invited_by').references(() => userProfile.id, { onDelete: 'set null' }),
		/** pending | accepted | revoked | expired */
		state: text('state', { enum: ['pending', 'accepted', 'revoked', 'expired'] })
			.notNull()
			.default('pending'),
		acceptedBy: integer('accepted_by').references(() => userProfile.id, { onDelete: 'set null' }),
		expiresAt: integer('expires_at').notNull(),
		createdAt: integer('created_at').notNull().default(now),
	},
	(t) => [uniqueIndex('invite_token_hash_unique').on(t.tokenHash), index('invite_company').on(t.companyId)],
)

/**
 * Owner-only permissions (src/server/auth/permissions.ts) an owner granted a member of the company. Removing
 * the member from the company deletes them.
 */
export const memberGrant = sqliteTable(
	'member_grant',
	{
		userId: integer('user_id')
			.notNull()
			.references(() => userProfile.id, { onDelete: 'cascade' }),
		permission: text('permission').notNull(),
		grantedBy: integer('granted_by').references(() => userProfile.id, { onDelete: 'set null' }),
		createdAt: integer('created_at').notNull().default(now),
	},
	(t) => [primaryKey({ columns: [t.userId, t.permission] })],
)

/**
 * Server-side web sessions. The JWT pair lives here, never in the browser
 * (docs/rest.md#sessions-and-cookies), but sealed: nothing in a row can be presented by a client
 * (docs/rest.md#secrets-at-rest).
 */
export const session = sqliteTable(
	'session',
	{
		/** SHA-256 of the `sessionid` cookie value. */
		idHash: text('id_hash').primaryKey(),
		userId: integer('user_id')
			.notNull()
			.references(() => userProfile.id, { onDelete: 'cascade' }),
		/**
		 * The CSRF token, the JWT pair and family B's main-server pair, sealed (AES-256-GCM) under a key
		 * derived from the cookie value, which is stored nowhere (src/server/auth/session-seal.ts).
		 */
		sealed: text('sealed').notNull(),
		createdAt: integer('created_at').notNull().default(now),
		expiresAt: integer('expires_at').notNull(),
	},
	(t) => [index('session_user').on(t.userId)],
)

/**
 * Refresh tokens (simplejwt's outstanding + blacklisted tokens), grouped in rotation families, known
 * by the SHA-256 of their `jti` and of their family (src/server/auth/families.ts), never by the values the
 * tokens carry.
 */
export const refreshToken = sqliteTable(
	'refresh_token',
	{
		/** SHA-256 of the token's `jti`. */
		jti: text('jti').primaryKey(),
		/** SHA-256 of the family (`fam`) its tokens carry. */
		familyId: text('family_id').notNull(),
		userId: integer('user_id')
			.notNull()
			.references(() => userProfile.id, { onDelete: 'cascade' }),
		/** active | rotated (used once, replaced) | blacklisted (logout) | revoked (reuse, reset) */
		state: text('state', { enum: ['active', 'rotated', 'blacklisted', 'revoked'] })
			.notNull()
			.default('active'),
		expiresAt: integer('expires_at').notNull(),
		createdAt: integer('created_at').notNull().default(now),
	},
	(t) => [index('refresh_token_family').on(t.familyId), index('refresh_token_user').on(t.userId)],
)

export const resetToken = sqliteTable(
	'reset_token',
	{
		id: integer('id').primaryKey({ autoIncrement: true }),
		userId: integer('user_id')
			.notNull()
			.references(() => userProfile.id, { onDelete: 'cascade' }),
		tokenHash: text('token_hash').notNull(),
		expiresAt: integer('expires_at').notNull(),
		usedAt: integer('used_at'),
		createdAt: integer('created_at').notNull().default(now),
	},
	(t) => [uniqueIndex('reset_token_hash_unique').on(t.tokenHash), index('reset_token_user').on(t.userId)],
)

/** Fixed-window counters: one row per key (`login:<email>:<ip>`, `reset-ip:<ip>`, ...). */
export const rateLimit = sqliteTable(
	'rate_limit',
	{
		key: text('key').primaryKey(),
		count: integer('count').notNull(),
		windowStart: integer('window_start').notNull(),
	},
	// The periodic sweep deletes by window_start.
	(t) => [index('rate_limit_window_start').on(t.windowStart)],
)

/** One Telegram account run by the service. Deleted userbots keep their row (audit): `deletedAt`. */
export const userbot = sqliteTable(
	'userbot',
	{
		id: integer('id').primaryKey({ autoIncrement: true }),
		companyId: integer('company_id')
			.notNull()
			.references(() => company.id, { onDelete: 'cascade' }),
		name: text('name').notNull().default(''),
		phoneNumber: text('phone_number'),
		/** TDLib's type name of the last authorization state seen. */
		authorizationState: text('authorization_state')
			.notNull()
			.default('authorizationStateWaitTdlibParameters'),
		/** The TDLib database key, encrypted with the server's data key (AES-GCM), base64. */
		encryptionKey: text('encryption_key').notNull(),
		/** The account's health (docs/flood-and-health.md): `active`, `cooling_down`, `revoked`... */
		status: text('status').notNull().default('active'),
		/** `cooling_down`: when it ends, Unix seconds. */
		statusUntil: integer('status_until'),
		/**
		 * Its proxy (docs/operator.md#userbot-proxies), JSON of what may be shown (type, server, port, user
		 * name); the password or MTProto secret beside it in `proxySecret`, sealed as `encryptionKey`.
		 */
		proxy: text('proxy'),
		proxySecret: text('proxy_secret'),
		/** The proxy's last health check (`pingProxy`), JSON: ok and latency, or TDLib's error. */
		proxyCheck: text('proxy_check'),
		createdBy: integer('created_by').references(() => userProfile.id, { onDelete: 'set null' }),
		createdAt: integer('created_at').notNull().default(now),
		deletedAt: integer('deleted_at'),
		deletedBy: integer('deleted_by').references(() => userProfile.id, { onDelete: 'set null' }),
	},
	(t) => [index('userbot_company').on(t.companyId)],
)

/**
 * API keys of a company (docs/operator.md): made by its owner, acting as that owner narrowed by
 * `scopes` (JSON, src/server/auth/key-scopes.ts). Only the SHA-256 of the key is stored; `prefix` is its
 * first characters, to tell keys apart in a list. A revoked key keeps its row (the audit log names it).
 */
export const apiKey = sqliteTable(
	'api_key',
	{
		id: integer('id').primaryKey({ autoIncrement: true }),
		companyId: integer('company_id')
			.notNull()
			.references(() => company.id, { onDelete: 'cascade' }),
		/** The owner who made it: the key acts as this user, and dies when they stop being the owner. */
		userId: integer('user_id')
			.notNull()
			.references(() => userProfile.id, { onDelete: 'cascade' }),
		name: text('name').notNull(),
		keyHash: text('key_hash').notNull(),
		prefix: text('prefix').notNull(),
		scopes: text('scopes').notNull(),
		expiresAt: integer('expires_at'),
		/** Written at most once a minute per key and gateway, not on every request. */
		lastUsedAt: integer('last_used_at'),
		createdAt: integer('created_at').notNull().default(now),
		revokedAt: integer('revoked_at'),
		/**
		 * A Bot API token (docs/bot-api.md): the Telegram user id of its one userbot's account, the
		 * token's first part (`<bot_user_id>:<key>`); null for a plain key.
		 */
		botUserId: integer('bot_user_id'),
	},
	(t) => [uniqueIndex('api_key_hash_unique').on(t.keyHash), index('api_key_company').on(t.companyId)],
)

/**
 * What changed an account or a company, for its owner (`GET /api/audit/`): who (a user, or a user
 * through an API key), what (`action`, a fixed word), on what (`target`), from where (`client`), and a
 * small JSON detail that never holds a secret.
 */
export const auditLog = sqliteTable(
	'audit_log',
	{
		id: integer('id').primaryKey({ autoIncrement: true }),
		companyId: integer('company_id').references(() => company.id, { onDelete: 'cascade' }),
		userId: integer('user_id').references(() => userProfile.id, { onDelete: 'set null' }),
		keyId: integer('key_id').references(() => apiKey.id, { onDelete: 'set null' }),
		action: text('action').notNull(),
		target: text('target'),
		detail: text('detail'),
		/** The client's address (after `TRUSTED_PROXIES`) the change came from; null when none did. */
		client: text('client'),
		at: integer('at').notNull().default(now),
	},
	(t) => [index('audit_log_company_at').on(t.companyId, t.at)],
)

/** The work statuses every deployment starts with (docs/rest.md#resources). */
export const SEED_STATUSES = [
	{ code: 'active', name: 'Active', allowsWork: true },
	{ code: 'on_leave', name: 'On Leave', allowsWork: false },
	{ code: 'dismissed', name: 'Dismissed', allowsWork: false },
] as const
