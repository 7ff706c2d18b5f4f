import { rmSync } from 'node:fs'
import type { TdRequest } from '../telegram/types'
import { type Capacity, capacityReached } from './capacity'
import { type ChildClients, clientFolder, closeEntry, entryFor, settled, startClient } from './child-clients'
import type { Entry } from './hung-client'
import {
	type InvokeMessage,
	type StartMessage,
	type StopMessage,
	toWireError,
	type WireError,
} from './protocol'

/**
 * The supervisor child's answers to the parent's requests about one userbot: start, invoke, stop.
 * Each request is answered once, by its id.
 */

export const reply = (host: ChildClients, id: number, value: unknown) =>
	host.send({ type: 'result', id, ok: true, value })
export const fail = (host: ChildClients, id: number, error: WireError) =>
	host.send({ type: 'result', id, ok: false, error })

/** Starts the client (or joins its start under way); a settled one answers its state at once. */
export function start(host: ChildClients, capacity: Capacity | undefined, msg: StartMessage) {
	const { clients, starting } = host
	const running = clients.get(msg.userbotId)
	if (running && settled(running.state)) return reply(host, msg.id, running.state)
	let p = starting.get(msg.userbotId)
	if (!p && !running && capacity && clients.size >= capacity.clients)
		return fail(host, msg.id, toWireError(capacityReached(clients.size, capacity)))
	if (!p) {
		p = startClient(host, msg).finally(() => starting.delete(msg.userbotId))
		starting.set(msg.userbotId, p)
	}
	p.then(
		(e) => reply(host, msg.id, e.state),
		(err) => fail(host, msg.id, toWireError(err)),
	)
}

export function invoke(host: ChildClients, msg: InvokeMessage) {
	// Hot path: a running client answers without an extra await.
	const ready = host.starting.has(msg.userbotId) ? undefined : host.clients.get(msg.userbotId)
	const run = (entry: Entry | undefined) => {
		if (!entry)
			return fail(host, msg.id, { code: 'no_client', message: `no client for userbot ${msg.userbotId}` })
		// Each request is answered once: a client given up on has had its requests answered already.
		entry.inflight.add(msg.id)
		entry.client.invoke(msg.request as TdRequest).then(
			(value) => {
				if (entry.inflight.delete(msg.id)) reply(host, msg.id, value)
			},
			(err) => {
				if (entry.inflight.delete(msg.id)) fail(host, msg.id, toWireError(err))
			},
		)
	}
	if (ready) return run(ready)
	// Held until the client is up (a start, a restart): one whose sender stopped waiting is not sent.
	const since = host.clock.now()
	void entryFor(host, msg.userbotId).then((entry) => {
		if (entry && msg.timeoutMs !== undefined && host.clock.now() - since >= msg.timeoutMs)
			return fail(host, msg.id, { code: 'timeout', message: 'the client was not up in time' })
		run(entry)
	})
}

/** Stops the client (a restart under way is given up), logging out first if asked, and removes its data if asked. */
export async function stop(host: ChildClients, logOutTimeoutMs: number, msg: StopMessage): Promise<void> {
	host.restarts.get(msg.userbotId)?.cancel()
	host.liveness?.forget(msg.userbotId)
	const entry = await entryFor(host, msg.userbotId)
	if (entry) {
		if (msg.logOut) await logOut(host, logOutTimeoutMs, msg.userbotId, entry)
		host.clients.delete(msg.userbotId)
		await closeEntry(host, msg.userbotId, entry)
	}
	if (msg.removeData) rmSync(clientFolder(host, msg.userbotId), { recursive: true, force: true })
}

/**
 * `logOut`, and the closed state it leads to, for at most `timeoutMs`: offline, TDLib's `logOut`
 * waits for the network for ever, and the client is closed anyway.
 */
async function logOut(host: ChildClients, timeoutMs: number, userbotId: number, entry: Entry): Promise<void> {
	const closed = new Promise<void>((resolve) => {
		entry.client.onUpdate((u) => {
			if (u._ === 'updateAuthorizationState' && u.authorization_state._ === 'authorizationStateClosed')
				resolve()
		})
	})
	let timer: ReturnType<typeof setTimeout> | undefined
	const late = new Promise<'late'>((resolve) => {
		timer = setTimeout(() => resolve('late'), timeoutMs)
	})
	try {
		const answer = await Promise.race([entry.client.invoke({ _: 'logOut' }), late])
		if (answer === 'late') {
			host.send({
				type: 'log',
				level: 'warn',
				msg: 'logOut did not finish in time; the client is closed anyway and the Telegram session may still be active',
				fields: { userbotId },
			})
		} else {
			await Promise.race([closed, late])
		}
	} catch {
		// not logged in: closing is enough
	} finally {
		clearTimeout(timer)
	}
}
