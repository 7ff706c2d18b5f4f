// Types of raw-ws.mjs, for the TypeScript tests that use it.
import type { Socket } from 'node:net'

/** One masked text frame (opcode 1) of `text`'s bytes: a Buffer is sent as it is, UTF-8 or not. */
export function frame(text: string | Uint8Array): Buffer

export interface RawWebSocket {
	socket: Socket
	/** Resolves at the 101, rejects otherwise. */
	upgraded: Promise<void>
	send(text: string): boolean
}

export function openRawWebSocket(
	url: string,
	token: string,
	handlers: {
		/** Returning false stops reading the rest of that chunk. */
		onText(text: string, bytes: number): unknown
		onClose(close: { code: number; reason: string }): void
		onEnd(): void
	},
): RawWebSocket
