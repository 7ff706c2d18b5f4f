import type { Server, ServerWebSocket } from 'bun'
import { Elysia } from 'elysia'
import { UpgradeRefusals } from '../../common/wire/errors'
import { refusalError } from '../auth/route-guard'
import type { UpgradeOutcome } from '../auth/types'
import type { AppContext } from '../context'
import { actorFields } from '../metrics/http'
import { can } from '../policy/can'
import { CHANNEL_POLICY, policyHook } from '../policy/entry'
import type { OpenSockets } from './open-sockets'
import type { GatewaySocket } from './socket'

/**
 * The `/ws` route: a socket is upgraded here, and its life in Bun (open, message, drain, close)
 * handed to the open sockets and the dispatcher.
 */

/** What Bun keeps per socket: Elysia's Bun adapter calls these handlers on `data`. */
interface SocketData {
	open(ws: ServerWebSocket<SocketData>): void
	message(ws: ServerWebSocket<SocketData>, message: string | Buffer): void
	drain(ws: ServerWebSocket<SocketData>): void
	close(ws: ServerWebSocket<SocketData>, code: number, reason: string): void
}

/** What the `/ws` handler reads of Elysia's context, for the WS route and the plain GET alike. */
interface UpgradeContext {
	request: Request
	server: Server<SocketData> | null
	set: { status?: number | string }
}

/** Hands one received frame of `socket` on. */
export type Receive = (socket: GatewaySocket, message: string | Buffer) => void

/**
 * The one `/ws` route: authentication at the upgrade, then the socket's handlers. Upgrading
 * ourselves (instead of `.ws()`) gives the dispatcher the raw frame, which it needs to tell `invalid
 * JSON` from JSON that is no object, and keeps the hot path free of the per-frame wrapper and parser
 * Elysia would add; Elysia's Bun adapter calls `ws.data.open / message / drain / close`.
 */
export function gatewayRoute(ctx: AppContext, sockets: OpenSockets, receive: Receive) {
	const upgrade = async ({ request, server, set }: UpgradeContext) => {
		const outcome = await ctx.auth.authenticateUpgrade(request)
		if (sockets.leaving) {
			set.status = 503
			return { detail: UpgradeRefusals.SHUTTING_DOWN }
		}
		if (!outcome.ok) {
			set.status = outcome.status
			return outcome.body
		}
		const decision = can(outcome.principal, CHANNEL_POLICY)
		if (!decision.ok) {
			const refused = refusalError(decision)
			set.status = refused.status
			return refused.body
		}
		if (!server) {
			set.status = 500
			return { detail: UpgradeRefusals.NO_SERVER }
		}
		// The session's access line, written when it closes (docs/operator.md).
		const client = ctx.auth.clientAddress(server, request)
		const data = socketHandlers(ctx, sockets, receive, outcome, client)
		if (!server.upgrade(request, { data })) {
			set.status = 400
			return { detail: UpgradeRefusals.NOT_AN_UPGRADE }
		}
	}
	// Elysia hands `/ws` to the WS route only for `Upgrade: websocket` (in lower case); any other GET
	// (curl without the upgrade headers, a browser's address bar) comes here and is answered as an
	// upgrade is, not 404: the credentials' refusal, or "Expected a WebSocket upgrade.".
	return new Elysia({ name: 'gateway' })
		.route('WS', '/ws', upgrade, policyHook(CHANNEL_POLICY))
		.get('/ws', upgrade, { detail: { hide: true }, ...policyHook(CHANNEL_POLICY) })
}

/** One socket's handlers, from its open to its close (and the access line it leaves then). */
function socketHandlers(
	ctx: AppContext,
	sockets: OpenSockets,
	receive: Receive,
	outcome: Extract<UpgradeOutcome, { ok: true }>,
	client: string | undefined,
): SocketData {
	const openedAt = performance.now()
	let socket: GatewaySocket | undefined
	return {
		open: (ws) => {
			socket = sockets.opened(ws, outcome, client)
		},
		message: (_ws, message) => {
			if (socket) receive(socket, message)
		},
		drain: (ws) => sockets.drained(ws, socket),
		close: (ws, code) => {
			ctx.log.info('ws', {
				method: 'WS',
				route: '/ws',
				status: code,
				ms: Math.round((performance.now() - openedAt) * 10) / 10,
				client,
				...actorFields(socket?.principal ?? outcome.principal),
			})
			sockets.closed(ws, socket)
		},
	}
}
