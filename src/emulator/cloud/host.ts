import { chmodSync, mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Transport } from '../../common/transport'
import { listenSocket } from '../../common/transport/socket'
import type { BackendClient, TdRequest, TdUpdate } from '../../runtime/telegram/types'
import { TdError } from '../../runtime/telegram/types'
import { createEmulatorClient } from '../client'
import { readAuth, writeAuth } from '../session'
import type { World } from '../world'
import type { CloseMessage, HostMessage, InvokeMessage, OpenMessage } from './protocol'
import { parseBackendMessage } from './protocol'
import { createStateSaver, loadWorld } from './state-file'
import type { CloudLink, CloudLog, LinkedClient } from './types'

/**
 * The cloud host: the process holding the lock keeps the world in its memory, writes it to
 * `cloud.json` (coalesced; at once for a log-in; last at a graceful stop), and serves it on
 * `cloud.sock` to the emulator backends of every other process. Its own process's clients reach
 * the world directly, without the socket.
 */
export interface CloudHost extends CloudLink {
	readonly world: World
	/**
	 * Stops: tells the other processes (`leaving`: they send the next requests to the next host),
	 * answers what they had in flight (for up to `DRAIN_MS`), writes the world a last time, closes.
	 * The caller then lets go of the lock.
	 */
	close(): Promise<void>
}

/** How long a stopping host keeps answering what was in flight (a request held longer fails). */
const DRAIN_MS = 1_000

export interface HostOptions {
	dir: string
	socket: string
	log: CloudLog
	flushDelayMs?: number
}

/** Answers one request's outcome on the wire: TDLib's errors by code, anything else as ours. */
const errorOf = (err: unknown) =>
	err instanceof TdError
		? { code: err.code, message: err.message }
		: { code: 500, message: 'emulator: the request failed in the emulated cloud' }

/** What the host's connections have in flight: a stopping host answers it before it closes. */
interface Serving {
	connections: Set<Transport>
	/** Connections whose backend has answered `leaving` (`moved`): nothing more comes on them. */
	moved: Set<Transport>
	inFlight: number
	/** Called each time a request is answered or a backend has moved. */
	answered?: () => void
}

/** The clients one backend opened over one connection. */
function serveConnection(
	world: World,
	transport: Transport,
	touched: () => void,
	log: CloudLog,
	serving: Serving,
) {
	const clients = new Map<number, BackendClient>()
	const send = (m: HostMessage) => transport.send(m)
	const answer = (id: number, p: Promise<unknown>) => {
		serving.inFlight++
		p.then(
			(value) => send({ type: 'result', id, ok: true, value: value ?? null }),
			(err) => {
				if (!(err instanceof TdError))
					log('error', 'emulator cloud: a request failed', { error: (err as Error)?.message })
				send({ type: 'result', id, ok: false, error: errorOf(err) })
			},
		).finally(() => {
			serving.inFlight--
			serving.answered?.()
		})
	}

	const open = (m: OpenMessage) => {
		if (clients.has(m.client))
			return log('warn', 'emulator cloud: a client opened twice', { client: m.client })
		const client = createEmulatorClient(world, {
			readAuth: () => m.auth,
			filesDirectory: m.files,
			persist: (auth) => send({ type: 'auth', client: m.client, auth }),
			handled: touched,
		})
		client.onUpdate((update) => send({ type: 'update', client: m.client, update }))
		clients.set(m.client, client)
	}
	const invoke = (m: InvokeMessage) => {
		const client = clients.get(m.client)
		if (!client) return answer(m.id, Promise.reject(new TdError(400, 'emulator: no such client')))
		answer(m.id, client.invoke(m.request as TdRequest))
	}
	const close = (m: CloseMessage) => {
		const client = clients.get(m.client)
		clients.delete(m.client)
		answer(m.id, client ? client.close() : Promise.resolve())
	}

	serving.connections.add(transport)
	transport.onMessage((raw) => {
		const checked = parseBackendMessage(raw)
		if (!checked.ok) {
			log('warn', 'emulator cloud: invalid message dropped', { error: checked.error })
			const id = (raw as { id?: unknown } | null)?.id
			if (Number.isInteger(id) && (id as number) >= 0)
				send({
					type: 'result',
					id: id as number,
					ok: false,
					error: { code: 400, message: 'emulator: invalid message' },
				})
			return
		}
		const m = checked.message
		if (m.type === 'open') open(m)
		else if (m.type === 'invoke') invoke(m)
		else if (m.type === 'close') close(m)
		else {
			serving.moved.add(transport)
			serving.answered?.()
		}
	})
	// The backend's process is gone (or stopping): its clients close, their sessions stay in the cloud.
	transport.onClose(() => {
		serving.connections.delete(transport)
		serving.moved.delete(transport)
		serving.answered?.()
		for (const client of clients.values()) void client.close().catch(() => undefined)
		clients.clear()
	})
}

export function startHost(opts: HostOptions): CloudHost {
	const file = join(opts.dir, 'cloud.json')
	const { world, discarded } = loadWorld(file)
	if (discarded)
		opts.log(
			'warn',
			'emulator cloud: the state file could not be read; moved aside, starting from the seed',
			{
				movedTo: discarded.to,
				reason: discarded.reason,
			},
		)
	const saver = createStateSaver(
		world,
		file,
		(err) => opts.log('error', 'emulator cloud: the state was not saved', { error: (err as Error).message }),
		opts.flushDelayMs,
	)
	world.setSaver(() => saver.saveNow())
	const touched = () => saver.touch()
	const serving: Serving = { connections: new Set(), moved: new Set(), inFlight: 0 }
	// Only the lock's holder gets here: a socket file left by a host that died is its to replace.
	rmSync(opts.socket, { force: true })
	const server = listenSocket(
		opts.socket,
		(t) => serveConnection(world, t, touched, opts.log, serving),
		() => opts.log('warn', 'emulator cloud: an unreadable line dropped'),
	)
	chmodSync(opts.socket, 0o600)
	let closed = false

	return {
		world,
		open(_userbotId, client, sink) {
			const emulated = createEmulatorClient(world, {
				readAuth: () => readAuth(client.databaseDirectory),
				filesDirectory: client.filesDirectory,
				persist: (auth) => writeAuth(client.databaseDirectory, auth),
				handled: touched,
			})
			emulated.onUpdate((u: TdUpdate) => sink.update(u))
			// In this process: nothing between the client and the world can go away.
			const linked: LinkedClient = { invoke: emulated.invoke, close: emulated.close, local: true }
			return linked
		},
		async close() {
			if (closed) return
			closed = true
			server.stop(false)
			for (const t of serving.connections) t.send({ type: 'leaving' })
			await drain(serving)
			saver.stop()
			saver.saveNow()
			world.setSaver(undefined)
			for (const t of [...serving.connections]) t.close()
			rmSync(opts.socket, { force: true })
		},
	}
}

/** Resolves once every backend has moved and nothing is in flight, or after `DRAIN_MS`. */
function drain(serving: Serving): Promise<void> {
	const drained = () => serving.inFlight === 0 && serving.moved.size === serving.connections.size
	if (drained()) return Promise.resolve()
	return new Promise((resolve) => {
		const timer = setTimeout(done, DRAIN_MS)
		function done() {
			clearTimeout(timer)
			serving.answered = undefined
			resolve()
		}
		serving.answered = () => {
			if (drained()) done()
		}
	})
}

/** The cloud's folder, private to the user. */
export function cloudFolder(dir: string): void {
	mkdirSync(dir, { recursive: true, mode: 0o700 })
	chmodSync(dir, 0o700)
}
