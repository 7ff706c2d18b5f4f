import { eq, lt, sql } from 'drizzle-orm'
import type { Database } from '../../../db/client'
import { rateLimit } from '../../../db/schema'

/**
 * Fixed-window counters in the `rate_limit` table (`login:<email>:<ip>`, `reset-ip:<ip>`, ...).
 * One upsert per hit, so concurrent requests cannot both slip under the limit. Every SWEEP_EVERY
 * hits, rows whose window ended more than `retainSeconds` ago are deleted: a flood of made-up
 * emails cannot grow the table without bound.
 */
const SWEEP_EVERY = 256
export interface RateLimiter {
	/** Seconds until the window ends when `key` is at or over `limit`, else 0. Counts nothing. */
	blocked(key: string, limit: number, windowSeconds: number): Promise<number>
	/** Counts one hit; returns seconds to wait when this hit went over `limit`, else 0. */
	hit(key: string, limit: number, windowSeconds: number): Promise<number>
	/** Takes one hit back (never below zero): a try that turned out right no longer counts. */
	giveBack(key: string): Promise<void>
	reset(key: string): Promise<void>
}

export function createRateLimiter(
	db: Database,
	clock: () => number = Date.now,
	retainSeconds = 24 * 3600,
): RateLimiter {
	let hits = 0
	const sweep = async (now: number) => {
		await db.delete(rateLimit).where(lt(rateLimit.windowStart, now - retainSeconds * 1000))
	}
	const retryAfter = (windowStart: number, windowSeconds: number, now: number) =>
		Math.max(1, Math.ceil((windowStart + windowSeconds * 1000 - now) / 1000))
	return {
		async blocked(key, limit, windowSeconds) {
			const now = clock()
			const [row] = await db.select().from(rateLimit).where(eq(rateLimit.key, key))
			if (!row || row.windowStart + windowSeconds * 1000 <= now || row.count < limit) return 0
			return retryAfter(row.windowStart, windowSeconds, now)
		},
		async hit(key, limit, windowSeconds) {
			const now = clock()
			if (++hits % SWEEP_EVERY === 0) await sweep(now)
			const stale = now - windowSeconds * 1000
			const [row] = await db
				.insert(rateLimit)
				.values({ key, count: 1, windowStart: now })
				.onConflictDoUpdate({
					target: rateLimit.key,
					set: {
						count: sql`case when ${rateLimit.windowStart} <= ${stale} then 1 else ${rateLimit.count} + 1 end`,
						windowStart: sql`case when ${rateLimit.windowStart} <= ${stale} then ${now} else ${rateLimit.windowStart} end`,
					},
				})
				.returning()
			if (!row || row.count <= limit) return 0
			return retryAfter(row.windowStart, windowSeconds, now)
		},
		async giveBack(key) {
			await db
				.update(rateLimit)
				.set({ count: sql`max(${rateLimit.count} - 1, 0)` })
				.where(eq(rateLimit.key, key))
		},
		async reset(key) {
			await db.delete(rateLimit).where(eq(rateLimit.key, key))
		},
	}
}
