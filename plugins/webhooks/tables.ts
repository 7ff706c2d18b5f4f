import { sql } from 'drizzle-orm'
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { apiKey, company, userProfile } from 'userbot-gateway/plugin'

/**
 * The webhooks' own tables, declared by the plugin (docs/plugins.md#tables). drizzle-kit reads them
 * with the core's (drizzle.config.ts); their migrations are the core's, as they were before they
 * moved here, so the database did not change. Times are Unix milliseconds.
 */

const now = sql`(cast(unixepoch('subsec') * 1000 as integer))`

/**
 * Webhooks (plugins/webhooks): a company's endpoints. The signing secrets are sealed with the data
 * key (AES-GCM, bound to the endpoint id), never stored in clear; a rotated-out secret keeps signing
 * beside the new one until `previousSecretUntil`. `events` and `userbotIds` are JSON arrays
 * (`userbotIds` null: every userbot of the company); `filter` is the endpoint's event filter as its
 * owner wrote it, checked (docs/webhooks.md#filters), JSON, null: none.
 */
export const webhookEndpoint = sqliteTable(
	'webhook_endpoint',
	{
		id: integer('id').primaryKey({ autoIncrement: true }),
		companyId: integer('company_id')
			.notNull()
			.references(() => company.id, { onDelete: 'cascade' }),
		url: text('url').notNull(),
		description: text('description').notNull().default(''),
		events: text('events').notNull(),
		userbotIds: text('userbot_ids'),
		filter: text('filter'),
		secret: text('secret').notNull(),
		previousSecret: text('previous_secret'),
		previousSecretUntil: integer('previous_secret_until'),
		enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
		/** The first failed attempt since the last success; failing long enough disables the endpoint. */
		failingSince: integer('failing_since'),
		disabledAt: integer('disabled_at'),
		createdBy: integer('created_by').references(() => userProfile.id, { onDelete: 'set null' }),
		createdAt: integer('created_at').notNull().default(now),
		updatedAt: integer('updated_at').notNull().default(now),
		/**
		 * Set for the endpoint an API key made for itself (the Bot API face's setWebhook,
		 * key-endpoints.ts): one per key, of the key's one userbot, gone with the key.
		 */
		keyId: integer('key_id').references(() => apiKey.id, { onDelete: 'cascade' }),
		/** That key's own settings of the endpoint (JSON, the face's: `allowed_updates`...). */
		keySettings: text('key_settings'),
	},
	(t) => [index('webhook_endpoint_company').on(t.companyId), uniqueIndex('webhook_endpoint_key').on(t.keyId)],
)

/**
 * The outbox: every event some endpoint wanted, stored before any delivery of it is tried, kept for
 * replay. `dedupeKey` makes one event of several gateways' sightings (the bus) one row.
 */
export const webhookEvent = sqliteTable(
	'webhook_event',
	{
		id: integer('id').primaryKey({ autoIncrement: true }),
		companyId: integer('company_id')
			.notNull()
			.references(() => company.id, { onDelete: 'cascade' }),
		userbotId: integer('userbot_id').notNull(),
		/** The userbot's live-update sequence number this event carries. */
		seq: integer('seq').notNull(),
		type: text('type').notNull(),
		/** `data` of the delivered body, serialized. */
		data: text('data').notNull(),
		dedupeKey: text('dedupe_key').notNull(),
		createdAt: integer('created_at').notNull(),
	},
	(t) => [
		uniqueIndex('webhook_event_dedupe').on(t.dedupeKey),
		index('webhook_event_userbot').on(t.companyId, t.userbotId, t.seq),
	],
)

/**
 * One event on its way to one endpoint: pending until delivered (2xx) or failed (gave up: kept as a
 * dead letter). Per endpoint and userbot only the oldest pending row may be claimed (order); a claim
 * is a lease (`leaseOwner` until `leaseUntil`) so that several gateways on one database never send
 * one row at once and a crashed one's rows come back.
 */
export const webhookDelivery = sqliteTable(
	'webhook_delivery',
	{
		id: integer('id').primaryKey({ autoIncrement: true }),
		endpointId: integer('endpoint_id')
			.notNull()
			.references(() => webhookEndpoint.id, { onDelete: 'cascade' }),
		eventId: integer('event_id')
			.notNull()
			.references(() => webhookEvent.id, { onDelete: 'cascade' }),
		userbotId: integer('userbot_id').notNull(),
		/** The `webhook-id` header: the same for every attempt (the receiver's idempotency key). */
		messageId: text('message_id').notNull(),
		status: text('status', { enum: ['pending', 'delivered', 'failed'] })
			.notNull()
			.default('pending'),
		attempts: integer('attempts').notNull().default(0),
		nextAt: integer('next_at').notNull(),
		leaseOwner: text('lease_owner'),
		leaseUntil: integer('lease_until'),
		firstAttemptAt: integer('first_attempt_at'),
		lastAt: integer('last_at'),
		lastCode: integer('last_code'),
		/** At most 1 KiB of the last response's body, or what went wrong (`timeout`, `refused`...). */
		lastBody: text('last_body'),
		lastError: text('last_error'),
		createdAt: integer('created_at').notNull(),
	},
	(t) => [
		// The listing's, newest first per endpoint; no status in it, so an outcome moves no entry.
		index('webhook_delivery_endpoint').on(t.endpointId, t.id),
		// The claims' own: the pending rows alone, by pair and order (the delivered ones, kept for
		// the listing and replays, grow without end and must not slow a claim down).
		index('webhook_delivery_pending').on(t.endpointId, t.userbotId, t.id).where(sql`status = 'pending'`),
	],
)
