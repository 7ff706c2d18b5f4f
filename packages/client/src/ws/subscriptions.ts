import { SUBSCRIBE, UPDATE } from '../../../../src/common/wire/envelope'
import { ClientError } from './errors'
import type { ResyncEvent, UpdateEvent, UpdateFilter } from './types'

type StreamEvent = UpdateEvent | ResyncEvent

/** What `updates()` takes: the kinds, where to resume, and the filter (docs/live-updates.md). */
export interface SubscribeOptions {
	kinds?: readonly string[]
	after?: number
	filter?: UpdateFilter
}

/** A userbot's live updates: iterate them; `ready` resolves once subscribed, with the last seq then. */
export interface UpdateStream extends AsyncIterableIterator<StreamEvent> {
	readonly ready: Promise<number>
	/** Ends the subscription (the iterator finishes). */
	close(): Promise<void>
}

export interface Subscription {
	userbotId: number
	kinds?: readonly string[]
	/** Sent again on every resubscription: a reconnect keeps it. */
	filter?: UpdateFilter
	/** The last seq seen (or the server's last when subscribed live); undefined before the first reply. */
	lastSeq?: number
	queue: StreamEvent[]
	waiting: Array<(r: IteratorResult<StreamEvent>) => void>
	ended: boolean
	failure?: Error
	ready: { promise: Promise<number>; resolve(seq: number): void; reject(err: Error): void; settled: boolean }
}

/**
 * The client's subscriptions, one per userbot: what each has seen, its queue of events not yet read,
 * and its end. They are resumed after a reconnect or a resync from the last seq seen.
 */
export interface Subscriptions {
	readonly size: number
	all(): IterableIterator<Subscription>
	add(userbotId: number, opts: SubscribeOptions): Subscription
	/** Queues an update or resync for its stream; a resync answers its subscription, to subscribe again. */
	receive(event: StreamEvent): Subscription | undefined
	end(sub: Subscription, failure?: Error): void
	endAll(failure?: Error): void
}

export function createSubscriptions(): Subscriptions {
	const subscriptions = new Map<number, Subscription>()
	const end = (sub: Subscription, failure?: Error) => {
		if (sub.ended) return
		sub.ended = true
		sub.failure = failure
		subscriptions.delete(sub.userbotId)
		if (!sub.ready.settled) {
			sub.ready.settled = true
			sub.ready.reject(failure ?? new ClientError('client_closed', 'the subscription ended'))
		}
		for (const w of sub.waiting.splice(0)) w({ value: undefined, done: true })
	}
	return {
		get size() {
			return subscriptions.size
		},
		all: () => subscriptions.values(),
		add(userbotId, opts) {
			if (subscriptions.has(userbotId)) throw new Error(`already subscribed to userbot ${userbotId}`)
			const sub = newSubscription(userbotId, opts)
			subscriptions.set(userbotId, sub)
			return sub
		},
		receive(event) {
			const sub = subscriptions.get(event.userbot_id)
			if (!sub || sub.ended) return undefined
			if (event.type === UPDATE) {
				// A resubscription may replay what was already seen.
				if (sub.lastSeq !== undefined && event.seq <= sub.lastSeq) return undefined
				sub.lastSeq = event.seq
				push(sub, event)
				return undefined
			}
			// The earliest the server still has is `seq`: go on from there, and say what was lost.
			sub.lastSeq = event.seq - 1
			push(sub, event)
			return sub
		},
		end,
		endAll(failure) {
			for (const sub of subscriptions.values()) end(sub, failure)
		},
	}
}

function newSubscription(userbotId: number, opts: SubscribeOptions): Subscription {
	let resolve: (n: number) => void = () => {}
	let reject: (e: Error) => void = () => {}
	const promise = new Promise<number>((res, rej) => {
		resolve = res
		reject = rej
	})
	// Nobody may be awaiting `ready`: its failure also ends the iterator, which says so.
	promise.catch(() => {})
	return {
		userbotId,
		kinds: opts.kinds,
		...(opts.filter ? { filter: opts.filter } : {}),
		lastSeq: opts.after,
		queue: [],
		waiting: [],
		ended: false,
		ready: { promise, resolve, reject, settled: false },
	}
}

function push(sub: Subscription, event: StreamEvent): void {
	const waiter = sub.waiting.shift()
	if (waiter) waiter({ value: event, done: false })
	else sub.queue.push(event)
}

/** The `subscribe` frame that (re)starts `sub` from the last seq it saw. */
export function subscribeFrame(sub: Subscription): Record<string, unknown> & { action: string } {
	return {
		action: SUBSCRIBE,
		userbot_id: sub.userbotId,
		...(sub.kinds ? { updates: sub.kinds } : {}),
		...(sub.filter ? { filter: sub.filter } : {}),
		...(sub.lastSeq !== undefined ? { after: sub.lastSeq } : {}),
	}
}

/** The server took the subscription; `lastSeq` is its last seq then. */
export function subscribed(sub: Subscription, lastSeq: number): void {
	if (sub.lastSeq === undefined) sub.lastSeq = lastSeq
	if (!sub.ready.settled) {
		sub.ready.settled = true
		sub.ready.resolve(lastSeq)
	}
}

/** The iterator a caller reads `sub` with; `close` ends the subscription (once). */
export function updateStream(sub: Subscription, close: () => Promise<void>): UpdateStream {
	const stream: UpdateStream = {
		ready: sub.ready.promise,
		[Symbol.asyncIterator]() {
			return stream
		},
		next() {
			const queued = sub.queue.shift()
			if (queued) return Promise.resolve({ value: queued, done: false })
			if (sub.ended) {
				return sub.failure ? Promise.reject(sub.failure) : Promise.resolve({ value: undefined, done: true })
			}
			return new Promise((resolve) => sub.waiting.push(resolve))
		},
		async return() {
			await stream.close()
			return { value: undefined, done: true }
		},
		async close() {
			if (sub.ended) return
			await close()
		},
	}
	return stream
}
