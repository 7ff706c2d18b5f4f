/**
 * Command deadlines with one timer for all of them. Every command gets the same allowance
 * (`COMMAND_TIMEOUT`), so deadlines fall in arrival order: the earliest is always at the head of an
 * insertion-ordered set, and one timer armed for the head replaces a timer per command.
 */
export interface Deadline {
	readonly at: number
	expire(): void
}

export function createDeadlines(now: () => number = () => performance.now()) {
	const pending = new Set<Deadline>()
	let timer: ReturnType<typeof setTimeout> | undefined
	let armedFor = Number.POSITIVE_INFINITY

	const arm = () => {
		const head = pending.values().next().value
		if (!head || head.at >= armedFor) return
		if (timer) clearTimeout(timer)
		armedFor = head.at
		timer = setTimeout(sweep, Math.max(0, head.at - now()))
	}

	function sweep() {
		timer = undefined
		armedFor = Number.POSITIVE_INFINITY
		const t = now()
		for (const d of pending) {
			// Arrival order is deadline order give or take the few milliseconds a lookup takes.
			if (d.at > t + 1) break
			pending.delete(d)
			d.expire()
		}
		arm()
	}

	return {
		add(d: Deadline) {
			pending.add(d)
			if (timer === undefined) arm()
		},
		/** The command answered in time. The timer stays armed; it re-arms for the next head. */
		delete(d: Deadline) {
			pending.delete(d)
		},
		get size() {
			return pending.size
		},
	}
}
