import type { Subprocess } from 'bun'
import { RuntimeError, type TdMethod, type TdRequest, type TdResult } from '../telegram/types'
import type { Logger } from '../util/logger'
import { type Capacity, capacityReached, type Room, tighter } from './capacity'
import { authorizationStateEvent, RequestChannel, startMessage, stopRequest } from './channel'
import { spawnChild } from './child-process'
import { type ChildMessage, type ChildSettings, type ParentMessage, parseChildMessage } from './protocol'
import { StartedClients, type StartRequest } from './started-clients'
import type { Transport } from './transport'
import { listenSocket, socketPath } from './transport-socket'
import type { InvokeOptions, RequestEvent, RuntimeEvent, StartClientOptions, TelegramRuntime } from './types'

/**
 * The parent side of the supervisor: spawns the child, sends it protocol messages and matches
 * the replies. When the child dies every request in flight fails at once with `runtime_down`, a
 * new child starts after a growing pause, and every client that was started is started again.
 */
export interface SupervisorOptions {
	backend: 'tdlib' | 'emulator'
	dataDir: string
	transport: 'socket' | 'ipc'
	commandTimeoutMs: number
	log: Logger
	/** What the child runs with, beside its backend and data folder (sent in its `settings`). */
	settings?: Partial<Omit<ChildSettings, 'backend' | 'dataDir'>>
	restartMinMs?: number
	restartMaxMs?: number
	/** A child that stayed up this long gets the short pause again when it dies. */
	restartResetMs?: number
	readyTimeoutMs?: number
	closeTimeoutMs?: number
	/** Tells supervisors of one process apart (their socket paths); default `0`. */
	name?: string
	/** This child's share of the memory budget, in clients (docs/capacity.md); none: no limit. */
	memory?: Capacity
}

interface Generation {
	proc: Subprocess
	token: string
	transport?: Transport
	readyAt: number
	down: boolean
	readyTimer?: ReturnType<typeof setTimeout>
}

export class SupervisorClient implements TelegramRuntime {
	private readonly channel: RequestChannel
	/** Kinds of TDLib update the child forwards (`setUpdateFilter`). */
	private updateKinds: ReadonlySet<string> = new Set()
	private readonly clients: StartedClients
	/** Requests made while no child is connected; sent once one is. */
	private queue: ParentMessage[] = []
	private gen: Generation | null = null
	private failures = 0
	private restarts = 0
	private restartTimer?: ReturnType<typeof setTimeout>
	private firstReady?: { resolve: () => void; reject: (e: Error) => void }
	private socket?: { stop: () => void; path: string; cleanup: () => void }
	private readonly log: Logger
	/** What the child's descriptor limit allows, as its `ready` said. */
	private descriptors?: Capacity

	constructor(private readonly opts: SupervisorOptions) {
		this.log = opts.log.child({ component: 'supervisor' })
		this.clients = new StartedClients(this.log)
		this.channel = new RequestChannel(this.log)
	}

	/** The requests in flight, by their count (operators' tools and tests read it). */
	get pending(): { readonly size: number } {
		return this.channel
	}

	private get closing(): boolean {
		return this.channel.closed
	}

	/** Spawns the first child and waits until it is ready. */
	async start(): Promise<void> {
		if (this.opts.transport === 'socket') {
			const { path, cleanup } = socketPath(
				this.opts.dataDir,
				`supervisor-${process.pid}-${this.opts.name ?? '0'}`,
			)
			const server = listenSocket(
				path,
				(t) => this.onConnection(t),
				() => this.log.warn('invalid line from supervisor dropped'),
			)
			this.socket = { stop: server.stop, path, cleanup }
		}
		const ready = new Promise<void>((resolve, reject) => {
			this.firstReady = { resolve, reject }
		})
		this.spawn()
		try {
			await ready
		} catch (err) {
			await this.close()
			throw err
		}
	}

	/** The child's process id (tests kill it to check the restart path). */
	get pid(): number | undefined {
		return this.gen && !this.gen.down ? this.gen.proc.pid : undefined
	}

	private spawn() {
		const token = crypto.randomUUID()
		// Only how to reach this process: its settings come in answer to its hello.
		const env: Record<string, string> = { SUPERVISOR_TOKEN: token }
		if (this.socket) env.SUPERVISOR_SOCKET = this.socket.path
		const { proc, ipc } = spawnChild({ transport: this.opts.transport, env, log: this.log })
		const gen: Generation = { proc, token, readyAt: 0, down: false }
		this.gen = gen
		void proc.exited.then((code) => this.onDown(gen, `exited with ${code}`))
		gen.readyTimer = setTimeout(
			() => this.onDown(gen, 'not ready in time'),
			this.opts.readyTimeoutMs ?? 15_000,
		)
		if (ipc) this.onConnection(ipc)
	}

