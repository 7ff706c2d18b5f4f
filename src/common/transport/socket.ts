import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Socket } from 'bun'
import { createBatchedWriter, createCloseSignal, createLineDecoder, type Transport } from './index'

/** Unix socket paths are limited to ~104 bytes; stay well under. */
const MAX_SOCKET_PATH = 100

interface SocketState {
	transport?: Transport
	feed?: (chunk: Uint8Array) => void
	drain?: () => void
	closed?: () => void
}

/** Wraps one connected socket as a transport: NDJSON, writes batched per turn, backpressure kept. */
function wrap(socket: Socket<SocketState>, onBad: (line: string) => void): Transport {
	const messageListeners: Array<(m: unknown) => void> = []
	const close = createCloseSignal()
	let backlog: Buffer | null = null
	// Strings go to the socket as they are: a Buffer per batch is only made for what did not fit.
	const write = (chunk: string | Buffer) => {
		if (close.closed) return
		if (backlog) {
			backlog = Buffer.concat([backlog, typeof chunk === 'string' ? Buffer.from(chunk) : chunk])
			return
		}
		const size = typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length
		const n = socket.write(chunk)
		if (n < size) backlog = (typeof chunk === 'string' ? Buffer.from(chunk) : chunk).subarray(Math.max(n, 0))
	}
	const writer = createBatchedWriter(write)
	socket.data.feed = createLineDecoder((value) => {
		for (const l of messageListeners) l(value)
	}, onBad)
	socket.data.drain = () => {
		if (!backlog) return
		const buf = backlog
		backlog = null
		write(buf)
	}
	socket.data.closed = () => close.fire()
	const transport: Transport = {
		send: (message) => writer.push(message),
		onMessage: (l) => messageListeners.push(l),
		onClose: (l) => close.on(l),
		close() {
			if (close.closed) return
			writer.flush()
			socket.end()
			close.fire()
		},
	}
	socket.data.transport = transport
	return transport
}

const handlers = {
	data(socket: Socket<SocketState>, data: Uint8Array) {
		socket.data.feed?.(data)
	},
	drain(socket: Socket<SocketState>) {
		socket.data.drain?.()
	},
	close(socket: Socket<SocketState>) {
		socket.data.closed?.()
	},
	error(socket: Socket<SocketState>) {
		socket.data.closed?.()
	},
}

/** Picks a socket path under `dataDir/run`, or a private temp folder when that path is too long. */
export function socketPath(dataDir: string, name: string): { path: string; cleanup: () => void } {
	const dir = join(dataDir, 'run')
	const path = join(dir, `${name}.sock`)
	if (path.length < MAX_SOCKET_PATH) {
		mkdirSync(dir, { recursive: true, mode: 0o700 })
		if (existsSync(path)) rmSync(path, { force: true })
		return { path, cleanup: () => rmSync(path, { force: true }) }
	}
	const tmp = mkdtempSync(join(tmpdir(), 'ubg-'))
	return { path: join(tmp, 's.sock'), cleanup: () => rmSync(tmp, { recursive: true, force: true }) }
}

/** Listens on a Unix socket; each accepted connection becomes a transport. */
export function listenSocket(
	path: string,
	onConnection: (t: Transport) => void,
	onBad: (line: string) => void,
) {
	const server = Bun.listen<SocketState>({
		unix: path,
		socket: {
			...handlers,
			open(socket) {
				socket.data = {}
				onConnection(wrap(socket, onBad))
			},
		},
	})
	/** `stop(false)` stops accepting and leaves the open connections be. */
	return { stop: (closeActive = true) => server.stop(closeActive) }
}

/** Connects to a Unix socket (child side). */
export async function connectSocket(path: string, onBad: (line: string) => void): Promise<Transport> {
	const socket = await Bun.connect<SocketState>({ unix: path, socket: handlers, data: {} })
	return wrap(socket, onBad)
}
