import type { ServerWebSocket } from 'bun'
import { keyReachesUserbot } from '../auth/key-scopes'
import type { Credential, Revocation } from '../auth/types'
import type { AppContext, CompanyEvent } from '../context'
import type { Outbox } from './outbox'
import type { Connection } from './running'

/** A socket whose credential was revoked or expired closes with 1008 (policy violation). */
export const CLOSE_POLICY = 1008
export const REASON_REVOKED = 'credentials revoked'
export const REASON_EXPIRED = 'credentials expired'
/** The server is stopping: each socket closes with 1001 (going away) once its commands are answered. */
export const CLOSE_GOING_AWAY = 1001
export const REASON_SHUTTING_DOWN = 'server shutting down'
/** setTimeout's longest delay; a later expiry re-arms. */
const MAX_TIMER_MS = 2 ** 31 - 1

/** What the gateway keeps per socket (Elysia's Bun adapter calls the handlers on `data`). */
export interface SocketData {
	open(ws: ServerWebSocket<SocketData>): void
	message(ws: ServerWebSocket<SocketData>, message: string | Buffer): void
	drain(ws: ServerWebSocket<SocketData>): void
	close(ws: ServerWebSocket<SocketData>, code: number, reason: string): void
	conn: Connection
	/** Aborted when the socket closes: commands that asked for a signal see it. */
	closed: AbortController
	/** What the socket acts with: the upgrade's credential, or the last `authenticate`'s. */
	credential: Credential
	/** Set once the socket is closed or closing: nothing more goes out, nothing more is taken. */
	ended: boolean
	/** Fires at the credential's expiry. */
	expiry: ReturnType<typeof setTimeout> | undefined
	/** Pushes waiting for a credential check that went to the database, in order; else null. */
	held: string[] | null
}

export type Socket = ServerWebSocket<SocketData>

/**
 * The open sockets and the credentials they act with: indexed by company (pushes) and by what a
 * revocation names (`f:<family>`, `s:<session hash>`, `u:<user id>`).
 *
 * A socket lives as long as its credential, and never leaves a command unanswered on its way out:
 * - revoked (logout, reuse, reset, deactivation, removal from the company, a work status that does
 *   not allow work): every command in flight is answered
 *   `<command>_error` `credentials revoked`, then the socket closes with 1008 at once;
 * - expired (a bearer token's `exp`, unless an `authenticate` frame renewed it in time): new commands
 *   are answered `credentials expired`, those in flight finish (within their deadline), then 1008.
 */