	/**
	 * A connection counts once its first message is `hello` with the current child's token (it is
	 * answered with the child's settings) and its second `ready`.
	 */
	private onConnection(t: Transport) {
		let greeted: Generation | null = null
		let accepted: Generation | null = null
		t.onMessage((raw) => {
			if (accepted) return this.onMessage(accepted, raw)
			const parsed = parseChildMessage(raw)
			const gen = this.gen
			const expected = greeted ? 'ready' : 'hello'
			const ok =
				parsed.ok &&
				parsed.message.type === expected &&
				gen !== null &&
				!gen.down &&
				(greeted ? greeted === gen : parsed.message.type === 'hello' && parsed.message.token === gen.token)
			if (!ok || !gen || !parsed.ok) {
				this.log.warn('supervisor connection refused')
				return t.close()
			}
			if (parsed.message.type === 'hello') {
				greeted = gen
				return t.send({ type: 'settings', settings: this.childSettings() })
			}
			accepted = gen
			if (parsed.message.type === 'ready') this.descriptors = parsed.message.capacity
			this.onReady(gen, t)
		})
	}

	private childSettings(): ChildSettings {
		return {
			...this.opts.settings,
			offline: this.opts.settings?.offline ?? false,
			backend: this.opts.backend,
			dataDir: this.opts.dataDir,
		}
	}

	private onReady(gen: Generation, t: Transport) {
		clearTimeout(gen.readyTimer)
		gen.transport = t
		gen.readyAt = Date.now()
		t.onClose(() => this.onDown(gen, 'connection closed'))
		// Before any client starts: the updates a restored client sends at once are already wanted.
		t.send({ type: 'update_filter', kinds: [...this.updateKinds] })
		const restored = this.clients.restore(this.sendStart)
		const queued = this.queue
		this.queue = []
		for (const m of queued) if ('id' in m && this.channel.waiting(m.id ?? -1)) t.send(m)
		this.log.info('supervisor ready', { pid: gen.proc.pid, restored: restored.count })
		if (this.firstReady) {
			this.firstReady.resolve()
			this.firstReady = undefined
			return
		}
		void restored.done.then(() => {
			if (gen !== this.gen || gen.down) return
			this.restarts++
			this.emit({ type: 'runtime_restarted', restarts: this.restarts })
		})
	}

	private onMessage(gen: Generation, raw: unknown) {
		const parsed = parseChildMessage(raw)
		if (!parsed.ok) {
			this.log.warn('invalid message from supervisor dropped', { error: parsed.error })
			if (parsed.id !== undefined)
				this.channel.fail(parsed.id, new RuntimeError('unavailable', 'invalid reply'))
			return
		}
		const m: ChildMessage = parsed.message
		switch (m.type) {
			case 'result':
				return this.channel.answer(m)
			case 'authorization_state':
				if (gen !== this.gen) return
				this.clients.onState(m.userbotId, m.state)
				return this.emit(authorizationStateEvent(m.userbotId, m.state, m.detail))
			case 'update':
				if (gen !== this.gen) return
				return this.emit({ type: 'update', userbotId: m.userbotId, update: m.update })
			case 'log':
				return this.log[m.level](`supervisor: ${m.msg}`, m.fields)
			case 'client_restarting':
				// One client, not the child: told as a restart of that one (the account shows `restarting`).
				if (gen !== this.gen || !this.clients.has(m.userbotId)) return
				return this.emit({ type: 'runtime_down', userbotIds: [m.userbotId] })
			case 'hello':
			case 'ready':
				return
		}
	}

	private onDown(gen: Generation, reason: string) {
		if (gen.down) return
		gen.down = true
		clearTimeout(gen.readyTimer)
		if (gen.proc.exitCode === null && !gen.proc.killed) gen.proc.kill('SIGKILL')
		gen.transport?.close()
		if (gen !== this.gen) return
		const err = new RuntimeError('runtime_down', `the supervisor stopped (${reason})`)
		const failed = this.channel.failAll(err)
		this.queue = []
		if (this.closing) return
		this.log.warn('supervisor down', { reason, failed })
		if (this.firstReady) {
			this.firstReady.reject(new Error(`the supervisor did not start: ${reason}`))
			this.firstReady = undefined
			return
		}
		if (this.clients.size > 0) this.emit({ type: 'runtime_down', userbotIds: this.clients.ids() })
		if (gen.readyAt && Date.now() - gen.readyAt > (this.opts.restartResetMs ?? 30_000)) this.failures = 0
		const delay = Math.min(
			(this.opts.restartMinMs ?? 100) * 2 ** this.failures,
			this.opts.restartMaxMs ?? 10_000,
		)
		this.failures++
		this.restartTimer = setTimeout(() => {
			if (!this.closing) this.spawn()
		}, delay)
	}

	private emit(event: RuntimeEvent) {
		this.channel.emit(event)
	}

	/** Sends `msg` to the child under a fresh id, or queues it until a child is connected. */
	private request(
		msg: ParentMessage & { id: number },
		opts: { timeoutMs?: number; signal?: AbortSignal } = {},
	): Promise<unknown> {
		const timeoutMs = opts.timeoutMs ?? this.opts.commandTimeoutMs
		return this.channel.request(msg, { timeoutMs, signal: opts.signal }, (m) => {
			const t = this.gen?.transport
			if (t && !this.gen?.down) t.send(m)
			else this.queue.push(m)
		})
	}

