import { Elysia } from 'elysia'
import type { CommandGroup } from '../commands/define'
import { createCommandRegistry, type RegisteredCommand } from '../commands/registry'
import type { AppContext, CompanyEvent } from '../context'
import { actorFields } from '../metrics/http'
import type { UpdateSink } from '../updates/hub'
import { createConnections, type Socket, type SocketData } from './connections'
import { type ConnectionAction, createDispatcher } from './dispatch'
import { GatewayErrors as E, FRAME_ERROR_TYPE } from './errors'
import { CLOSE_SLOW_CONSUMER, createOutbox, REASON_SLOW_CONSUMER } from './outbox'
import { errorReply, successReply } from './replies'
import type { Connection } from './running'
import { subscriptionActions } from './subscriptions'

export {
	CLOSE_GOING_AWAY,
	CLOSE_POLICY,
	REASON_EXPIRED,
	REASON_REVOKED,
	REASON_SHUTTING_DOWN,
} from './connections'
export { CLOSE_SLOW_CONSUMER, REASON_SLOW_CONSUMER } from './outbox'

/** A frame over 1 MiB closes the connection with 1009, message too big (docs/protocol.md#close-codes). */
export const MAX_FRAME_BYTES = 1024 * 1024
export const CLOSE_TOO_BIG = 1009

/** The frame that renews a socket's credential in band: `{"action": "authenticate", "access": ...}`. */
export const AUTHENTICATE = 'authenticate'

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

/**
 * The one `/ws` route: authentication at the upgrade, then one reply per command frame. Upgrading
 * ourselves (instead of `.ws()`) gives the dispatcher the raw frame, which it needs to tell `invalid
 * JSON` from JSON that is no object, and keeps the hot path free of the per-frame wrapper and parser
 * Elysia would add; Elysia's Bun adapter calls `ws.data.open / message / drain / close`.
 */
