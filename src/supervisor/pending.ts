import { RuntimeError } from '../telegram/types'

/**
 * tdl's pattern, across a process boundary: increasing ids, a map of requests in flight, a
 * deadline per request, and one call that fails them all when the other side dies. Each request
 * settles exactly once: whichever of reply, deadline, abort or failure comes first.
 */
interface Pending {
	resolve: (value: unknown) => void
	reject: (err: Error) => void
	timer: ReturnType<typeof setTimeout>
	cleanup?: () => void
}

export class PendingRequests {
	private readonly map = new Map<number, Pending>()
	private nextId = 0

	get size(): number {
		return this.map.size
	}

	/** Registers a request; `promise` settles on reply, deadline (`timeout`) or abort. */
	add(timeoutMs: number, signal?: AbortSignal): { id: number; promise: Promise<unknown> } {
		const id = ++this.nextId
		const promise = new Promise<unknown>((resolve, reject) => {
			const timer = setTimeout(() => this.reject(id, new RuntimeError('timeout', 'timeout')), timeoutMs)
			const entry: Pending = { resolve, reject, timer }
			this.map.set(id, entry)
			if (signal) {
				if (signal.aborted) {
					queueMicrotask(() => this.reject(id, new RuntimeError('timeout', 'aborted')))
				} else {
					const onAbort = () => this.reject(id, new RuntimeError('timeout', 'aborted'))
					signal.addEventListener('abort', onAbort, { once: true })
					entry.cleanup = () => signal.removeEventListener('abort', onAbort)
				}
			}
		})
		return { id, promise }
	}

	private take(id: number): Pending | undefined {
		const entry = this.map.get(id)
		if (!entry) return undefined
		this.map.delete(id)
		clearTimeout(entry.timer)
		entry.cleanup?.()
		return entry
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
