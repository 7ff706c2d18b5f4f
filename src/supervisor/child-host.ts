import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { type Clock, wallClock } from '../flood/clock'
import type { Backend } from '../telegram/backend'
import type { TdRequest, TdUpdate } from '../telegram/types'
import { authorizationDetail } from './auth-detail'
import { type Capacity, capacityReached } from './capacity'
import { type Entry, restartHung } from './hung-client'
import { Liveness, type LivenessOptions } from './liveness'
import {
	type ChildMessage,
	type InvokeMessage,
	type ParentMessage,
	parseParentMessage,
	type StartMessage,
	type StopMessage,
	toWireError,
	type UpdateMessage,
	type WireError,
} from './protocol'

/**
 * The supervisor child's brain, apart from its transport: one backend client per userbot, each
 * with its own database and files folder, answering protocol messages and reporting
 * authorization states. `child.ts` wires it to a transport.
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

const UNSETTLED = new Set(['', 'authorizationStateWaitTdlibParameters'])

export function createChildHost(opts: ChildHostOptions) {
	const { backend, send } = opts
	const clients = new Map<number, Entry>()
	const starting = new Map<number, Promise<Entry>>()
	const startTimeoutMs = opts.startTimeoutMs ?? 30_000
	const logOutTimeoutMs = opts.logOutTimeoutMs ?? 10_000
	const clock = opts.clock ?? wallClock
	/** Restarts of hung clients under way: `cancel` gives one up (the client is stopped meanwhile). */
	const restarts = new Map<number, { cancel: () => void }>()
	const liveness: Liveness | undefined = opts.probe
		? new Liveness({ ...opts.probe, clock }, (userbotId) =>
				restartHung(
					{
						clients,
						starting,
						restarts,
						liveness: liveness as Liveness,
						clock,
						closeTimeoutMs: opts.probe?.timeoutMs ?? 10_000,
						send,
						closeEntry,
						startClient,
						stuck: opts.stuck,
					},
					userbotId,
				),
			)
		: undefined

	let fenceTimer: ReturnType<typeof setTimeout> | undefined
	/** Kinds of update the parent asked for (`update_filter`); every other update stays here. */
	let forwarded: ReadonlySet<string> = new Set()

	const reply = (id: number, value: unknown) => send({ type: 'result', id, ok: true, value })
	const fail = (id: number, error: WireError) => send({ type: 'result', id, ok: false, error })
	const folder = (userbotId: number) => join(opts.dataDir, 'tdlib', String(userbotId))
	const recordStop = (userbotId: number, entry: Entry) => {
		if (entry.stopped) return
		entry.stopped = true
		opts.record?.('stop', userbotId)
	}
	const closeEntry = async (userbotId: number, entry: Entry) => {
		await entry.client.close().catch(() => undefined)
		recordStop(userbotId, entry)
	}

	function onUpdate(userbotId: number, entry: Entry, update: TdUpdate) {
		// A client given up on closes in the background: its closing is not the account's.
		if (entry.abandoned) return
		if (forwarded.has(update._))
			send({ type: 'update', userbotId, update: update as UpdateMessage['update'] })
		if (update._ !== 'updateAuthorizationState') return
		const state = update.authorization_state
		entry.state = state._
		const detail = authorizationDetail(state as unknown as Record<string, unknown>)
		send(
			detail
				? { type: 'authorization_state', userbotId, state: state._, detail }
				: { type: 'authorization_state', userbotId, state: state._ },
		)
		if (state._ === 'authorizationStateClosed') {
			if (clients.get(userbotId) === entry) {
				clients.delete(userbotId)
				liveness?.unwatch(userbotId)
			}
			recordStop(userbotId, entry)
		}
		if (!UNSETTLED.has(state._)) for (const w of entry.waiters.splice(0)) w(state._)
	}

	async function startClient(msg: StartMessage): Promise<Entry> {
		const root = folder(msg.userbotId)
		const databaseDirectory = join(root, 'db')
		const filesDirectory = join(root, 'files')
		mkdirSync(databaseDirectory, { recursive: true, mode: 0o700 })
		mkdirSync(filesDirectory, { recursive: true, mode: 0o700 })
		opts.record?.('start', msg.userbotId)
		const client = backend.createClient(msg.userbotId, {
			databaseDirectory,
			filesDirectory,
			encryptionKey: msg.encryptionKey,
			...(msg.proxy ? { proxy: msg.proxy } : {}),
		})
		const entry: Entry = { client, state: '', waiters: [], inflight: new Set(), start: msg }
		client.onUpdate((u) => onUpdate(msg.userbotId, entry, u))
		clients.set(msg.userbotId, entry)
		let timer: ReturnType<typeof setTimeout> | undefined
		try {
			await new Promise<string>((resolve, reject) => {
				if (!UNSETTLED.has(entry.state)) return resolve(entry.state)
				entry.waiters.push(resolve)
				timer = setTimeout(() => reject(new Error('the client did not start in time')), startTimeoutMs)
			})
			// A proxy TDLib refused leaves the network held: the start fails with TDLib's word for it.
			await client.network
		} catch (err) {
			clients.delete(msg.userbotId)
			await closeEntry(msg.userbotId, entry)
			throw err
		} finally {
			clearTimeout(timer)
		}
		liveness?.watch(msg.userbotId, () => client.invoke({ _: 'testCallEmpty' }))
		return entry
	}

	function start(msg: StartMessage) {
		const running = clients.get(msg.userbotId)
		if (running && !UNSETTLED.has(running.state)) return reply(msg.id, running.state)
		let p = starting.get(msg.userbotId)
		const cap = opts.capacity
		if (!p && !running && cap && clients.size >= cap.clients)
			return fail(msg.id, toWireError(capacityReached(clients.size, cap)))
		if (!p) {
			p = startClient(msg).finally(() => starting.delete(msg.userbotId))
			starting.set(msg.userbotId, p)
		}
		p.then(
			(e) => reply(msg.id, e.state),
			(err) => fail(msg.id, toWireError(err)),
		)
	}

	async function entryFor(userbotId: number): Promise<Entry | undefined> {
		const p = starting.get(userbotId)
		if (p) return p.catch(() => undefined)
		return clients.get(userbotId)
	}

	function invoke(msg: InvokeMessage) {
		// Hot path: a running client answers without an extra await.
		const ready = starting.has(msg.userbotId) ? undefined : clients.get(msg.userbotId)
		const run = (entry: Entry | undefined) => {
			if (!entry)
				return fail(msg.id, { code: 'no_client', message: `no client for userbot ${msg.userbotId}` })
			// Each request is answered once: a client given up on has had its requests answered already.
			entry.inflight.add(msg.id)
			entry.client.invoke(msg.request as TdRequest).then(
				(value) => {
					if (entry.inflight.delete(msg.id)) reply(msg.id, value)
				},
				(err) => {
					if (entry.inflight.delete(msg.id)) fail(msg.id, toWireError(err))
				},
			)
		}
		if (ready) return run(ready)
		// Held until the client is up (a start, a restart): one whose sender stopped waiting is not sent.
		const since = clock.now()
		void entryFor(msg.userbotId).then((entry) => {
			if (entry && msg.timeoutMs !== undefined && clock.now() - since >= msg.timeoutMs)
				return fail(msg.id, { code: 'timeout', message: 'the client was not up in time' })
			run(entry)
		})
	}

	async function stop(msg: StopMessage) {
		restarts.get(msg.userbotId)?.cancel()
		liveness?.forget(msg.userbotId)
		const entry = await entryFor(msg.userbotId)
		if (entry) {
			if (msg.logOut) {
				const closed = new Promise<void>((resolve) => {
					entry.client.onUpdate((u) => {
						if (u._ === 'updateAuthorizationState' && u.authorization_state._ === 'authorizationStateClosed')
							resolve()
					})
				})
				let timer: ReturnType<typeof setTimeout> | undefined
				const late = new Promise<'late'>((resolve) => {
					timer = setTimeout(() => resolve('late'), logOutTimeoutMs)
				})
				try {
					const answer = await Promise.race([entry.client.invoke({ _: 'logOut' }), late])
					if (answer === 'late') {
						send({
							type: 'log',
							level: 'warn',
							msg: 'logOut did not finish in time; the client is closed anyway and the Telegram session may still be active',
							fields: { userbotId: msg.userbotId },
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
			clients.delete(msg.userbotId)
			await closeEntry(msg.userbotId, entry)
		}
		if (msg.removeData) rmSync(folder(msg.userbotId), { recursive: true, force: true })
	}

	async function closeAll() {
		for (const r of restarts.values()) r.cancel()
		for (const id of clients.keys()) liveness?.forget(id)
		const all = [...clients]
		clients.clear()
		await Promise.all(all.map(([id, e]) => Promise.race([closeEntry(id, e), Bun.sleep(5_000)])))
	}

	function dispatch(msg: ParentMessage, onShutdown: () => void) {
		switch (msg.type) {
			case 'invoke':
				return invoke(msg)
			case 'start':
				return start(msg)
			case 'stop':
				return void stop(msg).then(
					() => reply(msg.id, null),
					(err) => fail(msg.id, toWireError(err)),
				)
			case 'update_filter':
				forwarded = new Set(msg.kinds)
				return
			case 'fence':
				clearTimeout(fenceTimer)
				fenceTimer = setTimeout(() => {
					send({
						type: 'log',
						level: 'warn',
						msg: 'fenced: the shard did not renew its fence in time; every client is closed',
						fields: { clients: clients.size },
					})
					void closeAll()
				}, msg.ms)
				return
			case 'shutdown':
				clearTimeout(fenceTimer)
				return void closeAll().then(() => {
					if (msg.id !== undefined) reply(msg.id, null)
					onShutdown()
				})
		}
	}

	return {
		/** Validates and handles one raw message from the parent. */
		handle(raw: unknown, onShutdown: () => void) {
			const parsed = parseParentMessage(raw)
			if (parsed.ok) return dispatch(parsed.message, onShutdown)
			if (parsed.id !== undefined) fail(parsed.id, { code: 'bad_request', message: parsed.error })
			else
				send({ type: 'log', level: 'warn', msg: 'invalid message dropped', fields: { error: parsed.error } })
		},
		closeAll,
		get size() {
			return clients.size
		},
	}
}
