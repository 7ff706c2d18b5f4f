import type { Subprocess } from 'bun'
import { createCloseSignal, type Transport } from './index'

/**
 * Bun's built-in IPC channel (serialization 'json'). Simpler than the socket, one message per
 * write: kept as the `ipc` option and as a baseline for the socket.
 */
export function createIpcParentTransport() {
	const listeners: Array<(m: unknown) => void> = []
	const close = createCloseSignal()
	let proc: Subprocess | null = null
	const transport: Transport = {
		send(message) {
			if (!close.closed) proc?.send(message)
		},
		onMessage: (l) => listeners.push(l),
		onClose: (l) => close.on(l),
		close() {
			if (close.closed) return
			try {
				proc?.disconnect()
			} catch {
				// already gone
			}
			close.fire()
		},
	}
	return {
		transport,
		/** Goes into `Bun.spawn({ ipc })`. */
		ipc(message: unknown) {
			for (const l of listeners) l(message)
		},
		attach(p: Subprocess) {
			proc = p
			void p.exited.then(() => close.fire())
		},
	}
}

/** The child's end of Bun's IPC channel. */
export function createIpcChildTransport(): Transport {
	const close = createCloseSignal()
	process.on('disconnect', () => close.fire())
	return {
		send(message) {
			if (!close.closed) process.send?.(message)
		},
		onMessage: (l) => process.on('message', l),
		onClose: (l) => close.on(l),
		close() {
			if (close.closed) return
			try {
				process.disconnect?.()
			} catch {
				// already gone
			}
			close.fire()
		},
	}
}
