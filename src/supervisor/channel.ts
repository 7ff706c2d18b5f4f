import { RuntimeError } from '../telegram/types'
import type { Logger } from '../util/logger'
import { PendingRequests } from './pending'
import { type ChildMessage, fromWireError, type ParentMessage, type WireError } from './protocol'
import type { RequestEvent, RuntimeEvent } from './types'

type Result = Extract<ChildMessage, { type: 'result' }>

/**
 * The parent's half of the supervisor protocol, whatever carries it: the local supervisor client
 * (a child over a socket or IPC) and the remote runtime (shards on the bus) both send requests
 * through one. Each request gets a fresh id and one answer: its reply, its deadline (`timeout`), its
 * abort, or the failure of everything in flight when the other side goes (`failAll`). Beside the
 * requests it holds the runtime's listeners: the events it pushes up and the requests it sends.
 */
export class RequestChannel {
	private readonly pending = new PendingRequests()
	private readonly listeners = new Set<(e: RuntimeEvent) => void>()
	private readonly requestListeners = new Set<(e: RequestEvent) => void>()
	private shut = false

	constructor(private readonly log: Logger) {}

	/** Requests waiting for their answer. */
	get size(): number {
		return this.pending.size
	}

	/** Refuses new requests from now on (`close` fails those still in flight). */
	get closed(): boolean {
		return this.shut
	}

	/**
	 * Sends `msg` under a fresh id (its own `id` is a placeholder) through `deliver`; the promise
	 * settles once. Refused at once when the channel is closed.
	 */
	request<T extends ParentMessage & { id: number }>(
		msg: T,
		opts: { timeoutMs: number; signal?: AbortSignal },
		deliver: (msg: T) => void,
	): Promise<unknown> {
		if (this.shut) return Promise.reject(new RuntimeError('runtime_down', 'the runtime is closed'))
		const { id, promise } = this.pending.add(opts.timeoutMs, opts.signal)
		msg.id = id
		deliver(msg)
		return promise
	}

	/** A request past the closing (the child's `shutdown`): an id and its answer, sent by the caller. */
	last(timeoutMs: number): { id: number; promise: Promise<unknown> } {
		return this.pending.add(timeoutMs)
	}

	/** Whether the request `id` still waits for its answer. */
	waiting(id: number): boolean {
		return this.pending.has(id)
	}

	/** A `result` from the other side settles its request (none, if it was already answered). */
	answer(m: Result, wireError: (e: WireError) => Error = fromWireError): void {
		if (m.ok) this.pending.resolve(m.id, m.value)
		else this.pending.reject(m.id, wireError(m.error))
	}

	/** Fails one request: the reply was unreadable, or the carrier said nobody took it. */
	fail(id: number, err: Error): void {
		this.pending.reject(id, err)
	}

	/** Fails every request in flight at once (the other side died); how many there were. */
	failAll(err: Error): number {
		return this.pending.rejectAll(err)
	}

	/** Refuses new requests and fails those in flight: the runtime is closed. */
	close(): void {
		this.shut = true
		this.failAll(new RuntimeError('runtime_down', 'the runtime is closed'))
	}

	/** Refuses new requests, leaving those in flight to their answers (a close under way). */
	stopTaking(): void {
		this.shut = true
	}

	onEvent(listener: (event: RuntimeEvent) => void): () => void {
		this.listeners.add(listener)
		return () => this.listeners.delete(listener)
	}

	onRequest(listener: (event: RequestEvent) => void): () => void {
		this.requestListeners.add(listener)
		return () => this.requestListeners.delete(listener)
	}

	/** Tells each event listener; one that throws is logged and the others are still told. */
	emit(event: RuntimeEvent): void {
		for (const l of this.listeners) {
			try {
				l(event)
			} catch (err) {
				this.log.error('runtime event listener failed', { error: err instanceof Error ? err : String(err) })
			}
		}
	}

	/** Tells the request listeners (the conformance record) of a TDLib request on its way. */
	told(userbotId: number, request: { _: string }, label: string | undefined): void {
		if (this.requestListeners.size === 0) return
		const event: RequestEvent = { userbotId, request, label }
		for (const l of this.requestListeners) {
			try {
				l(event)
			} catch (err) {
				this.log.error('request listener failed', { error: err instanceof Error ? err : String(err) })
			}
		}
	}
}
