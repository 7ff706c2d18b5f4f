import { and, asc, desc, eq, gte, inArray, lt, max, min, sql } from 'drizzle-orm'
import type { AppContext } from 'userbot-gateway/plugin'
import { botApiToken, botApiUpdate } from './tables'
import type { UpdateType } from './update-of'

/**
 * The updates of getUpdates on disk (docs/bot-api.md#updates): what the buffer decided is written
 * here in batches, in order, and read back by getUpdates, so that a restart of the gateway loses
 * nothing a token has not confirmed. Kept KEEP_MS (24 h, as Telegram) and at most KEEP per userbot;
 * what every polling token of a userbot confirmed goes at once.
 */
export const KEEP = 10_000
export const KEEP_MS = 24 * 3600 * 1000
/** How long decided updates wait to be written together (a long poll answers that much later). */
export const WRITE_MS = 20

/** One `Update` as kept: numbered, decided. */
export interface Kept {
	userbotId: number
	updateId: number
	part: number
	at: number
	/** null: a member's change, `my_chat_member` or `chat_member` by whose it is (`member`). */
	type: UpdateType | null
	member: number | null
	face: boolean
	body: string
}

/** A token's stored state: its first `update_id` not confirmed and its settings (JSON). */
export interface TokenRow {
	confirmed: number
	settings: string
}

const KEPT_COLUMNS = {
	userbotId: botApiUpdate.userbotId,
	updateId: botApiUpdate.updateId,
	part: botApiUpdate.part,
	at: botApiUpdate.at,
	type: botApiUpdate.type,
	member: botApiUpdate.member,
	face: botApiUpdate.face,
	body: botApiUpdate.body,
}

type Db = AppContext['db']

/**
 * Writes what is queued, in order, WRITE_MS after the first of them, in one statement: the embedded
 * driver runs a statement on the event loop's thread, so one a message cost each message as much
 * again as the rest of its sending (docs/benchmarks.md, `bot-api-send`). A write that fails is logged.
 */
function createWriter(ctx: AppContext) {
	let queue: Kept[] = []
	let waiting: Array<() => void> = []
	let running = false
	// One parameter, the rows as JSON, read by SQLite itself: drizzle's builder would cost more
	// per row than the statement.
	const write = async (rows: Kept[]) => {
		const json = JSON.stringify(
			rows.map((r) => [r.userbotId, r.updateId, r.part, r.at, r.type, r.member, r.face ? 1 : 0, r.body]),
		)
		await ctx.db.run(sql`insert or ignore into ${botApiUpdate}
			(userbot_id, update_id, part, at, type, member, face, body)
			select value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6,
				value ->> 7 from json_each(${json})`)
	}
	let timer: ReturnType<typeof setTimeout> | undefined
	const drain = async () => {
		timer = undefined
		running = true
		while (waiting.length > 0) {
			const rows = queue
			const done = waiting
			queue = []
			waiting = []
			if (rows.length > 0)
				await write(rows).catch((err: unknown) =>
					ctx.log.warn('bot api: writing updates failed', {
						error: err instanceof Error ? err.message : String(err),
					}),
				)
			for (const fn of done) fn()
		}
		running = false
	}
	return {
		add(row: Kept): void {
			queue.push(row)
		},
		/** Resolves once everything queued so far is on disk (or its write failed, logged), WRITE_MS on at most. */
		flush(): Promise<void> {
			return new Promise((resolve) => {
				waiting.push(resolve)
				if (!running && !timer) timer = setTimeout(() => void drain(), WRITE_MS)
			})
		},
		/** Writes what is queued now (the app closes). */
		async close(): Promise<void> {
			clearTimeout(timer)
			const done = new Promise<void>((resolve) => waiting.push(resolve))
			if (!running) void drain()
			await done
		},
	}
}

/** The last `update_id` kept of each userbot: the numbering goes on past it after a restart. */
async function lastIds(db: Db): Promise<Map<number, number>> {
	const rows = await db
		.select({ userbotId: botApiUpdate.userbotId, last: max(botApiUpdate.updateId) })
		.from(botApiUpdate)
		.groupBy(botApiUpdate.userbotId)
	return new Map(rows.map((r) => [r.userbotId, r.last ?? 0]))
}

