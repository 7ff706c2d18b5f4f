import type { ServerWebSocket } from 'bun'
import { Elysia } from 'elysia'
import type { UpgradeOutcome } from '../auth/types'
import type { CommandGroup } from '../commands/define'
import { createCommandRegistry, type RegisteredCommand } from '../commands/registry'
import type { AppContext, CompanyEvent } from '../context'
import { actorFields } from '../metrics/http'
import type { UpdateSink } from '../updates/hub'
import { CLOSE_SLOW_CONSUMER, CLOSE_TOO_BIG, REASON_SLOW_CONSUMER, REASON_TOO_BIG } from '../wire/close'
import { AUTHENTICATE, errorReply, FRAME_ERROR_TYPE, successReply } from '../wire/envelope'
import { MAX_FRAME_BYTES } from '../wire/limits'
import { createConnections } from './connections'
import { type ConnectionAction, createDispatcher } from './dispatch'
import { createOutbox } from './outbox'
import type { Connection } from './running'
import { GatewaySocket } from './socket'
import { subscriptionActions } from './subscriptions'

export { MAX_FRAME_BYTES } from '../wire/limits'

import { GatewayErrors as E, UpgradeRefusals } from '../wire/errors'

export interface Gateway {
	routes: Elysia
	/** Every command served, by wire name. */
	commands: ReadonlyMap<string, RegisteredCommand>
	publish(event: CompanyEvent): void
	/** Open sockets (of one user, if given), and what waits for them, here and in Bun's buffers. */
	stats(userId?: number): { sockets: number; waitingBytes: number }
	/**
	 * The server is stopping: no new socket is opened and no new command run; each socket closes
	 * with 1001 once its running commands are answered. Resolves when every socket has closed.
	 */
	goAway(): Promise<void>
}

const utf8 = new TextDecoder('utf-8', { fatal: true })

/** What Bun keeps per socket: Elysia's Bun adapter calls these handlers on `data`. */
interface SocketData {
	open(ws: ServerWebSocket<SocketData>): void
	message(ws: ServerWebSocket<SocketData>, message: string | Buffer): void
	drain(ws: ServerWebSocket<SocketData>): void
	close(ws: ServerWebSocket<SocketData>, code: number, reason: string): void
}

/**
 * The one `/ws` route: authentication at the upgrade, then one reply per command frame. Upgrading
 * ourselves (instead of `.ws()`) gives the dispatcher the raw frame, which it needs to tell `invalid
 * JSON` from JSON that is no object, and keeps the hot path free of the per-frame wrapper and parser
 * Elysia would add; Elysia's Bun adapter calls `ws.data.open / message / drain / close`.
 */
