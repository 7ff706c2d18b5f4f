import type { ServerWebSocket } from 'bun'
import { Elysia } from 'elysia'
import type { Credential, Revocation } from '../auth/types'
import type { CommandGroup } from '../commands/define'
import { createCommandRegistry, type RegisteredCommand } from '../commands/registry'
import type { AppContext, CompanyEvent } from '../context'
import { type Connection, createDispatcher } from './dispatch'
import { GatewayErrors as E, FRAME_ERROR_TYPE } from './errors'
import { createOutbox } from './outbox'
import { errorReply } from './replies'

/** Contract §6: a frame over 1 MiB closes the connection with 1009 (message too big). */
export const MAX_FRAME_BYTES = 1024 * 1024
export const CLOSE_TOO_BIG = 1009
/** A socket whose credential was revoked or expired closes with 1008 (policy violation). */
export const CLOSE_POLICY = 1008
export const REASON_REVOKED = 'credentials revoked'
export const REASON_EXPIRED = 'credentials expired'
/** setTimeout's longest delay; a later expiry re-arms. */
const MAX_TIMER_MS = 2 ** 31 - 1

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
	/** What the socket was opened with; checked before each command and push. */
	credential: Credential
	/** Set once the socket is closed, or closing for its credential: nothing more goes out. */
	ended: boolean
	/** Fires at the credential's expiry. */
	expiry: ReturnType<typeof setTimeout> | undefined
	/** Pushes waiting for a credential check that went to the database, in order; else null. */
	held: string[] | null
}

export interface Gateway {
	routes: Elysia
	/** Every command served, by wire name. */
	commands: ReadonlyMap<string, RegisteredCommand>
	publish(event: CompanyEvent): void
}

const utf8 = new TextDecoder('utf-8', { fatal: true })

