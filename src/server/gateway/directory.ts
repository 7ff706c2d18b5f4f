import { and, eq, isNull, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { userbot } from '../../../db/schema'
import type { UserbotDirectory, UserbotRecord } from '../context'

/** Enough for every userbot a deployment runs; past it the cache starts over rather than grow. */
const MAX_ENTRIES = 50_000

/**
 * The gateway asks "whose is userbot N?" on every command. Live userbots are cached per app; only
 * hits are cached, so a userbot created after a miss is found at once. Concurrent misses for one
 * id share one query. `invalidate` also drops an answer still in flight; `markDeleted` (called when
 * a delete begins) makes the userbot unknown for good, before its row is written.
 */
export function createUserbotDirectory(db: Database): UserbotDirectory {
	const query = db
		.select({ id: userbot.id, companyId: userbot.companyId })
		.from(userbot)
		.where(and(eq(userbot.id, sql.placeholder('id')), isNull(userbot.deletedAt)))
		.limit(1)
		.prepare()
	const cache = new Map<number, UserbotRecord>()
	const inflight = new Map<number, Promise<UserbotRecord | null>>()
	const deleted = new Set<number>()
	let generation = 0

	const load = async (id: number): Promise<UserbotRecord | null> => {
		const started = generation
		const row = (await query.all({ id }))[0]
		const record = row ? { id: row.id, companyId: row.companyId } : null
		if (record && started === generation && !deleted.has(id)) {
			if (cache.size >= MAX_ENTRIES) cache.clear()
			cache.set(id, record)
		}
		return record
	}

	const invalidate = (id: number) => {
		// A generation bump keeps a query that started before the delete from refilling the cache.
		generation++
		cache.delete(id)
		inflight.delete(id)
	}

	return {
		lookup(id) {
			if (deleted.has(id)) return Promise.resolve(null)
			const hit = cache.get(id)
			if (hit) return Promise.resolve(hit)
			let pending = inflight.get(id)
			if (!pending) {
				const p = load(id).finally(() => {
					if (inflight.get(id) === p) inflight.delete(id)
				})
				inflight.set(id, p)
				pending = p
			}
			return pending
		},
		lookupNow: (id) => (deleted.has(id) ? null : cache.get(id)),
		invalidate,
		invalidateAll() {
			generation++
			cache.clear()
			inflight.clear()
		},
		markDeleted(id) {
			deleted.add(id)
			invalidate(id)
		},
	}
}