export function createGateway(ctx: AppContext, groups: readonly CommandGroup[]): Gateway {
	const registry = createCommandRegistry(groups)
	/** Each open socket and Bun's socket under it. */
	const open = new Map<GatewaySocket, ServerWebSocket<SocketData>>()
	const socketOf = new WeakMap<ServerWebSocket<unknown>, GatewaySocket>()
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
	const connections = createConnections(ctx)
	/** Set by goAway: resolved once the last socket has closed. */
	let leaving: { resolve(): void; done: Promise<void> } | null = null

	/** `authenticate`: a fresh access token of the same user renews the socket before it expires. */
	const authenticate: ConnectionAction = async (conn, frame, requestId) => {
		const fail = (error: string) => errorReply(null, `${AUTHENTICATE}_error`, error, requestId)
		const token = frame.access
		if (typeof token !== 'string' || token === '') return fail(E.ACCESS_REQUIRED)
		const outcome = await ctx.auth.authenticateAccess(token)
		if (!(conn instanceof GatewaySocket) || conn.state === 'ended' || conn.refusing !== null)
			return fail(conn.refusing ?? E.ACCESS_INVALID)
		if (!outcome.ok) return fail(E.ACCESS_INVALID)
		const now = conn.credential.principal
		if (outcome.principal.userId !== now.userId || outcome.principal.companyId !== now.companyId) {
			return fail(E.ACCESS_OTHER_USER)
		}
		if (!connections.renew(conn, outcome.credential, outcome.principal))
			return fail(conn.refusing ?? E.ACCESS_INVALID)
		return successReply(
			null,
			AUTHENTICATE,
			{ expires_at: Math.floor(outcome.credential.expiresAt / 1000) },
			requestId,
		)
	}
	const dispatcher = createDispatcher(ctx, registry, {
		connectionActions: new Map([
			[AUTHENTICATE, authenticate],
			...subscriptionActions(ctx, (conn) => sinks.get(conn)),
		]),
	})

	const onMessage = (socket: GatewaySocket, message: string | Buffer) => {
		if (socket.state === 'ended') return
		let text: string
		if (typeof message === 'string') {
			// UTF-8 never takes fewer bytes than UTF-16 code units, so only long frames need counting.
			if (message.length * 3 > MAX_FRAME_BYTES && Buffer.byteLength(message) > MAX_FRAME_BYTES) {
				socket.end(CLOSE_TOO_BIG, REASON_TOO_BIG)
				return
			}
			text = message
		} else {
			if (message.byteLength > MAX_FRAME_BYTES) {
				socket.end(CLOSE_TOO_BIG, REASON_TOO_BIG)
				return
			}
			try {
				text = utf8.decode(message)
			} catch {
				socket.send(errorReply(null, FRAME_ERROR_TYPE, E.INVALID_JSON, undefined))
				return
			}
		}
		dispatcher.handle(socket, text)
	}

	/** The socket exists only after the upgrade: it is made, indexed and checked at open. */
	const onOpen = (
		ws: ServerWebSocket<SocketData>,
		upgraded: Extract<UpgradeOutcome, { ok: true }>,
		client?: string,
	) => {
		const socket = new GatewaySocket(
			upgraded.credential,
			upgraded.principal,
			{
				write: (text) => outbox.send(ws, text),
				flush: () => outbox.flushNow(ws),
				close: (code, reason) => {
					outbox.forget(ws)
					ws.close(code, reason)
				},
				check: (credential) => ctx.auth.currentPrincipal(credential),
				checkFailed: (err, what) =>
					ctx.log.error(`credential check failed; ${what}`, {
						error: err instanceof Error ? err : String(err),
					}),
				observe: (action, outcome, seconds) => ctx.metrics.command(action, outcome, seconds),
			},
			client,
		)
		socketOf.set(ws, socket)
		open.set(socket, ws)
		const budget = ctx.config.updates.queueBytes
		sinks.set(socket, {
			deliver: (text) => socket.send(text),
			send: (text) => socket.send(text),
			writable: () => socket.state !== 'ended' && !outbox.blocked(ws) && outbox.pending(ws) < budget,
			blocked: () => socket.state === 'ended' || outbox.blocked(ws),
		})
		connections.opened(socket)
		// Upgraded while the server began to stop.
		if (leaving) socket.goAway()
		return socket
	}

	const routes = new Elysia({ name: 'gateway' }).route('WS', '/ws', async ({ request, server, set }) => {
		const outcome = await ctx.auth.authenticateUpgrade(request)
		if (leaving) {
			set.status = 503
			return { detail: UpgradeRefusals.SHUTTING_DOWN }
		}
		if (!outcome.ok) {
			set.status = outcome.status
			return outcome.body
		}
		if (!server) {
			set.status = 500
			return { detail: UpgradeRefusals.NO_SERVER }
		}
		// The session's access line, written when it closes (docs/operator.md).
		const client = ctx.auth.clientAddress(server, request)
		const openedAt = performance.now()
		let socket: GatewaySocket | undefined
		const data: SocketData = {
			open: (ws) => {
				socket = onOpen(ws, outcome, client)
			},
			message: (_ws, message) => {
				if (socket) onMessage(socket, message)
			},
			drain: (ws) => {
				outbox.drain(ws)
				const sink = socket && sinks.get(socket)
				if (sink && !outbox.blocked(ws)) ctx.updates.pump(sink)
			},
			close: (ws, code) => {
				ctx.log.info('ws', {
					method: 'WS',
					route: '/ws',
					status: code,
					ms: Math.round((performance.now() - openedAt) * 10) / 10,
					client,
					...actorFields(socket?.principal ?? outcome.principal),
				})
				outbox.forget(ws)
				if (!socket) return
				const sink = sinks.get(socket)
				if (sink) ctx.updates.dropSink(sink)
				open.delete(socket)
				connections.closed(socket)
				if (leaving && open.size === 0) leaving.resolve()
			},
		}
		const upgraded = server.upgrade(request, { data })
		if (!upgraded) {
			set.status = 400
			return { detail: UpgradeRefusals.NOT_AN_UPGRADE }
		}
	})

	return {
		routes: routes as unknown as Elysia,
		commands: registry,
		publish: connections.publish,
		stats(userId) {
			let sockets = 0
			let waitingBytes = 0
			for (const [socket, ws] of open) {
				if (userId !== undefined && socket.principal.userId !== userId) continue
				sockets++
				waitingBytes += outbox.pending(ws)
			}
			return { sockets, waitingBytes }
		},
		goAway() {
			if (!leaving) {
				let resolve = () => {}
				const done = new Promise<void>((r) => {
					resolve = r
				})
				leaving = { resolve, done }
				for (const socket of [...open.keys()]) socket.goAway()
				if (open.size === 0) resolve()
			}
			return leaving.done
		},
	}
}
