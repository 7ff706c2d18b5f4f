/**
 * Deadlines with one timer for many of them. Entries given one allowance expire in the order they
 * were added, so the earliest is always at the head of a FIFO and one timer armed for the head
 * serves them all. An answered entry is only marked (`done`) and leaves the queue when it reaches
 * the head, or in a sweep once answered entries outnumber live ones: adding and answering stay O(1)
 * (a timer per request, or a Set, cost several per cent of the HTTP process's CPU under load).
 */
export interface Deadline {
	readonly at: number
	/** Set by the owner when the entry is answered; set by `expire` when it is not. */
	readonly done: boolean
	/** Called once when `at` passes and the entry is not done. It must set `done`, not call `settle`. */
	expire(): void
}

export interface DeadlineQueue {
	add(d: Deadline): void
	/** `d` was answered in time (its `done` is already set). */
	settle(d: Deadline): void
	/** Entries neither answered nor expired. */
	readonly size: number
	/** Stops the timer; the entries left are forgotten. */
	clear(): void
}

export function createDeadlineQueue(now: () => number = () => performance.now()): DeadlineQueue {
	let queue: Deadline[] = []
	let head = 0
	let live = 0
	let timer: ReturnType<typeof setTimeout> | undefined
	let armedFor = Number.POSITIVE_INFINITY

	const trim = () => {
		while (head < queue.length && queue[head]?.done) head++
		if (head === queue.length) {
			queue.length = 0
			head = 0
		} else if (head > 1024 && head * 2 > queue.length) {
			queue = queue.slice(head)
			head = 0
		}
	}

	const arm = () => {
		const first = queue[head]
		if (!first || first.at >= armedFor) return
		if (timer !== undefined) clearTimeout(timer)
		armedFor = first.at
		timer = setTimeout(sweep, Math.max(0, first.at - now()))
	}

	function sweep() {
		timer = undefined
		armedFor = Number.POSITIVE_INFINITY
		const t = now()
		for (; head < queue.length; head++) {
			const d = queue[head] as Deadline
			if (d.done) continue
			// Arrival order is deadline order give or take the few milliseconds a lookup takes.
			if (d.at > t + 1) break
			live--
			d.expire()
		}
		trim()
		arm()
	}

	return {
		add(d) {
			queue.push(d)
			live++
			if (timer === undefined) arm()
		},
		settle(d) {
			live--
			if (queue[head] === d) trim()
			else if (queue.length - head > 2 * live + 1024) {
				// An old entry still waits at the head: drop the answered ones behind it.
				queue = queue.slice(head).filter((e) => !e.done)
				head = 0
			}
		},
		get size() {
			return live
		},
		clear() {
			if (timer !== undefined) clearTimeout(timer)
			timer = undefined
			armedFor = Number.POSITIVE_INFINITY
			queue = []
			head = 0
			live = 0
		},
	}
}
