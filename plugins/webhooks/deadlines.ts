/** The timer functions a `Deadlines` uses (the global ones; a test gives its own). */
export interface TimerApi {
	set(fn: () => void, ms: number): unknown
	clear(handle: unknown): void
}

const globalTimers: TimerApi = {
	set: (fn, ms) => setTimeout(fn, ms),
	clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
}

/** One attempt under way: its signal, aborted at its deadline or when its `stopping` is. */
export interface Deadline {
	readonly signal: AbortSignal
}

interface Entry extends Deadline {
	controller: AbortController
	at: number
	stopping: AbortSignal
}

/**
 * The attempts' timeouts with one timer for all of them, armed for the earliest deadline, and one
 * listener per `stopping` signal (not per attempt). Each attempt still has its own abort controller
 * (its `fetch` is aborted alone), aborted at exactly its deadline or when its `stopping` is.
 *
 * A timer and a listener added and removed per attempt cost about a microsecond of the event loop
 * per delivery; here an attempt that ends in time costs a `Set` insertion and deletion. With one
 * timeout for all, attempts end in the order they started, so the timer, armed for the oldest
 * attempt, finds it long ended when it fires and is armed again for the oldest under way: about
 * once per timeout while deliveries flow.
 */
export class Deadlines {
	/** The attempts under way, in the order they started. */
	private readonly live = new Set<Entry>()
	private timer: unknown = null
	/** When the armed timer fires (ms, `now()`'s clock). */
	private armedFor = Number.POSITIVE_INFINITY
	/** The `stopping` signals listened to already (each once, for the life of the signal). */
	private readonly watched = new WeakSet<AbortSignal>()

	constructor(
		private readonly now: () => number = () => performance.now(),
		private readonly timers: TimerApi = globalTimers,
	) {}

	/** An attempt's signal: aborted after `timeoutMs`, or when `stopping` is. Call `done` when it ends. */
	start(stopping: AbortSignal, timeoutMs: number): Deadline {
		const controller = new AbortController()
		const entry: Entry = { controller, signal: controller.signal, at: this.now() + timeoutMs, stopping }
		if (stopping.aborted) {
			controller.abort()
			return entry
		}
		this.watch(stopping)
		this.live.add(entry)
		if (entry.at < this.armedFor) this.arm(entry.at)
		return entry
	}

	/** The attempt ended: its deadline is forgotten. */
	done(deadline: Deadline): void {
		this.live.delete(deadline as Entry)
		if (this.live.size === 0 && this.timer !== null) {
			this.timers.clear(this.timer)
			this.timer = null
			this.armedFor = Number.POSITIVE_INFINITY
		}
	}

	/** Attempts under way (for tests). */
	get size(): number {
		return this.live.size
	}

	private watch(stopping: AbortSignal): void {
		if (this.watched.has(stopping)) return
		this.watched.add(stopping)
		stopping.addEventListener(
			'abort',
			() => {
				for (const entry of this.live)
					if (entry.stopping === stopping) {
						this.live.delete(entry)
						entry.controller.abort()
					}
			},
			{ once: true },
		)
	}

	private arm(at: number): void {
		if (this.timer !== null) this.timers.clear(this.timer)
		this.armedFor = at
		this.timer = this.timers.set(() => this.fire(), Math.max(0, at - this.now()))
	}

	/** Aborts every attempt past its deadline, and arms the timer for the earliest of the others. */
	private fire(): void {
		this.timer = null
		this.armedFor = Number.POSITIVE_INFINITY
		const now = this.now()
		let next = Number.POSITIVE_INFINITY
		// Every attempt under way is looked at (a changed timeout can put a later one first): a
		// sender has few at once (one per endpoint-and-userbot pair it sends to).
		for (const entry of this.live) {
			if (entry.at <= now) {
				this.live.delete(entry)
				entry.controller.abort()
			} else if (entry.at < next) next = entry.at
		}
		if (next !== Number.POSITIVE_INFINITY) this.arm(next)
	}
}
