import { RuntimeError } from '../telegram/types'
import { createDeadlineQueue, type Deadline, type DeadlineQueue } from './deadlines'

/**
 * tdl's pattern, across a process boundary: increasing ids, a map of requests in flight, a
 * deadline per request, and one call that fails them all when the other side dies. Each request
 * settles exactly once: whichever of reply, deadline, abort or failure comes first.
 *
 * Deadlines share timers: requests of one allowance (`timeoutMs`) go into one queue, whose
 * deadlines fall in the order the requests were made.
 */
class Pending implements Deadline {
	done = false
	resolve!: (value: unknown) => void
	reject!: (err: Error) => void
	cleanup?: () => void
	constructor(
		readonly id: number,
		readonly at: number,
		readonly timeoutMs: number,
		readonly lane: DeadlineQueue,
		private readonly owner: PendingRequests,
	) {}

	expire() {
		this.done = true
		this.owner.expired(this)
	}
}

export class PendingRequests {
	private readonly map = new Map<number, Pending>()
	private readonly lanes = new Map<number, DeadlineQueue>()
	private nextId = 0

	get size(): number {
		return this.map.size
	}

	/** Registers a request; `promise` settles on reply, deadline (`timeout`) or abort. */
	add(timeoutMs: number, signal?: AbortSignal): { id: number; promise: Promise<unknown> } {
		const id = ++this.nextId
		let lane = this.lanes.get(timeoutMs)
		if (!lane) {
			lane = createDeadlineQueue()
			this.lanes.set(timeoutMs, lane)
		}
		const entry = new Pending(id, performance.now() + timeoutMs, timeoutMs, lane, this)
		const promise = new Promise<unknown>((resolve, reject) => {
			entry.resolve = resolve
			entry.reject = reject
		})
		this.map.set(id, entry)
		lane.add(entry)
		if (signal) {
			if (signal.aborted) {
				queueMicrotask(() => this.reject(id, new RuntimeError('timeout', 'aborted')))
			} else {
				const onAbort = () => this.reject(id, new RuntimeError('timeout', 'aborted'))
				signal.addEventListener('abort', onAbort, { once: true })
				entry.cleanup = () => signal.removeEventListener('abort', onAbort)
			}
		}
		return { id, promise }
	}

	/** Called by an entry whose deadline passed (its lane already let go of it). */
	expired(entry: Pending) {
		this.map.delete(entry.id)
		entry.cleanup?.()
		this.dropIdleLane(entry)
		entry.reject(new RuntimeError('timeout', 'timeout'))
	}

	private take(id: number): Pending | undefined {
		const entry = this.map.get(id)
		if (!entry) return undefined
		this.map.delete(id)
		entry.done = true
		entry.lane.settle(entry)
		entry.cleanup?.()
		this.dropIdleLane(entry)
		return entry
	}

	/** A lane with nothing in flight goes, timer and all: allowances vary (the time left of a command). */
	private dropIdleLane(entry: Pending) {
		if (entry.lane.size > 0) return
		entry.lane.clear()
		if (this.lanes.get(entry.timeoutMs) === entry.lane) this.lanes.delete(entry.timeoutMs)
	}

	has(id: number): boolean {
		return this.map.has(id)
	}

	resolve(id: number, value: unknown): boolean {
		const entry = this.take(id)
		entry?.resolve(value)
		return entry !== undefined
	}

	reject(id: number, err: Error): boolean {
		const entry = this.take(id)
		entry?.reject(err)
		return entry !== undefined
	}

	/** Fails every request in flight at once (the child died, the runtime closed). */
	rejectAll(err: Error): number {
		const ids = [...this.map.keys()]
		for (const id of ids) this.reject(id, err)
		return ids.length
	}
}
