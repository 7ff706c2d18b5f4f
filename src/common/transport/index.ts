/**
 * How protocol messages travel between the HTTP process and a supervisor. A transport moves
 * plain JSON objects and knows nothing of their meaning; both ends validate with `protocol.ts`.
 */
export interface Transport {
	send(message: object): void
	onMessage(listener: (message: unknown) => void): void
	/** Called once, when the other end goes away or `close()` is called. */
	onClose(listener: () => void): void
	close(): void
}

/** Splits a byte stream into newline-delimited JSON values; a bad line goes to `onBad`. */
export function createLineDecoder(onValue: (value: unknown) => void, onBad: (line: string) => void) {
	const decoder = new TextDecoder()
	let rest = ''
	return (chunk: Uint8Array) => {
		const text = rest + decoder.decode(chunk, { stream: true })
		let start = 0
		for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
			const line = text.slice(start, nl)
			start = nl + 1
			if (line.length === 0) continue
			let value: unknown
			try {
				value = JSON.parse(line)
			} catch {
				onBad(line)
				continue
			}
			onValue(value)
		}
		rest = text.slice(start)
	}
}

/**
 * Collects messages sent during one event-loop turn into a single newline-delimited write: one
 * write of many messages carries several times more than one write per message.
 */
export function createBatchedWriter(write: (chunk: string) => void) {
	let queue: string[] = []
	let scheduled = false
	const flush = () => {
		scheduled = false
		if (queue.length === 0) return
		const chunk = `${queue.join('\n')}\n`
		queue = []
		write(chunk)
	}
	return {
		push(message: object) {
			queue.push(JSON.stringify(message))
			if (!scheduled) {
				scheduled = true
				setImmediate(flush)
			}
		},
		flush,
	}
}

/** A tiny one-shot close notifier shared by the transports. */
export function createCloseSignal() {
	const listeners: Array<() => void> = []
	let closed = false
	return {
		get closed() {
			return closed
		},
		on(listener: () => void) {
			if (closed) queueMicrotask(listener)
			else listeners.push(listener)
		},
		fire() {
			if (closed) return
			closed = true
			for (const l of listeners.splice(0)) l()
		},
	}
}
