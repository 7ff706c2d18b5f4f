import type { ServerWebSocket } from 'bun'
import { Elysia } from 'elysia'
import type { CommandGroup } from '../commands/define'
import { createCommandRegistry } from '../commands/registry'
import type { AppContext, CompanyEvent } from '../context'
import { type Connection, createDispatcher } from './dispatch'
import { GatewayErrors as E, FRAME_ERROR_TYPE } from './errors'
import { createOutbox } from './outbox'
import { errorReply } from './replies'

/** Contract §6: a frame over 1 MiB closes the connection with 1009 (message too big). */
export const MAX_FRAME_BYTES = 1024 * 1024
export const CLOSE_TOO_BIG = 1009

/**
 * What Elysia's Bun adapter hands to `server.upgrade` as `data`: its shared websocket handler calls
 * `ws.data.open / message / close`. Upgrading ourselves (instead of `.ws()`) gives the dispatcher the
 * raw frame, which it needs to tell `invalid JSON` from JSON that is no object, and keeps the hot
 * path free of the per-frame wrapper and parser Elysia would add.
 */
interface SocketData {
	open(ws: ServerWebSocket<SocketData>): void
	message(ws: ServerWebSocket<SocketData>, message: string | Buffer): void
	close(ws: ServerWebSocket<SocketData>, code: number, reason: string): void
	conn: Connection
	/** Aborted when the socket closes: commands that asked for a signal see it. */
	closed: AbortController
}

export interface Gateway {
	routes: Elysia
	publish(event: CompanyEvent): void
}

const utf8 = new TextDecoder('utf-8', { fatal: true })

/** The one `/ws` route: authentication at the upgrade, then one reply per command frame. */
export function createGateway(ctx: AppContext, groups: readonly CommandGroup[]): Gateway {
	const registry = createCommandRegistry(groups)
	const dispatcher = createDispatcher(ctx, registry)
	const byCompany = new Map<number, Set<ServerWebSocket<SocketData>>>()
	const outbox = createOutbox()

	const onMessage = (ws: ServerWebSocket<SocketData>, message: string | Buffer) => {
		const conn = ws.data.conn
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

	const onOpen = (ws: ServerWebSocket<SocketData>) => {
		// The socket exists only after the upgrade: the connection learns how to send at open.
		ws.data.conn.send = (reply) => outbox.send(ws, reply)
		const companyId = ws.data.conn.principal.companyId
		if (companyId === null) return
		const set = byCompany.get(companyId)
		if (set) set.add(ws)
		else byCompany.set(companyId, new Set([ws]))
	}

	const onClose = (ws: ServerWebSocket<SocketData>) => {
		const conn = ws.data.conn
		conn.send = () => {}
		outbox.forget(ws)
		ws.data.closed.abort(new Error('connection closed'))
		const companyId = conn.principal.companyId
		if (companyId === null) return
		const set = byCompany.get(companyId)
		set?.delete(ws)
		if (set?.size === 0) byCompany.delete(companyId)
	}

	const routes = new Elysia({ name: 'gateway' }).route('WS', '/ws', async ({ request, server, set }) => {
		const outcome = await ctx.auth.authenticateUpgrade(request)
		if (!outcome.ok) {
			set.status = outcome.status
			return outcome.body
		}
		if (!server) {
			set.status = 500
			return { detail: 'WebSocket needs a running server.' }
		}
		const closed = new AbortController()
		const data = {
			open: onOpen,
			message: onMessage,
			close: onClose,
			closed,
			conn: { principal: outcome.principal, signal: closed.signal, send: () => {} },
		} as SocketData
		const upgraded = server.upgrade(request, { data })
		if (!upgraded) {
			set.status = 400
			return { detail: 'Expected a WebSocket upgrade.' }
		}
	})

	return {
		routes: routes as unknown as Elysia,
		publish(event) {
			const set = byCompany.get(event.companyId)
			if (!set || set.size === 0) return
			const text = JSON.stringify(event.message)
			for (const ws of set) outbox.send(ws, text)
		},
	}
}
