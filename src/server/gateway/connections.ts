import { serverPathFreeJson } from '../../common/wire/server-paths'
import type { Credential, Principal, Revocation } from '../auth/types'
import type { AppContext, CompanyEvent } from '../context'
import { reachesUserbot } from '../policy/can'
import type { GatewaySocket } from './socket'

/**
 * The open sockets and the credentials they act with: indexed by company (pushes) and by what a
 * revocation names (`f:<family>`, `s:<session hash>`, `u:<user id>`).
 *
 * A socket lives as long as its credential, and never leaves a command unanswered on its way out
 * (its states: src/server/gateway/socket.ts):
 * - revoked (logout, reuse, reset, deactivation, removal from the company, a work status that does
 *   not allow work): every command in flight is answered
 *   `<command>_error` `credentials revoked`, then the socket closes with 1008 at once;
 * - expired (a bearer token's `exp`, unless an `authenticate` frame renewed it in time): new commands
 *   are answered `credentials expired`, those in flight finish (within their deadline), then 1008.
 */
export function createConnections(ctx: AppContext) {
	const byCompany = new Map<number, Set<GatewaySocket>>()
	const byCredential = new Map<string, Set<GatewaySocket>>()

	const keysOf = (c: Credential) => {
		const keys = [`f:${c.family}`, `u:${c.principal.userId}`]
		if (c.sessionHash !== null) keys.push(`s:${c.sessionHash}`)
		return keys
	}
	const index = <K>(map: Map<K, Set<GatewaySocket>>, key: K, socket: GatewaySocket) => {
		const set = map.get(key)
		if (set) set.add(socket)
		else map.set(key, new Set([socket]))
	}
	const unindex = <K>(map: Map<K, Set<GatewaySocket>>, key: K, socket: GatewaySocket) => {
		const set = map.get(key)
		set?.delete(socket)
		if (set?.size === 0) map.delete(key)
	}

	const onRevoked = (revocation: Revocation) => {
		let key: string
		if ('family' in revocation) key = `f:${revocation.family}`
		else if ('sessionHash' in revocation) key = `s:${revocation.sessionHash}`
		else key = `u:${revocation.userId}`
		const set = byCredential.get(key)
		if (!set) return
		for (const socket of [...set]) {
			// A profile change: the credential may still hold; check it again (deactivated, moved).
			if ('changed' in revocation) socket.recheck()
			else socket.revoke()
		}
	}
	ctx.onClose(ctx.auth.onRevoked(onRevoked))

	return {
		/** A socket opened: indexed, its expiry armed, its credential checked once more. */
		opened(socket: GatewaySocket) {
			for (const key of keysOf(socket.credential)) index(byCredential, key, socket)
			const companyId = socket.principal.companyId
			if (companyId !== null) index(byCompany, companyId, socket)
			socket.start()
		},
		/** The socket acts with `credential` from now on (an `authenticate` frame renewed it). */
		renew(socket: GatewaySocket, credential: Credential, principal: Principal): boolean {
			const before = socket.credential
			if (!socket.renew(credential, principal)) return false
			for (const key of keysOf(before)) unindex(byCredential, key, socket)
			for (const key of keysOf(credential)) index(byCredential, key, socket)
			return true
		},
		closed(socket: GatewaySocket) {
			socket.closed()
			for (const key of keysOf(socket.credential)) unindex(byCredential, key, socket)
			const companyId = socket.principal.companyId
			if (companyId !== null) unindex(byCompany, companyId, socket)
		},
		publish(event: CompanyEvent) {
			const set = byCompany.get(event.companyId)
			if (!set || set.size === 0) return
			const text = serverPathFreeJson(event.message)
			const about = event.userbotId
			for (const socket of set) {
				if (about === undefined || reachesUserbot(socket.principal, about)) socket.push(text)
			}
		},
	}
}

/** The open sockets by company and by credential (one per gateway). */
export type Connections = ReturnType<typeof createConnections>