/** The one `/ws` route: authentication at the upgrade, then one reply per command frame. */
export function createGateway(ctx: AppContext, groups: readonly CommandGroup[]): Gateway {
	const registry = createCommandRegistry(groups)
	const dispatcher = createDispatcher(ctx, registry)
	const byCompany = new Map<number, Set<ServerWebSocket<SocketData>>>()
	/** Open sockets by what a revocation names: `f:<family>`, `s:<session hash>`, `u:<user id>`. */
	const byCredential = new Map<string, Set<ServerWebSocket<SocketData>>>()
	const outbox = createOutbox()
	const { log } = ctx

	const keysOf = (c: Credential) => {
		const keys = [`f:${c.family}`, `u:${c.principal.userId}`]
		if (c.sessionHash !== null) keys.push(`s:${c.sessionHash}`)
		return keys
	}
	const index = <K>(
		map: Map<K, Set<ServerWebSocket<SocketData>>>,
		key: K,
		ws: ServerWebSocket<SocketData>,
	) => {
		const set = map.get(key)
		if (set) set.add(ws)
		else map.set(key, new Set([ws]))
	}
	const unindex = <K>(
		map: Map<K, Set<ServerWebSocket<SocketData>>>,
		key: K,
		ws: ServerWebSocket<SocketData>,
	) => {
		const set = map.get(key)
		set?.delete(ws)
		if (set?.size === 0) map.delete(key)
	}

	/** Stops everything going out at once, then closes with 1008; the close handler tidies up. */
	const endFor = (ws: ServerWebSocket<SocketData>, reason: string) => {
		const data = ws.data
		if (data.ended) return
		data.ended = true
		data.conn.send = () => {}
		data.held = null
		outbox.forget(ws)
		clearTimeout(data.expiry)
		ws.close(CLOSE_POLICY, reason)
	}
	const endForCredential = (ws: ServerWebSocket<SocketData>) =>
		endFor(ws, ws.data.credential.expiresAt <= Date.now() ? REASON_EXPIRED : REASON_REVOKED)

	/**
	 * Whether the socket may still act: true or false from memory, else a promise (the auth core asks
	 * the database). A socket found dead is closed.
	 */
	const admit = (ws: ServerWebSocket<SocketData>): boolean | Promise<boolean> => {
		const data = ws.data
		if (data.ended) return false
		const alive = ctx.auth.credentialAlive(data.credential)
		if (alive === true) return true
		if (alive === false) {
			endForCredential(ws)
			return false
		}
		return alive.then((ok) => {
			if (!ok) endForCredential(ws)
			return ok && !data.ended
		})
	}

	/** A company push, after the same check as a command; pushes stay in order while one waits. */
	const push = (ws: ServerWebSocket<SocketData>, text: string) => {
		const data = ws.data
		if (data.held) {
			data.held.push(text)
			return
		}
		const admitted = admit(ws)
		if (admitted === true) return outbox.send(ws, text)
		if (admitted === false) return
		const held = [text]
		data.held = held
		admitted.then(
			(ok) => {
				if (data.held !== held) return
				data.held = null
				if (ok) for (const t of held) outbox.send(ws, t)
			},
			(err) => {
				if (data.held === held) data.held = null
				log.error('credential check failed; push dropped', {
					error: err instanceof Error ? err : String(err),
				})
			},
		)
	}

	const armExpiry = (ws: ServerWebSocket<SocketData>) => {
		const data = ws.data
		if (data.ended) return
		const left = data.credential.expiresAt - Date.now()
		if (left <= 0) return endFor(ws, REASON_EXPIRED)
		data.expiry = setTimeout(() => armExpiry(ws), Math.min(left, MAX_TIMER_MS))
	}

	const onRevoked = (revocation: Revocation) => {
		let key: string
		if ('family' in revocation) key = `f:${revocation.family}`
		else if ('sessionHash' in revocation) key = `s:${revocation.sessionHash}`
		else key = `u:${revocation.userId}`
		const set = byCredential.get(key)
		if (!set) return
		for (const ws of [...set]) {
			if (!('changed' in revocation)) {
				endFor(ws, REASON_REVOKED)
				continue
			}
			// A profile change: the credential may still hold; check it again (deactivated, moved).
			const admitted = admit(ws)
			if (admitted instanceof Promise) {
				admitted.catch((err) =>
					log.error('credential check failed', { error: err instanceof Error ? err : String(err) }),
				)
			}
		}
	}
	ctx.onClose(ctx.auth.onRevoked(onRevoked))

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
		const data = ws.data
		// The socket exists only after the upgrade: the connection learns how to send at open.
		data.conn.send = (reply) => outbox.send(ws, reply)
		data.conn.admit = () => admit(ws)
		for (const key of keysOf(data.credential)) index(byCredential, key, ws)
		const companyId = data.conn.principal.companyId
		if (companyId !== null) index(byCompany, companyId, ws)
		armExpiry(ws)
		// A revocation between the upgrade's check and now was announced before the socket was indexed.
		const admitted = admit(ws)
		if (admitted instanceof Promise) {
			admitted.catch((err) =>
				log.error('credential check failed', { error: err instanceof Error ? err : String(err) }),
			)
		}
	}

	const onClose = (ws: ServerWebSocket<SocketData>) => {
		const data = ws.data
		const conn = data.conn
		data.ended = true
		data.held = null
		clearTimeout(data.expiry)
		conn.send = () => {}
		conn.admit = () => false
		outbox.forget(ws)
		data.closed.abort(new Error('connection closed'))
		for (const key of keysOf(data.credential)) unindex(byCredential, key, ws)
		const companyId = conn.principal.companyId
		if (companyId !== null) unindex(byCompany, companyId, ws)
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
		const data: SocketData = {
			open: onOpen,
			message: onMessage,
			close: onClose,
			closed,
			credential: outcome.credential,
			ended: false,
			expiry: undefined,
			held: null,
			conn: {
				principal: outcome.principal,
				signal: closed.signal,
				send: () => {},
				admit: () => true,
				inFlight: 0,
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
		publish(event) {
			const set = byCompany.get(event.companyId)
			if (!set || set.size === 0) return
			const text = JSON.stringify(event.message)
			for (const ws of set) push(ws, text)
		},
	}
}
