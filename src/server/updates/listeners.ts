/**
 * The commands that wait for a userbot's updates (`send_message`'s `wait_sent`, `wait_for_message`,
 * `send_and_wait`: `CommandContext.onUpdate`), kept by userbot and by kind: an update reaches only the
 * listeners of its userbot that want its kind, so a thousand waits on one userbot cost another
 * userbot's updates nothing, and each of its updates one lookup and one call per wait that wants it.
 * No timer, no poll: a wait is an entry here until its command ends.
 *
 * When the userbot goes away (deleted, logged out, its client stopped: `end`), every listener of it
 * hears why, once, and is dropped: the gateway answers its command with the matching error
 * (docs/command-groups.md#conversations).
 */

/** Why a userbot's listeners were ended. */
export type ListenersEnd = 'deleted' | 'logged_out' | 'stopped'

export interface UpdateListener {
	/** The kinds it wants (`updateNewMessage`). */
	kinds: ReadonlySet<string>
	update(update: { _: string }): void
	/** The userbot went away: the listener is already dropped. */
	ended(why: ListenersEnd): void
}

export interface UpdateListeners {
	/** Adds a listener of the userbot's updates; the returned function drops it (again: nothing). */
	add(userbotId: number, listener: UpdateListener): () => void
	/** Hands an update to the userbot's listeners of its kind. */
	deliver(userbotId: number, update: { _: string }): void
	/** The userbot went away: each listener of it hears why, once, and is dropped. */
	end(userbotId: number, why: ListenersEnd): void
	/** Listeners of the userbot (or of all), now: tests and health. */
	count(userbotId?: number): number
}

export function createUpdateListeners(): UpdateListeners {
	const byUserbot = new Map<number, Set<UpdateListener>>()
	let total = 0
	const drop = (userbotId: number, set: Set<UpdateListener>, listener: UpdateListener): boolean => {
		if (!set.delete(listener)) return false
		total--
		if (set.size === 0 && byUserbot.get(userbotId) === set) byUserbot.delete(userbotId)
		return true
	}
	return {
		add(userbotId, listener) {
			let set = byUserbot.get(userbotId)
			if (!set) {
				set = new Set()
				byUserbot.set(userbotId, set)
			}
			set.add(listener)
			total++
			const own = set
			return () => {
				drop(userbotId, own, listener)
			}
		},
		deliver(userbotId, update) {
			const set = byUserbot.get(userbotId)
			if (!set) return
			// A listener may drop itself (its wait is over) or another while this runs: a copy is walked.
			for (const listener of [...set])
				if (listener.kinds.has(update._) && set.has(listener)) listener.update(update)
		},
		end(userbotId, why) {
			const set = byUserbot.get(userbotId)
			if (!set) return
			for (const listener of [...set]) if (drop(userbotId, set, listener)) listener.ended(why)
		},
		count(userbotId) {
			return userbotId === undefined ? total : (byUserbot.get(userbotId)?.size ?? 0)
		},
	}
}
