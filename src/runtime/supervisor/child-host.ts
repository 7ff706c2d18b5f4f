import { type Clock, wallClock } from '../flood/clock'
import type { Backend } from '../telegram/backend'
import type { Capacity } from './capacity'
import { type ChildClients, closeEntry, startClient } from './child-clients'
import { fail, invoke, reply, start, stop } from './child-requests'
import { restartHung } from './hung-client'
import { Liveness, type LivenessOptions } from './liveness'
import { type ChildMessage, type ParentMessage, parseParentMessage, toWireError } from './protocol'

/**
 * The supervisor child's brain, apart from its transport: one backend client per userbot, each
 * with its own database and files folder, answering protocol messages and reporting
 * authorization states. `child.ts` wires it to a transport. Its parts: the clients and their
 * starts (child-clients.ts), the answers to start/invoke/stop (child-requests.ts), the restart of a
 * hung client (hung-client.ts); this file routes the parent's messages and closes everything.
 */
export interface ChildHostOptions {
	backend: Backend
	dataDir: string
	send: (message: ChildMessage) => void
	/** How long `start` waits for the first settled authorization state. */
	startTimeoutMs?: number
	/**
	 * How long `stop` waits for `logOut` before closing the client anyway: offline, TDLib's `logOut`
	 * waits for the network for ever.
	 */
	logOutTimeoutMs?: number
	/**
	 * Hears each client's start (before it is made) and stop (once it is closed): the tests' record
	 * that no userbot ever runs in two places at once.
	 */
	record?: (event: 'start' | 'stop', userbotId: number) => void
	/**
	 * The clients this child's descriptor limit allows: a start past it is refused (`capacity`) rather
	 * than let TDLib run out of descriptors, which ends the process and every client in it.
	 */
	capacity?: Capacity
	/** Probing each client and restarting one that stopped answering (`liveness.ts`); absent: off. */
	probe?: Omit<LivenessOptions, 'clock'>
	/**
	 * A hung client whose close did not finish within the probe's timeout: its database stays
	 * locked, so it cannot be started again in this process. The child then exits, and the parent
	 * starts a new child (and every client) with its own backoff.
	 */
	stuck?: (userbotId: number) => void
	clock?: Clock
}

export function createChildHost(opts: ChildHostOptions) {
	const host = childClients(opts)
	const logOutTimeoutMs = opts.logOutTimeoutMs ?? 10_000
	let fenceTimer: ReturnType<typeof setTimeout> | undefined

	/**
	 * Closes every client. `quietly`: their closing is not told as the accounts' states (a fence ran
	 * out: the shard, cut off, starts them again as a new incarnation; told, a gateway would take the
	 * accounts for closed meanwhile).
	 */
	async function closeAll(quietly = false) {
		for (const r of host.restarts.values()) r.cancel()
		for (const id of host.clients.keys()) host.liveness?.forget(id)
		const all = [...host.clients]
		host.clients.clear()
		if (quietly) for (const [, e] of all) e.abandoned = true
		await Promise.all(all.map(([id, e]) => Promise.race([closeEntry(host, id, e), Bun.sleep(5_000)])))
	}

	function dispatch(msg: ParentMessage, onShutdown: () => void) {
		switch (msg.type) {
			case 'settings':
				// Taken once, before this host existed (child.ts): a second one changes nothing.
				return host.send({ type: 'log', level: 'warn', msg: 'settings sent again were ignored' })
			case 'invoke':
				return invoke(host, msg)
			case 'start':
				return start(host, opts.capacity, msg)
			case 'stop':
				return void stop(host, logOutTimeoutMs, msg).then(
					() => reply(host, msg.id, null),
					(err) => fail(host, msg.id, toWireError(err)),
				)
			case 'update_filter':
				host.forwarded = new Set(msg.kinds)
				return
			case 'fence':
				clearTimeout(fenceTimer)
				fenceTimer = setTimeout(() => {
					host.send({
						type: 'log',
						level: 'warn',
						msg: 'fenced: the shard did not renew its fence in time; every client is closed',
						fields: { clients: host.clients.size },
					})
					void closeAll(true)
				}, msg.ms)
				return
			case 'shutdown':
				clearTimeout(fenceTimer)
				return void closeAll().then(() => {
					if (msg.id !== undefined) reply(host, msg.id, null)
					onShutdown()
				})
		}
	}

	return {
		/** Validates and handles one raw message from the parent. */
		handle(raw: unknown, onShutdown: () => void) {
			const parsed = parseParentMessage(raw)
			if (parsed.ok) return dispatch(parsed.message, onShutdown)
			if (parsed.id !== undefined) fail(host, parsed.id, { code: 'bad_request', message: parsed.error })
			else
				host.send({
					type: 'log',
					level: 'warn',
					msg: 'invalid message dropped',
					fields: { error: parsed.error },
				})
		},
		closeAll,
		get size() {
			return host.clients.size
		},
	}
}

/** The child's clients, empty, with the probe that restarts a hung one when the options ask for it. */
function childClients(opts: ChildHostOptions): ChildClients {
	const clock = opts.clock ?? wallClock
	const host: ChildClients = {
		backend: opts.backend,
		dataDir: opts.dataDir,
		send: opts.send,
		record: opts.record,
		clock,
		startTimeoutMs: opts.startTimeoutMs ?? 30_000,
		clients: new Map(),
		starting: new Map(),
		restarts: new Map(),
		closing: new Map(),
		forwarded: new Set(),
	}
	const probe = opts.probe
	if (!probe) return host
	const liveness = new Liveness({ ...probe, clock }, (userbotId) =>
		restartHung(
			{
				clients: host.clients,
				starting: host.starting,
				restarts: host.restarts,
				liveness,
				clock,
				closeTimeoutMs: probe.timeoutMs ?? 10_000,
				send: host.send,
				closeEntry: (id, entry) => closeEntry(host, id, entry),
				startClient: (msg) => startClient(host, msg),
				stuck: opts.stuck,
			},
			userbotId,
		),
	)
	host.liveness = liveness
	return host
}