/**
 * Each Bot API token that made a request here (it has a `bot_api_token` row, gone with its key): its
 * key id, its userbot (whose updates are kept) and the account's user id its token named (null in a
 * row from before it was kept). The keys' own table is the auth core's, read by no plugin
 * (docs/plugins.md#tables).
 */
async function botTokens(
	db: Db,
): Promise<Array<{ keyId: number; userbotId: number; selfId: number | null }>> {
	return db
		.select({ keyId: botApiToken.keyId, userbotId: botApiToken.userbotId, selfId: botApiToken.selfId })
		.from(botApiToken)
}

/**
 * Drops what is older than KEEP_MS, past KEEP a userbot, and what every polling token of the
 * userbot confirmed (`userbotIds`: those to look at).
 */
async function prune(db: Db, now: number, userbotIds: readonly number[]): Promise<void> {
	await db.delete(botApiUpdate).where(lt(botApiUpdate.at, now - KEEP_MS))
	if (userbotIds.length === 0) return
	const confirmed = await db
		.select({ userbotId: botApiToken.userbotId, least: min(botApiToken.confirmed) })
		.from(botApiToken)
		.where(inArray(botApiToken.userbotId, [...userbotIds]))
		.groupBy(botApiToken.userbotId)
	for (const c of confirmed)
		await db
			.delete(botApiUpdate)
			.where(and(eq(botApiUpdate.userbotId, c.userbotId), lt(botApiUpdate.updateId, c.least ?? 0)))
	for (const userbotId of userbotIds)
		await db.run(sql`delete from ${botApiUpdate} where ${botApiUpdate.userbotId} = ${userbotId}
			and ${botApiUpdate.updateId} <= (select ${botApiUpdate.updateId} from ${botApiUpdate}
			where ${botApiUpdate.userbotId} = ${userbotId} order by ${botApiUpdate.updateId} desc
			limit 1 offset ${KEEP})`)
}

export function createJournal(ctx: AppContext) {
	const db = ctx.db
	return {
		...createWriter(ctx),
		lastIds: () => lastIds(db),
		tokens: () => botTokens(db),
		prune: (now: number, userbotIds: readonly number[]) => prune(db, now, userbotIds),

		/** Kept updates of a userbot from `from` on, not older than `since`, in order. */
		read(userbotId: number, from: number, since: number, limit: number): Promise<Kept[]> {
			return db
				.select(KEPT_COLUMNS)
				.from(botApiUpdate)
				.where(
					and(
						eq(botApiUpdate.userbotId, userbotId),
						gte(botApiUpdate.updateId, from),
						gte(botApiUpdate.at, since),
					),
				)
				.orderBy(asc(botApiUpdate.updateId), asc(botApiUpdate.part))
				.limit(limit) as Promise<Kept[]>
		},

		/** The last `limit` kept updates of a userbot, newest first. */
		latest(userbotId: number, since: number, limit: number): Promise<Kept[]> {
			return db
				.select(KEPT_COLUMNS)
				.from(botApiUpdate)
				.where(and(eq(botApiUpdate.userbotId, userbotId), gte(botApiUpdate.at, since)))
				.orderBy(desc(botApiUpdate.updateId), desc(botApiUpdate.part))
				.limit(limit) as Promise<Kept[]>
		},

		async token(keyId: number): Promise<TokenRow | undefined> {
			const [row] = await db
				.select({ confirmed: botApiToken.confirmed, settings: botApiToken.settings })
				.from(botApiToken)
				.where(eq(botApiToken.keyId, keyId))
			return row
		},

		/**
		 * A token seen at a request: its row, if it had none (its userbot's updates are kept from now
		 * on), and the account's user id its token names in it either way.
		 */
		async knowToken(keyId: number, userbotId: number, selfId: number, settings: string): Promise<void> {
			await db
				.insert(botApiToken)
				.values({ keyId, userbotId, confirmed: 0, settings, selfId })
				.onConflictDoUpdate({ target: botApiToken.keyId, set: { selfId } })
		},

		async saveToken(keyId: number, userbotId: number, row: TokenRow): Promise<void> {
			await db
				.insert(botApiToken)
				.values({ keyId, userbotId, ...row })
				.onConflictDoUpdate({ target: botApiToken.keyId, set: { ...row, userbotId } })
		},
	}
}

export type Journal = ReturnType<typeof createJournal>
