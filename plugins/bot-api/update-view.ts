import { UNAUTHORIZED } from './answer'
import type { PollEnd } from './poll-ends'
import type { UpdateType } from './update-of'
import type { Asker, createTokenStates, TokenState } from './update-tokens'

/** What a token's view (update-view.ts) reads of the buffer. */
export interface BufferParts {
	states: ReturnType<typeof createTokenStates>
	/** Resolves once the journal's numbers and the tokens were read at start. */
	ready: Promise<void>
	refresh(): Promise<void>
	take(asker: Asker, s: TokenState, limit: number): Promise<Array<Record<string, unknown>>>
	latestFrom(asker: Asker, s: TokenState, n: number): Promise<number | undefined>
	version(userbotId: number): number
	/** The last `update_id` handed out. */
	handed(userbotId: number): number
	wait(userbotId: number, since: number, ms: number, signal: AbortSignal): Promise<void>
}

/**
 * One token's view of its userbot's updates (docs/bot-api.md#updates): its settings and offset,
 * stored (update-tokens.ts), and getUpdates' long poll over the journal.
 */
export function createTokenView(parts: BufferParts, asker: Asker) {
	const { states } = parts
	const state = async () => {
		await parts.ready
		return states.of(asker.keyId)
	}
	return {
		asker,
		settings: state,
		/** Sets what the token asked for (`allowed_updates`, `include_own_sends`), remembered until changed. */
		async configure(allowed: ReadonlySet<UpdateType> | undefined, includeOwn: boolean | undefined) {
			if (!allowed && includeOwn === undefined) return
			const s = await state()
			if (allowed) s.allowed = allowed
			if (includeOwn !== undefined) s.includeOwn = includeOwn
			await states.save(asker, s)
		},
		/**
		 * The updates from `offset` on, at most `limit`, waiting up to `timeoutMs` for the first; a poll
		 * `ended` from outside (poll-ends.ts) hands out nothing: 401 when its key was revoked.
		 */
		async get(
			offset: number | undefined,
			limit: number,
			timeoutMs: number,
			ended: PollEnd,
			signal: AbortSignal,
		) {
			const s = await state()
			if (offset !== undefined) {
				// As Telegram: an offset confirms what is before it; a lower one confirms nothing again;
				// -N is the last N updates (those before them are confirmed).
				const from = offset >= 0 ? offset : await parts.latestFrom(asker, s, -offset)
				if (from !== undefined && from > s.confirmed) {
					s.confirmed = from
					await states.save(asker, s)
				}
			}
			const since = parts.version(asker.userbotId)
			const now = await parts.take(asker, s, limit)
			if (now.length > 0 || timeoutMs <= 0) return now
			await parts.wait(asker.userbotId, since, timeoutMs, AbortSignal.any([signal, ended.signal]))
			if (ended.why === 'revoked') throw UNAUTHORIZED
			if (ended.why === 'changed') return []
			return parts.take(asker, s, limit)
		},
		/** Every update handed out so far counts as confirmed (a webhook takes them from here). */
		async confirmAll() {
			const s = await state()
			const last = parts.handed(asker.userbotId)
			if (last + 1 <= s.confirmed) return
			s.confirmed = last + 1
			await states.save(asker, s)
		},
		/** The key webhook was set or removed here: it takes effect at once. */
		hooked: () => parts.refresh(),
	}
}

/**
 * The long polls waiting for a userbot's updates: `wake` ends them once updates were written;
 * `version` changes with each, so a poll that read before a write does not wait for the next one.
 */
export function createWaiters() {
	const waiters = new Map<number, Set<() => void>>()
	const versions = new Map<number, number>()
	const version = (userbotId: number) => versions.get(userbotId) ?? 0
	return {
		version,
		wake(userbotId: number) {
			versions.set(userbotId, version(userbotId) + 1)
			for (const fn of waiters.get(userbotId) ?? []) fn()
		},
		wait: (userbotId: number, since: number, ms: number, signal: AbortSignal) =>
			new Promise<void>((resolve) => {
				const set = waiters.get(userbotId) ?? new Set()
				waiters.set(userbotId, set)
				const done = () => {
					clearTimeout(clock)
					set.delete(done)
					if (set.size === 0) waiters.delete(userbotId)
					signal.removeEventListener('abort', done)
					resolve()
				}
				const clock = setTimeout(done, ms)
				signal.addEventListener('abort', done, { once: true })
				set.add(done)
				// Written between the read and now, or ended before the wait began: no need to wait.
				if (version(userbotId) !== since || signal.aborted) done()
			}),
	}
}