export function createConnections(ctx: AppContext, outbox: Outbox) {
	const { log } = ctx
	const byCompany = new Map<number, Set<Socket>>()
	const byCredential = new Map<string, Set<Socket>>()

	const keysOf = (c: Credential) => {
		const keys = [`f:${c.family}`, `u:${c.principal.userId}`]
		if (c.sessionHash !== null) keys.push(`s:${c.sessionHash}`)
		return keys
	}
	const index = <K>(map: Map<K, Set<Socket>>, key: K, ws: Socket) => {
		const set = map.get(key)
		if (set) set.add(ws)
		else map.set(key, new Set([ws]))
	}
	const unindex = <K>(map: Map<K, Set<Socket>>, key: K, ws: Socket) => {
		const set = map.get(key)
		set?.delete(ws)
		if (set?.size === 0) map.delete(key)
	}

	/** Writes what is queued for the socket, then closes it; nothing more goes out after. */
	const closeNow = (ws: Socket, code: number, reason: string) => {
		const data = ws.data
		outbox.flushNow(ws)
		data.ended = true
		data.conn.send = () => {}
		data.held = null
		outbox.forget(ws)
		clearTimeout(data.expiry)
		ws.close(code, reason)
	}

	/** Revoked: answers what runs with `reason`, then closes at once. */
	const endFor = (ws: Socket, reason: string) => {
		const data = ws.data
		if (data.ended) return
		data.conn.refusing = reason
		for (const running of [...data.conn.running]) running.end(reason)
		closeNow(ws, CLOSE_POLICY, reason)
	}

	/** Expired: refuses what comes, lets what runs finish, closes once nothing runs. */
	const expire = (ws: Socket) => {
		const data = ws.data
		if (data.ended) return
		data.conn.refusing = REASON_EXPIRED
		data.held = null
		if (data.conn.running.size === 0) closeNow(ws, CLOSE_POLICY, REASON_EXPIRED)
	}

	const endForCredential = (ws: Socket) =>
		ws.data.credential.expiresAt <= Date.now() ? expire(ws) : endFor(ws, REASON_REVOKED)

	/**
	 * Whether the socket may still act: true or false from memory, else a promise (the auth core asks
	 * the database). A socket found dead is ended (a member whose work status stopped allowing work
	 * included); a live one acts as its principal stands now (a member's grants as they are now).
	 */
	const admit = (ws: Socket): boolean | Promise<boolean> => {
		const d = ws.data
		if (d.ended || d.conn.refusing !== null) return false
		const credential = d.credential
		const now = ctx.auth.currentPrincipal(credential)
		if (now === null) {
			endForCredential(ws)
			return false
		}
		if (!(now instanceof Promise)) {
			d.conn.principal = now
			return true
		}
		return now.then((principal) => {
			// Renewed meanwhile: the answer was about a credential the socket no longer uses.
			if (d.credential !== credential) return !d.ended && d.conn.refusing === null
			if (principal === null) {
				endForCredential(ws)
				return false
			}
			d.conn.principal = principal
			return !d.ended
		})
	}

	const armExpiry = (ws: Socket) => {
		const d = ws.data
		clearTimeout(d.expiry)
		if (d.ended) return
		const left = d.credential.expiresAt - Date.now()
		if (left <= 0) return expire(ws)
		d.expiry = setTimeout(() => armExpiry(ws), Math.min(left, MAX_TIMER_MS))
	}

	/** A company push, after the same check as a command; pushes stay in order while one waits. */
	const push = (ws: Socket, text: string) => {
		const d = ws.data
		if (d.held) {
			d.held.push(text)
			return
		}
		const admitted = admit(ws)
		if (admitted === true) return outbox.send(ws, text)
		if (admitted === false) return
		const held = [text]
		d.held = held
		admitted.then(
			(ok) => {
				if (d.held !== held) return
				d.held = null
				if (ok) for (const t of held) outbox.send(ws, t)
			},
			(err) => {
				if (d.held === held) d.held = null
				log.error('credential check failed; push dropped', {
					error: err instanceof Error ? err : String(err),
				})
			},
		)
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

	return {
		admit,
		/** A socket opened: indexed, its expiry armed, its credential checked once more. */
		opened(ws: Socket) {
			const d = ws.data
			for (const key of keysOf(d.credential)) index(byCredential, key, ws)
			const companyId = d.conn.principal.companyId
			if (companyId !== null) index(byCompany, companyId, ws)
			armExpiry(ws)
			// A revocation between the upgrade's check and now was announced before the socket was indexed.
			const admitted = admit(ws)
			if (admitted instanceof Promise) {
				admitted.catch((err) =>
					log.error('credential check failed', { error: err instanceof Error ? err : String(err) }),
				)
			}
		},
		/** A running command was answered: an expired or leaving socket closes once none is left. */
		settled(ws: Socket) {
			const d = ws.data
			if (d.ended || d.conn.running.size > 0) return
			if (d.conn.leaving) closeNow(ws, CLOSE_GOING_AWAY, REASON_SHUTTING_DOWN)
			else if (d.conn.refusing === REASON_EXPIRED) closeNow(ws, CLOSE_POLICY, REASON_EXPIRED)
		},
		/** The server is stopping: nothing new runs; the socket closes with 1001 once nothing runs. */
		goAway(ws: Socket) {
			const d = ws.data
			if (d.ended) return
			d.conn.leaving = true
			if (d.conn.running.size === 0) closeNow(ws, CLOSE_GOING_AWAY, REASON_SHUTTING_DOWN)
		},
		/** The socket acts with `credential` from now on (an `authenticate` frame renewed it). */
		renew(ws: Socket, credential: Credential) {
			const d = ws.data
			for (const key of keysOf(d.credential)) unindex(byCredential, key, ws)
			d.credential = credential
			for (const key of keysOf(credential)) index(byCredential, key, ws)
			armExpiry(ws)
		},
		closed(ws: Socket) {
			const d = ws.data
			d.ended = true
			d.held = null
			clearTimeout(d.expiry)
			d.conn.send = () => {}
			d.conn.admit = () => false
			outbox.forget(ws)
			// Nobody is left to answer: what still runs is settled without a reply.
			for (const running of [...d.conn.running]) running.drop()
			d.closed.abort(new Error('connection closed'))
			for (const key of keysOf(d.credential)) unindex(byCredential, key, ws)
			const companyId = d.conn.principal.companyId
			if (companyId !== null) unindex(byCompany, companyId, ws)
		},
		publish(event: CompanyEvent) {
			const set = byCompany.get(event.companyId)
			if (!set || set.size === 0) return
			const text = JSON.stringify(event.message)
			const about = event.userbotId
			for (const ws of set) {
				const key = ws.data.conn.principal.key
				if (about === undefined || !key || keyReachesUserbot(key, about)) push(ws, text)
			}
		},
	}
}
