import { and, asc, eq, max } from 'drizzle-orm'
import { createKeyedQueue, type Database, type Logger } from 'userbot-gateway/plugin'
import { fileCache } from '../tables'

/**
 * The files route's download cache (docs/read-side.md#the-download-cache): what TDLib holds in a
 * userbot's `files/` folder because the route fetched it, at most `quotaBytes` (FILE_CACHE_BYTES)
 * per userbot. A file is counted before its download starts (`admit`), with the size TDLib expects;
 * past the quota the least recently served others are evicted, by TDLib itself (`deleteFile`, the
 * `evict` given), so TDLib's own view of the file (`getFile`) stays true.
 *
 * "A limit checked and then written in two steps is no limit": the rows are read, the file counted
 * and the victims chosen in one write transaction (several gateways on one database take turns
 * there), and the admissions of one userbot take turns in this process until their evictions are
 * done, so two downloads at once never both pass a check made before either was counted.
 */
export interface FileCache {
	/**
	 * Counts `fileId` (`size` bytes) as the userbot's most recently served file, then evicts the least
	 * recently served others until the userbot's files fit the quota. A file bigger than the whole
	 * quota is the caller's to refuse (`fits`).
	 */
	admit(
		userbotId: number,
		fileId: number,
		size: number,
		evict: (fileId: number) => Promise<void>,
	): Promise<void>
	/** Whether a file of `size` bytes can be cached at all. */
	fits(size: number): boolean
	/** The userbot's account logged out: its files went with its folders, and so do their rows. */
	forget(userbotId: number): Promise<void>
	/** What the userbot's cache counts now, least recently served first (tests, the console). */
	list(userbotId: number): Promise<Array<{ fileId: number; size: number }>>
}

export function createFileCache(db: Database, quotaBytes: number, log: Logger): FileCache {
	const turns = createKeyedQueue()
	const mine = (userbotId: number) => eq(fileCache.userbotId, userbotId)

	/** One transaction: the file counted as the newest, the victims that make the rest fit. */
	const count = (userbotId: number, fileId: number, size: number) =>
		db.transaction(async (tx) => {
			// Served order, not the clock: two files served in one millisecond still have an order.
			const [last] = await tx
				.select({ at: max(fileCache.usedAt) })
				.from(fileCache)
				.where(mine(userbotId))
			const usedAt = Math.max(Date.now(), (last?.at ?? 0) + 1)
			await tx
				.insert(fileCache)
				.values({ userbotId, fileId, size, usedAt })
				.onConflictDoUpdate({ target: [fileCache.userbotId, fileCache.fileId], set: { size, usedAt } })
			const rows = await tx
				.select({ fileId: fileCache.fileId, size: fileCache.size })
				.from(fileCache)
				.where(mine(userbotId))
				.orderBy(asc(fileCache.usedAt))
			let total = rows.reduce((n, r) => n + r.size, 0)
			const victims: number[] = []
			for (const r of rows) {
				if (total <= quotaBytes) break
				if (r.fileId === fileId) continue
				victims.push(r.fileId)
				total -= r.size
			}
			return victims
		})

	return {
		fits: (size) => size <= quotaBytes,
		admit(userbotId, fileId, size, evict) {
			return turns(String(userbotId), async () => {
				for (const victim of await count(userbotId, fileId, size)) {
					try {
						await evict(victim)
					} catch (err) {
						// Still on disk: its row stays, counted, and is chosen again by the next admission.
						log.warn('could not evict a cached file', { userbotId, fileId: victim, error: String(err) })
						continue
					}
					await db.delete(fileCache).where(and(mine(userbotId), eq(fileCache.fileId, victim)))
				}
			})
		},
		forget: (userbotId) =>
			turns(String(userbotId), async () => {
				await db.delete(fileCache).where(mine(userbotId))
			}),
		list: (userbotId) =>
			db
				.select({ fileId: fileCache.fileId, size: fileCache.size })
				.from(fileCache)
				.where(mine(userbotId))
				.orderBy(asc(fileCache.usedAt)),
	}
}
