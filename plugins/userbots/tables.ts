import { index, integer, primaryKey, sqliteTable } from 'drizzle-orm/sqlite-core'
import { userbot } from 'userbot-gateway/plugin'

/**
 * The userbots plugin's own table, declared by the plugin (docs/plugins.md#tables). drizzle-kit reads
 * it with the core's (drizzle.config.ts); its migration is the core's, as it was before it moved
 * here, so the database did not change.
 */

/**
 * The files route's download cache (docs/read-side.md#the-download-cache): each file TDLib holds in a
 * userbot's `files/` folder because the route fetched it, with its size and when it was last served.
 * The rows of a userbot add up to at most FILE_CACHE_BYTES; past it the least recently served files
 * are deleted from TDLib (`deleteFile`) and their rows with them.
 */
export const fileCache = sqliteTable(
	'file_cache',
	{
		userbotId: integer('userbot_id')
			.notNull()
			.references(() => userbot.id, { onDelete: 'cascade' }),
		/** TDLib's file id, in the userbot's own TDLib client. */
		fileId: integer('file_id').notNull(),
		size: integer('size').notNull(),
		usedAt: integer('used_at').notNull(),
	},
	(t) => [
		primaryKey({ columns: [t.userbotId, t.fileId] }),
		index('file_cache_used').on(t.userbotId, t.usedAt),
	],
)
