import type { ServerWebSocket } from 'bun'
import { CLOSE_SLOW_CONSUMER, REASON_SLOW_CONSUMER } from '../../common/wire/close'
import type { UpgradeOutcome } from '../auth/types'
import type { AppContext } from '../context'
import type { UpdateSink } from '../updates/hub'
import type { Connections } from './connections'
import { createOutbox, type Outbox } from './outbox'
import type { Connection } from './running'
import { GatewaySocket, type SocketPorts } from './socket'

type Ws = ServerWebSocket<unknown>

export type OpenSockets = ReturnType<typeof createOpenSockets>

/**
 * The gateway's open sockets, each with Bun's socket under it, its outbox queue and its sink of live
 * updates: made at open, dropped at close, counted for health, sent away when the server stops.
 */
export function createOpenSockets(ctx: AppContext, connections: Connections) {
	const open = new Map<GatewaySocket, Ws>()
	const socketOf = new WeakMap<Ws, GatewaySocket>()
	const sinks = new WeakMap<Connection, UpdateSink>()
	const outbox = createOutbox({
		limitBytes: ctx.config.wsSendBufferBytes,
		onOverflow: (ws) => {
			const socket = socketOf.get(ws)
			if (!socket || socket.state === 'ended') return
			ctx.log.warn('closing a WebSocket that does not read its replies', { userId: socket.principal.userId })
			socket.end(CLOSE_SLOW_CONSUMER, REASON_SLOW_CONSUMER)
		},
	})
	/** Set by goAway: resolved once the last socket has closed. */
	let leaving: PromiseWithResolvers<void> | null = null

	return {
		/** The server is stopping: no socket is opened any more. */
		get leaving(): boolean {
			return leaving !== null
		},
		sinkOf: (conn: Connection) => sinks.get(conn),
		/** The socket exists only after the upgrade: it is made, indexed and checked at open. */
		opened(ws: Ws, upgraded: Extract<UpgradeOutcome, { ok: true }>, client?: string): GatewaySocket {
			const ports = socketPorts(ctx, outbox, ws)
			const socket = new GatewaySocket(upgraded.credential, upgraded.principal, ports, client)
			socketOf.set(ws, socket)
			open.set(socket, ws)
			sinks.set(socket, updateSink(socket, outbox, ws, ctx.config.updates.queueBytes))
			connections.opened(socket)
			// Upgraded while the server began to stop.
			if (leaving) socket.goAway()
			return socket
		},
		/** Bun says `ws` takes more: what waits goes out, then live updates if it kept up. */
		drained(ws: Ws, socket: GatewaySocket | undefined): void {
			outbox.drain(ws)
			const sink = socket && sinks.get(socket)
			if (sink && !outbox.blocked(ws)) ctx.updates.pump(sink)
		},
		closed(ws: Ws, socket: GatewaySocket | undefined): void {
			outbox.forget(ws)
			if (!socket) return
			const sink = sinks.get(socket)
			if (sink) ctx.updates.dropSink(sink)
			open.delete(socket)
			connections.closed(socket)
			if (leaving && open.size === 0) leaving.resolve()
		},
		/** Open sockets (of one user, if given), and what waits for them, here and in Bun's buffers. */
		stats: (userId?: number) => countSockets(open, outbox, userId),
		goAway(): Promise<void> {
			if (!leaving) {
				leaving = Promise.withResolvers<void>()
				for (const socket of [...open.keys()]) socket.goAway()
				if (open.size === 0) leaving.resolve()
			}
			return leaving.promise
		},
	}
}

/** What a socket uses of the world: its outbox queue on Bun's socket, and the auth core. */
function socketPorts(ctx: AppContext, outbox: Outbox, ws: Ws): SocketPorts {
	return {
		write: (text) => outbox.send(ws, text),
		flush: () => outbox.flushNow(ws),
		close: (code, reason) => {
			outbox.forget(ws)
			ws.close(code, reason)
		},
		check: (credential) => ctx.auth.currentPrincipal(credential),
		checkFailed: (err, what) =>
			ctx.log.error(`credential check failed; ${what}`, { error: err instanceof Error ? err : String(err) }),
		observe: (action, outcome, seconds) => ctx.metrics.command(action, outcome, seconds),
	}
}

/** Where the update hub sends a socket's live updates: only while it reads, within `budget`. */
function updateSink(socket: GatewaySocket, outbox: Outbox, ws: Ws, budget: number): UpdateSink {
	return {
		deliver: (text) => socket.send(text),
		send: (text) => socket.send(text),
		writable: () => socket.state !== 'ended' && !outbox.blocked(ws) && outbox.pending(ws) < budget,
		blocked: () => socket.state === 'ended' || outbox.blocked(ws),
	}
}

function countSockets(open: ReadonlyMap<GatewaySocket, Ws>, outbox: Outbox, userId: number | undefined) {
	let sockets = 0
	let waitingBytes = 0
	for (const [socket, ws] of open) {
		if (userId !== undefined && socket.principal.userId !== userId) continue
		sockets++
		waitingBytes += outbox.pending(ws)
	}
	return { sockets, waitingBytes }
}
