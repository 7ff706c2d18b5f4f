/**
 * Time for the flood governor and the emulated cloud's limits: the wall clock in production, a
 * clock the test moves by hand (`ManualClock`) so that nothing depends on one timer beating another.
 */
export interface Clock {
	/** Milliseconds. */
	now(): number
	/** Calls `fn` once `ms` have passed on this clock; returns the cancel. */
	after(ms: number, fn: () => void): () => void
}

export const wallClock: Clock = {
	now: () => performance.now(),
	after(ms, fn) {
		const t = setTimeout(fn, Math.max(0, ms))
		return () => clearTimeout(t)
	},
}

/** Resolves once `ms` have passed on `clock`. */
export const sleepOn = (clock: Clock, ms: number): Promise<void> =>
	ms <= 0 ? Promise.resolve() : new Promise((resolve) => clock.after(ms, resolve))

/** A clock that moves only when told: `advance` runs what falls due, in time order. */
export class ManualClock implements Clock {
	private at = 0
	private seq = 0
	private readonly timers = new Map<number, { due: number; fn: () => void }>()

	now(): number {
		return this.at
	}

	after(ms: number, fn: () => void): () => void {
		const id = ++this.seq
		this.timers.set(id, { due: this.at + Math.max(0, ms), fn })
		return () => this.timers.delete(id)
	}

	/** Timers waiting (a test waits for the work it started to be parked on the clock). */
	get waiting(): number {
		return this.timers.size
	}

	/** The next moment a timer falls due, if any. */
	next(): number | undefined {
		let due: number | undefined
		for (const t of this.timers.values()) if (due === undefined || t.due < due) due = t.due
		return due
	}

	/** Moves to `at + ms`, firing each timer due on the way at its own moment. */
	advance(ms: number): void {
		const end = this.at + ms
		for (;;) {
			let first: [number, { due: number; fn: () => void }] | undefined
			for (const e of this.timers) if (e[1].due <= end && (!first || e[1].due < first[1].due)) first = e
			if (!first) break
			this.timers.delete(first[0])
			this.at = Math.max(this.at, first[1].due)
			first[1].fn()
		}
		this.at = end
	}
}
