import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { apiKey, userbot } from 'userbot-gateway/plugin'

/**
 * The Bot API face's own tables (docs/plugins.md#tables, docs/bot-api.md#updates): what getUpdates
 * hands out survives a restart of the gateway. drizzle-kit reads them with the core's
 * (drizzle.config.ts). Times are Unix milliseconds.
 */

/**
 * Each userbot's updates as Bot API `Update`s, decided (the face's own sends known), kept 24 h or
 * until every polling token of the userbot confirmed them. One TDLib update may make several
 * (a message and a member's change): `part` tells them apart under one `update_id`.
 */
export const botApiUpdate = sqliteTable(
	'bot_api_update',
	{
		userbotId: integer('userbot_id')
			.notNull()
			.references(() => userbot.id, { onDelete: 'cascade' }),
		updateId: integer('update_id').notNull(),
		part: integer('part').notNull().default(0),
		at: integer('at').notNull(),
		/** The Bot API kind; null: a member's change, `my_chat_member` or `chat_member` by whose it is. */
		type: text('type'),
		/** The member of a member's change (its user id). */
		member: integer('member'),
		/** Sent through this face (its own sends are left out unless a token asks for them). */
		face: integer('face', { mode: 'boolean' }).notNull().default(false),
		/** The kind's object (`Message`, `ChatMemberUpdated`), JSON. */
		body: text('body').notNull(),
	},
	(t) => [primaryKey({ columns: [t.userbotId, t.updateId, t.part] }), index('bot_api_update_at').on(t.at)],
)

/**
 * A token's getUpdates state: where its offset stands (`confirmed`: the first `update_id` not
 * confirmed), its settings (`allowed_updates`, `include_own_sends`, JSON) and its account's user id,
 * gone with its key.
 */
export const botApiToken = sqliteTable('bot_api_token', {
	keyId: integer('key_id')
		.primaryKey()
		.references(() => apiKey.id, { onDelete: 'cascade' }),
	userbotId: integer('userbot_id').notNull(),
	confirmed: integer('confirmed').notNull().default(0),
	settings: text('settings').notNull(),
	/**
	 * The account's Telegram user id the token names (its first part): whose member changes are
	 * `my_chat_member`. Null for a row from before it was kept, until the token's next request.
	 */
	selfId: integer('self_id'),
})