export function createGateway(ctx: AppContext, groups: readonly CommandGroup[]): Gateway {
	const registry = createCommandRegistry(groups)
	const sinks = new WeakMap<Connection, UpdateSink>()
	const outbox = createOutbox({
		limitBytes: ctx.config.wsSendBufferBytes,
		onOverflow: (ws) => {
			const data = (ws as Socket).data
			if (data.ended) return
			ctx.log.warn('closing a WebSocket that does not read its replies', {
				userId: data.conn.principal.userId,
			})
			data.ended = true
			data.conn.send = () => {}
			ws.close(CLOSE_SLOW_CONSUMER, REASON_SLOW_CONSUMER)
		},
	})
	const connections = createConnections(ctx, outbox)
	const open = new Set<Socket>()
	const sockets = new WeakMap<Connection, Socket>()
	/** Set by goAway: resolved once the last socket has closed. */
	let leaving: { resolve(): void; done: Promise<void> } | null = null

	/** `authenticate`: a fresh access token of the same user renews the socket before it expires. */
	const authenticate: ConnectionAction = async (conn, frame, requestId) => {
		const fail = (error: string) => errorReply(null, `${AUTHENTICATE}_error`, error, requestId)
		const ws = sockets.get(conn)
		const token = frame.access
		if (typeof token !== 'string' || token === '') return fail(E.ACCESS_REQUIRED)
		const outcome = await ctx.auth.authenticateAccess(token)
		if (!ws || ws.data.ended || conn.refusing !== null) return fail(conn.refusing ?? E.ACCESS_INVALID)
		if (!outcome.ok) return fail(E.ACCESS_INVALID)
		const now = ws.data.credential.principal
		if (outcome.principal.userId !== now.userId || outcome.principal.companyId !== now.companyId) {
			return fail(E.ACCESS_OTHER_USER)
		}
		conn.principal = outcome.principal
		connections.renew(ws, outcome.credential)
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

	const onMessage = (ws: Socket, message: string | Buffer) => {
		const conn = ws.data.conn
		if (ws.data.ended) return
		let text: string
		if (typeof message === 'string') {
			// UTF-8 never takes fewer bytes than UTF-16 code units, so only long frames need counting.
			if (message.length * 3 > MAX_FRAME_BYTES && Buffer.byteLength(message) > MAX_FRAME_BYTES) {
				return ws.close(CLOSE_TOO_BIG, 'message too big')
			}
			text = message
		} else {
			if (message.byteLength > MAX_FRAME_BYTES) return ws.close(CLOSE_TOO_BIG, 'message too big')
			try {
				text = utf8.decode(message)
			} catch {
				return conn.send(errorReply(null, FRAME_ERROR_TYPE, E.INVALID_JSON, undefined))
			}
		}
		dispatcher.handle(conn, text)
	}

	const onOpen = (ws: Socket) => {
		const data = ws.data
		// The socket exists only after the upgrade: the connection learns how to send at open.
		data.conn.send = (reply) => outbox.send(ws, reply)
		data.conn.admit = () => connections.admit(ws)
		data.conn.settled = () => connections.settled(ws)
		sockets.set(data.conn, ws)
		open.add(ws)
		const budget = ctx.config.updates.queueBytes
		sinks.set(data.conn, {
			deliver: (text) => data.conn.send(text),
			send: (text) => data.conn.send(text),
			writable: () => !data.ended && !outbox.blocked(ws) && outbox.pending(ws) < budget,
			blocked: () => data.ended || outbox.blocked(ws),
		})
		connections.opened(ws)
		// Upgraded while the server began to stop.
		if (leaving) connections.goAway(ws)
	}

	const routes = new Elysia({ name: 'gateway' }).route('WS', '/ws', async ({ request, server, set }) => {
		const outcome = await ctx.auth.authenticateUpgrade(request)
		if (leaving) {
			set.status = 503
			return { detail: 'The server is shutting down.' }
		}
		if (!outcome.ok) {
			set.status = outcome.status
			return outcome.body
		}
		if (!server) {
			set.status = 500
			return { detail: 'WebSocket needs a running server.' }
		}
		const closed = new AbortController()
		// The session's access line, written when it closes (docs/operator.md).
		const client = ctx.auth.clientAddress(server, request)
		const openedAt = performance.now()
		const data: SocketData = {
			open: onOpen,
			message: onMessage,
			drain: (ws) => {
				outbox.drain(ws)
				const sink = sinks.get(ws.data.conn)
				if (sink && !outbox.blocked(ws)) ctx.updates.pump(sink)
			},
			close: (ws, code) => {
				ctx.log.info('ws', {
					method: 'WS',
					route: '/ws',
					status: code,
					ms: Math.round((performance.now() - openedAt) * 10) / 10,
					client,
					...actorFields(ws.data.conn.principal),
				})
				const sink = sinks.get(ws.data.conn)
				if (sink) ctx.updates.dropSink(sink)
				open.delete(ws)
				connections.closed(ws)
				if (leaving && open.size === 0) leaving.resolve()
			},
			closed,
			credential: outcome.credential,
			ended: false,
			expiry: undefined,
			held: null,
			conn: {
				principal: outcome.principal,
				client,
				signal: closed.signal,
				send: () => {},
				admit: () => true,
				running: new Set(),
				runningChars: 0,
				refusing: null,
				leaving: false,
				settled: () => {},
				observe: (action, outcome, seconds) => ctx.metrics.command(action, outcome, seconds),
			},
		}
		const upgraded = server.upgrade(request, { data })
		if (!upgraded) {
			set.status = 400
			return { detail: 'Expected a WebSocket upgrade.' }
		}
	})

	return {
		routes: routes as unknown as Elysia,
		commands: registry,
		publish: connections.publish,
		stats(userId) {
			let sockets = 0
			let waitingBytes = 0
			for (const ws of open) {
				if (userId !== undefined && ws.data.conn.principal.userId !== userId) continue
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
				for (const ws of [...open]) connections.goAway(ws)
				if (open.size === 0) resolve()
			}
			return leaving.done
		},
	}
}
