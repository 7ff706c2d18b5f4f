import type { Logger } from '../../common/util/logger'
import { RuntimeError } from '../telegram/types'
import { PendingRequests } from './pending'
import {
	type ChildMessage,
	fromWireError,
	type ParentMessage,
	type StartMessage,
	type StopMessage,
	type WireError,
} from './protocol'
import type { RequestEvent, RuntimeEvent, StartClientOptions } from './types'

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

/** The protocol's `start` of a client, its proxy only when it has one (the id is the channel's). */
export function startMessage(userbotId: number, o: StartClientOptions): StartMessage & { id: number } {
	return {
		type: 'start',
		id: 0,
		userbotId,
		encryptionKey: o.encryptionKey,
		...(o.proxy ? { proxy: o.proxy } : {}),
	}
}

/** The protocol's `stop`, and how long it may take: a log-out waits for Telegram, a stop for the client. */
export function stopRequest(
	userbotId: number,
	o: { logOut: boolean; removeData: boolean },
	commandTimeoutMs: number,
): { msg: StopMessage & { id: number }; timeoutMs: number } {
	return {
		msg: { type: 'stop', id: 0, userbotId, logOut: o.logOut, removeData: o.removeData },
		timeoutMs: commandTimeoutMs + (o.logOut ? 15_000 : 5_000),
	}
}

/** A client's authorization state as the runtime tells it, its detail only when it has one. */
export function authorizationStateEvent(
	userbotId: number,
	state: string,
	detail: Record<string, unknown> | undefined,
): RuntimeEvent {
	return detail
		? { type: 'authorization_state', userbotId, state, detail }
		: { type: 'authorization_state', userbotId, state }
}