	invoke<M extends TdMethod>(
		userbotId: number,
		request: TdRequest<M>,
		opts?: InvokeOptions,
	): Promise<TdResult<M>> {
		if (!this.clients.has(userbotId)) {
			return Promise.reject(new RuntimeError('no_client', `no client for userbot ${userbotId}`))
		}
		// Its folder is still another process's: it runs there until that one lets go.
		if (this.clients.isHeld(userbotId))
			return Promise.reject(
				new RuntimeError('held_elsewhere', "the userbot's TDLib folder is held by another process"),
			)
		this.channel.told(userbotId, request, opts?.label)
		// The child is told how long the sender waits: a request it holds (its client restarting) past
		// that is not sent later, once its sender has been told `timeout`.
		const timeoutMs = Math.max(1, Math.ceil(opts?.timeoutMs ?? this.opts.commandTimeoutMs))
		return this.request({ type: 'invoke', id: 0, userbotId, request, timeoutMs }, opts) as Promise<
			TdResult<M>
		>
	}

	/** The clients this supervisor may hold: the tighter of its child's descriptors and its memory share. */
	capacity(): Capacity | undefined {
		const { descriptors } = this
		const { memory } = this.opts
		if (descriptors && memory) return tighter(descriptors, memory)
		return descriptors ?? memory
	}

	/** Clients it can still start; Infinity when no limit is known. */
	free(): number {
		const cap = this.capacity()
		return cap ? Math.max(0, cap.clients - this.clients.size) : Number.POSITIVE_INFINITY
	}

	/** Its capacity and the clients it holds; undefined when no limit is known. */
	room(): Room | undefined {
		const cap = this.capacity()
		return cap && { clients: cap.clients, used: cap.clients - this.free(), reason: cap.reason }
	}

	/** Whether it runs (or is starting, or will restore) the client of `userbotId`. */
	holds(userbotId: number): boolean {
		return this.clients.has(userbotId)
	}

	private readonly sendStart: StartRequest = (userbotId, o) => this.request(startMessage(userbotId, o))

	startClient(userbotId: number, opts: StartClientOptions): Promise<string> {
		// Checked and taken in one step (no await between): two starts cannot both take the last place.
		const cap = this.capacity()
		if (cap && !this.clients.has(userbotId) && this.clients.size >= cap.clients)
			return Promise.reject(capacityReached(this.clients.size, cap))
		return this.clients.start(userbotId, opts, this.sendStart)
	}

	async stopClient(userbotId: number, opts: { logOut: boolean; removeData: boolean }): Promise<void> {
		this.clients.forget(userbotId)
		const { msg, timeoutMs } = stopRequest(userbotId, opts, this.opts.commandTimeoutMs)
		await this.request(msg, { timeoutMs })
	}

	heldElsewhere(userbotId: number): boolean {
		return this.clients.isHeld(userbotId)
	}

	authorizationState(userbotId: number): string | undefined {
		return this.clients.state(userbotId)
	}

	onEvent(listener: (event: RuntimeEvent) => void): () => void {
		return this.channel.onEvent(listener)
	}

	setUpdateFilter(kinds: readonly string[]): void {
		const next = new Set(kinds)
		if (next.size === this.updateKinds.size && [...next].every((k) => this.updateKinds.has(k))) return
		this.updateKinds = next
		const t = this.gen?.transport
		if (t && !this.gen?.down) t.send({ type: 'update_filter', kinds: [...next] })
	}

	/** The bus: the child closes every client unless this is said again within `ms` (protocol `fence`). */
	fence(ms: number): void {
		const t = this.gen?.transport
		if (t && !this.gen?.down) t.send({ type: 'fence', ms: Math.max(0, Math.floor(ms)) })
	}

	onRequest(listener: (event: RequestEvent) => void): () => void {
		return this.channel.onRequest(listener)
	}

	health() {
		const up = !!this.gen?.transport && !this.gen.down && !this.closing
		return { up, restarts: this.restarts, clients: this.clients.size, backend: this.opts.backend }
	}

	/** Closes every client, lets the child exit, and kills it if it does not in time. */
	async close(): Promise<void> {
		if (this.closing) return
		this.channel.stopTaking()
		clearTimeout(this.restartTimer)
		const gen = this.gen
		const timeoutMs = this.opts.closeTimeoutMs ?? 10_000
		if (gen && !gen.down && gen.transport) {
			const { id, promise } = this.channel.last(timeoutMs)
			gen.transport.send({ type: 'shutdown', id })
			await promise.catch(() => undefined)
		} else if (gen && !gen.down) {
			// A child still starting (a restart under way) holds no client yet: told to go at once, not
			// waited for until the close times out.
			gen.proc.kill('SIGTERM')
		}
		if (gen) {
			const exited = await Promise.race([
				gen.proc.exited.then(() => true),
				Bun.sleep(timeoutMs).then(() => false),
			])
			if (!exited) {
				gen.proc.kill('SIGKILL')
				await gen.proc.exited
			}
			this.onDown(gen, 'closed')
		}
		this.channel.close()
		this.socket?.stop()
		this.socket?.cleanup()
	}
}
