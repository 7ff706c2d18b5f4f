import type { ServerWebSocket } from 'bun'

/**
 * Everything the gateway sends leaves here, in batches and never silently lost.
 *
 * Batches: a reply is mostly sent from a promise continuation (the runtime's answer), outside the
 * callbacks Bun corks by itself, so each `send` would be one write system call. Replies queue per
 * socket instead, and one `setImmediate` per event-loop turn writes every queue inside `cork`: one
 * write per socket per turn, however many replies the turn produced.
 *
 * Never silently lost: Bun's `send` answers -1 when it had to buffer the message (the client reads
 * slower than we write) and 0 when it dropped it. After a -1 nothing more is handed to Bun for that
 * socket until its `drain`; replies wait in the socket's own queue, counted in bytes. A queue past
 * `limitBytes` means the client does not read: `onOverflow` closes the socket (1013, src/common/wire/close.ts) and the queue is
 * dropped with it, so a client either gets every reply or learns from the close that it did not.
 * A 0 from Bun is handled the same way.
 *
 * Live updates do not pile up here: the update hub sends them only while `pending` is under its
 * budget and the socket is not `blocked`, and waits in its own shared stream otherwise.
 */

interface Queue {
	items: string[]
	/** UTF-16 length of what waits (cheap to keep on the hot path; a byte is at most 3 of them). */
	chars: number
	/** UTF-8 bytes waiting while the socket is blocked (0 otherwise: the hot path counts nothing). */
	bytes: number
	/** Bun buffered the last send: wait for `drain`. */
	blocked: boolean
}

export interface OutboxOptions {
	/** Bytes one socket may have waiting beyond what Bun buffers, before it is closed. */
	limitBytes: number
	/** The socket cannot take what it is sent: close it (the gateway says how). */
	onOverflow(ws: ServerWebSocket<unknown>): void
}

export interface Outbox {
	send(ws: ServerWebSocket<unknown>, reply: string): void
	/** Bun says the socket can take more: write what waits. */
	drain(ws: ServerWebSocket<unknown>): void
	/** Writes what waits for `ws` now (before a close), as far as the socket takes it. */
	flushNow(ws: ServerWebSocket<unknown>): void
	/** Drops what a closed socket still had queued. */
	forget(ws: ServerWebSocket<unknown>): void
	/** What waits for `ws`, here and in Bun's buffer (roughly, in characters). */
	pending(ws: ServerWebSocket<unknown>): number
	/** Whether Bun pushed back on `ws` and we wait for its drain. */
	blocked(ws: ServerWebSocket<unknown>): boolean
	/** Bytes waiting for `ws` in its queue while it is blocked (tests, health). */
	waitingBytes(ws: ServerWebSocket<unknown>): number
}

export function createOutbox(opts: OutboxOptions): Outbox {
	return new SocketOutbox(opts)
}

class SocketOutbox implements Outbox {
	readonly #queues = new Map<ServerWebSocket<unknown>, Queue>()
	/** Sockets with replies for the next flush. */
	readonly #ready = new Set<ServerWebSocket<unknown>>()
	#scheduled = false

	constructor(private readonly opts: OutboxOptions) {}

	send(ws: ServerWebSocket<unknown>, reply: string): void {
		let q = this.#queues.get(ws)
		if (!q) {
			q = { items: [], chars: 0, bytes: 0, blocked: false }
			this.#queues.set(ws, q)
		}
		q.items.push(reply)
		q.chars += reply.length
		if (q.blocked) {
			q.bytes += Buffer.byteLength(reply)
			if (q.bytes > this.opts.limitBytes) this.#overflow(ws)
			return
		}
		this.#ready.add(ws)
		if (!this.#scheduled) {
			this.#scheduled = true
			setImmediate(() => this.#flush())
		}
	}

	drain(ws: ServerWebSocket<unknown>): void {
		const q = this.#queues.get(ws)
		if (!q) return
		q.blocked = false
		this.#write(ws, q)
	}

	flushNow(ws: ServerWebSocket<unknown>): void {
		const q = this.#queues.get(ws)
		this.#ready.delete(ws)
		if (q && !q.blocked) this.#write(ws, q)
	}

	forget(ws: ServerWebSocket<unknown>): void {
		this.#queues.delete(ws)
		this.#ready.delete(ws)
	}

	pending(ws: ServerWebSocket<unknown>): number {
		let buffered = 0
		try {
			buffered = ws.getBufferedAmount()
		} catch {
			// closed
		}
		return (this.#queues.get(ws)?.chars ?? 0) + buffered
	}

	blocked(ws: ServerWebSocket<unknown>): boolean {
		return this.#queues.get(ws)?.blocked === true
	}

	waitingBytes(ws: ServerWebSocket<unknown>): number {
		return this.#queues.get(ws)?.bytes ?? 0
	}

	#overflow(ws: ServerWebSocket<unknown>): void {
		this.#queues.delete(ws)
		this.#ready.delete(ws)
		this.opts.onOverflow(ws)
	}

	/** Writes every queue that waits, once per event-loop turn. */
	#flush(): void {
		this.#scheduled = false
		const sockets = [...this.#ready]
		this.#ready.clear()
		for (const ws of sockets) {
			const q = this.#queues.get(ws)
			if (q && !q.blocked) this.#write(ws, q)
		}
	}

	/** Hands the queue to Bun until it is empty or Bun pushes back. */
	#write(ws: ServerWebSocket<unknown>, q: Queue): void {
		let dropped: boolean
		try {
			dropped = handOver(ws, q)
		} catch {
			// The socket closed in between: its replies have nobody to go to.
			this.#queues.delete(ws)
			return
		}
		const limit = this.opts.limitBytes
		// One turn's batch may be large: what Bun holds counts against the limit too.
		if (dropped || ws.getBufferedAmount() > limit) this.#overflow(ws)
		else if (q.items.length === 0 && !q.blocked) this.#queues.delete(ws)
		else if (q.blocked && q.bytes === 0) {
			// From now on what waits is counted against the limit.
			q.bytes = q.items.reduce((n, r) => n + Buffer.byteLength(r), 0)
			if (q.bytes > limit) this.#overflow(ws)
		}
	}
}

/**
 * One corked write of what waits, until the queue is empty or Bun buffers (-1: `blocked`, wait for
 * the drain); true when Bun dropped a reply (0).
 */
function handOver(ws: ServerWebSocket<unknown>, q: Queue): boolean {
	let dropped = false
	ws.cork(() => {
		while (q.items.length > 0 && !q.blocked) {
			const reply = q.items.shift()!
			q.chars -= reply.length
			if (q.bytes > 0) q.bytes = Math.max(0, q.bytes - Buffer.byteLength(reply))
			const status = ws.send(reply)
			if (status === 0) {
				dropped = true
				return
			}
			if (status === -1) q.blocked = true
		}
	})
	return dropped
}
