import type { ServerWebSocket } from 'bun'

/**
 * Replies leave in batches. A reply is mostly sent from a promise continuation (the runtime's
 * answer), outside the callbacks Bun corks by itself, so each `send` would be one write system
 * call. Replies queue per socket instead, and one `setImmediate` per event-loop turn writes every
 * queue inside `cork`: one write per socket per turn, however many replies the turn produced.
 */
export function createOutbox() {
	const queues = new Map<ServerWebSocket<unknown>, string[]>()
	let scheduled = false

	const flush = () => {
		scheduled = false
		for (const [ws, queue] of queues) {
			try {
				ws.cork(() => {
					for (const reply of queue) ws.send(reply)
				})
			} catch {
				// The socket closed in between: its replies have nobody to go to.
			}
		}
		queues.clear()
	}

	return {
		send(ws: ServerWebSocket<unknown>, reply: string) {
			const queue = queues.get(ws)
			if (queue) queue.push(reply)
			else queues.set(ws, [reply])
			if (!scheduled) {
				scheduled = true
				setImmediate(flush)
			}
		},
		/** Drops what a closed socket still had queued. */
		forget(ws: ServerWebSocket<unknown>) {
			queues.delete(ws)
		},
	}
}
