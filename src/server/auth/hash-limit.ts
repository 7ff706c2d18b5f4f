import type { PasswordHasher } from './passwords'

/**
 * At most `limit` argon2id computations at once; the rest wait their turn, in order, and are never
 * refused. Bun runs `Bun.password` on its shared work pool, one thread per core: a storm of logins
 * would fill every thread with 19 MiB hashes for seconds, and whatever else of the server uses
 * that pool (`Bun.file` reads, among others) would wait behind all of them. With one core's worth
 * left free the rest of the server keeps moving. On Deno the WebAssembly hash runs on the event
 * loop itself; the limit then bounds the memory held by hashes waiting to run.
 *
 * Rate limits are checked before a login reaches the hasher (src/server/auth/credentials.ts), so a
 * throttled guess never takes a turn.
 */
export interface LimitedHasher extends PasswordHasher {
	/** Hashes running and waiting now (tests, health). */
	load(): { running: number; waiting: number }
}

export function limitHashing(hasher: PasswordHasher, limit: number): LimitedHasher {
	if (!Number.isInteger(limit) || limit < 1)
		throw new Error(`hash concurrency must be a whole number >= 1, got ${limit}`)
	let running = 0
	const waiting: Array<() => void> = []
	const turn = async <T>(work: () => Promise<T>): Promise<T> => {
		if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve))
		else running++
		try {
			return await work()
		} finally {
			// The turn passes straight to the next in line: `running` stays counted for it.
			const next = waiting.shift()
			if (next) next()
			else running--
		}
	}
	return {
		hash: (password) => turn(() => hasher.hash(password)),
		verify: (password, hash) => turn(() => hasher.verify(password, hash)),
		needsRehash: (hash) => hasher.needsRehash(hash),
		load: () => ({ running, waiting: waiting.length }),
	}
}
