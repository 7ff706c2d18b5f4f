import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Backend, BackendClient } from '../telegram/backend'
import type { TdRequest, TdUpdate } from '../telegram/types'
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
}

interface Entry {
	client: BackendClient
	state: string
	waiters: Array<(state: string) => void>
	/** Its stop was recorded (it may close twice: by itself, then by `stop`). */
	stopped?: boolean
}

const UNSETTLED = new Set(['', 'authorizationStateWaitTdlibParameters'])

/** Non-secret fields of an authorization state worth showing to the HTTP side. */
export function authorizationDetail(state: Record<string, unknown>): Record<string, unknown> | undefined {
	switch (state._) {
		case 'authorizationStateWaitOtherDeviceConfirmation':
			return { link: state.link }
		case 'authorizationStateWaitPassword':
			return {
				password_hint: state.password_hint,
				has_recovery_email_address: state.has_recovery_email_address,
			}
		case 'authorizationStateWaitCode': {
			const info = state.code_info as
				| { phone_number?: string; type?: { _: string; length?: number } }
				| undefined
			return { code_type: info?.type?._, code_length: info?.type?.length, phone_number: info?.phone_number }
		}
		case 'authorizationStateWaitEmailCode':
		case 'authorizationStateWaitEmailAddress':
			return {}
		default:
			return undefined
	}
}

export function createChildHost(opts: ChildHostOptions) {
	const { backend, send } = opts
	const clients = new Map<number, Entry>()
	const starting = new Map<number, Promise<Entry>>()
	const startTimeoutMs = opts.startTimeoutMs ?? 30_000
	const logOutTimeoutMs = opts.logOutTimeoutMs ?? 10_000

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
			if (clients.get(userbotId) === entry) clients.delete(userbotId)
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
		const entry: Entry = { client, state: '', waiters: [] }
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
		return entry
	}

	function start(msg: StartMessage) {
		const running = clients.get(msg.userbotId)
		if (running && !UNSETTLED.has(running.state)) return reply(msg.id, running.state)
		let p = starting.get(msg.userbotId)
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
			entry.client.invoke(msg.request as TdRequest).then(
				(value) => reply(msg.id, value),
				(err) => fail(msg.id, toWireError(err)),
			)
		}
		if (ready) run(ready)
		else void entryFor(msg.userbotId).then(run)
	}

	async function stop(msg: StopMessage) {
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
