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
 * `limitBytes` means the client does not read: `onOverflow` closes the socket (1013) and the queue is
 * dropped with it, so a client either gets every reply or learns from the close that it did not.
 * A 0 from Bun is handled the same way.
 *
 * Live updates wait in the same queue, in order with the replies, but on a smaller budget of their
 * own (`updateLimitBytes`): past it the socket's waiting updates are dropped, never its replies, and
 * `onUpdatesDropped` says from which number on, per userbot (the hub then sends a `resync`).
 */
export const CLOSE_SLOW_CONSUMER = 1013
export const REASON_SLOW_CONSUMER = 'reply buffer full: the client does not read its replies'

interface Item {
	text: string
	/** Set for a live update: it may be dropped for a slow reader, a reply never is. */
	update?: { userbotId: number; seq: number }
}

interface Queue {
	items: Item[]
	/** UTF-8 bytes waiting while the socket is blocked (0 otherwise: the hot path counts nothing). */
	bytes: number
	/** Of those, the bytes of live updates. */
	updateBytes: number
	/** Bun buffered the last send: wait for `drain`. */
	blocked: boolean
}

export interface OutboxOptions {
	/** Bytes one socket may have waiting beyond what Bun buffers, before it is closed. */
	limitBytes: number
	/** The socket cannot take what it is sent: close it (the gateway says how). */
	onOverflow(ws: ServerWebSocket<unknown>): void
	/** Bytes of live updates one blocked socket may have waiting before they are dropped. */
	updateLimitBytes?: number
	/** The socket's waiting updates were dropped: for each userbot, the first number dropped. */
	onUpdatesDropped?(ws: ServerWebSocket<unknown>, firstDropped: ReadonlyMap<number, number>): void
}

export interface Outbox {
	send(ws: ServerWebSocket<unknown>, reply: string): void
	/** Queues a live update (`seq` of `userbotId`), which a slow reader may lose, being told so. */
	sendUpdate(ws: ServerWebSocket<unknown>, text: string, userbotId: number, seq: number): void
	/** Bun says the socket can take more: write what waits. */
	drain(ws: ServerWebSocket<unknown>): void
	/** Writes what waits for `ws` now (before a close), as far as the socket takes it. */
	flushNow(ws: ServerWebSocket<unknown>): void
	/** Drops what a closed socket still had queued. */
	forget(ws: ServerWebSocket<unknown>): void
	/** Bytes waiting for `ws` in its queue while it is blocked (tests, health). */
	waitingBytes(ws: ServerWebSocket<unknown>): number
}

export function createOutbox(opts: OutboxOptions): Outbox {
	const updateLimit = opts.updateLimitBytes ?? opts.limitBytes
	const queues = new Map<ServerWebSocket<unknown>, Queue>()
	const ready = new Set<ServerWebSocket<unknown>>()
	let scheduled = false

	const overflow = (ws: ServerWebSocket<unknown>) => {
		queues.delete(ws)
		ready.delete(ws)
		opts.onOverflow(ws)
	}

	/** Hands the queue to Bun until it is empty or Bun pushes back. */
	const write = (ws: ServerWebSocket<unknown>, q: Queue) => {
		let dropped = false
		try {
			ws.cork(() => {
				while (q.items.length > 0 && !q.blocked) {
					const item = q.items.shift()!
					if (q.bytes > 0) {
						const size = Buffer.byteLength(item.text)
						q.bytes = Math.max(0, q.bytes - size)
						if (item.update) q.updateBytes = Math.max(0, q.updateBytes - size)
					}
					const status = ws.send(item.text)
					if (status === 0) {
						dropped = true
						return
					}
					if (status === -1) q.blocked = true
				}
			})
		} catch {
			// The socket closed in between: its replies have nobody to go to.
			queues.delete(ws)
			return
		}
		// One turn's batch may be large: what Bun holds counts against the limit too.
		if (dropped || ws.getBufferedAmount() > opts.limitBytes) return overflow(ws)
		if (q.items.length === 0 && !q.blocked) queues.delete(ws)
		else if (q.blocked && q.bytes === 0) {
			// From now on what waits is counted against the limits.
			for (const item of q.items) {
				const size = Buffer.byteLength(item.text)
				q.bytes += size
				if (item.update) q.updateBytes += size
			}
			check(ws, q)
		}
	}

	/** While blocked: updates past their budget are dropped, anything past the limit closes. */
	const check = (ws: ServerWebSocket<unknown>, q: Queue) => {
		if (q.updateBytes > updateLimit) {
			const firsts = new Map<number, number>()
			q.items = q.items.filter((item) => {
				if (!item.update) return true
				const { userbotId, seq } = item.update
				if (!firsts.has(userbotId)) firsts.set(userbotId, seq)
				q.bytes -= Buffer.byteLength(item.text)
				return false
			})
			q.updateBytes = 0
			opts.onUpdatesDropped?.(ws, firsts)
		}
		if (q.bytes > opts.limitBytes) overflow(ws)
	}

	const flush = () => {
		scheduled = false
		const sockets = [...ready]
		ready.clear()
		for (const ws of sockets) {
			const q = queues.get(ws)
			if (q && !q.blocked) write(ws, q)
		}
	}

	const enqueue = (ws: ServerWebSocket<unknown>, item: Item) => {
		let q = queues.get(ws)
		if (!q) {
			q = { items: [], bytes: 0, updateBytes: 0, blocked: false }
			queues.set(ws, q)
		}
		q.items.push(item)
		if (q.blocked) {
			const size = Buffer.byteLength(item.text)
			q.bytes += size
			if (item.update) q.updateBytes += size
			check(ws, q)
			return
		}
		ready.add(ws)
		if (!scheduled) {
			scheduled = true
			setImmediate(flush)
		}
	}

	return {
		send(ws, reply) {
			enqueue(ws, { text: reply })
		},
		sendUpdate(ws, text, userbotId, seq) {
			enqueue(ws, { text, update: { userbotId, seq } })
		},
		drain(ws) {
			const q = queues.get(ws)
			if (!q) return
			q.blocked = false
			write(ws, q)
		},
		flushNow(ws) {
			const q = queues.get(ws)
			ready.delete(ws)
			if (q && !q.blocked) write(ws, q)
		},
		forget(ws) {
			queues.delete(ws)
			ready.delete(ws)
		},
		waitingBytes(ws) {
			return queues.get(ws)?.bytes ?? 0
		},
	}
}
