import type { Transport } from '../../common/transport'
import type { Logger } from '../../common/util/logger'
import { RuntimeError, type TdMethod, type TdRequest, type TdResult } from '../telegram/types'
import { type Capacity, capacityReached, type Room, tighter } from './capacity'
import { authorizationStateEvent, RequestChannel, startMessage, stopRequest } from './channel'
import { ChildGenerations, type Generation } from './child-generations'
import { type ChildMessage, type ChildSettings, type ParentMessage, parseChildMessage } from './protocol'
import { StartedClients, type StartRequest } from './started-clients'
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

export class SupervisorClient implements TelegramRuntime {
	private readonly channel: RequestChannel
	/** Kinds of TDLib update the child forwards (`setUpdateFilter`). */
	private updateKinds: ReadonlySet<string> = new Set()
	private readonly clients: StartedClients
	/** Requests made while no child is connected; sent once one is. */
	private queue: ParentMessage[] = []
	private readonly children: ChildGenerations
	private restarts = 0
	private readonly log: Logger
	/** What the child's descriptor limit allows, as its `ready` said. */
	private descriptors?: Capacity

	constructor(private readonly opts: SupervisorOptions) {
		this.log = opts.log.child({ component: 'supervisor' })
		this.clients = new StartedClients(this.log)
		this.channel = new RequestChannel(this.log)
		this.children = new ChildGenerations(opts, this.log, {
			closing: () => this.closing,
			settings: () => this.childSettings(),
			ready: (gen, t, capacity) => this.onReady(gen, t, capacity),
			message: (gen, raw) => this.onMessage(gen, raw),
			down: (reason) => this.onDown(reason),
			lost: () => {
				if (this.clients.size > 0) this.emit({ type: 'runtime_down', userbotIds: this.clients.ids() })
			},
			restarted: () => {
				this.restarts++
				this.emit({ type: 'runtime_restarted', restarts: this.restarts })
			},
		})
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
		try {
			await this.children.start()
		} catch (err) {
			await this.close()
			throw err
		}
	}

	/** The child's process id (tests kill it to check the restart path). */
	get pid(): number | undefined {
		const gen = this.children.current
		return gen && !gen.down ? gen.proc.pid : undefined
	}

	private childSettings(): ChildSettings {
		return {
			...this.opts.settings,
			offline: this.opts.settings?.offline ?? false,
			backend: this.opts.backend,
			dataDir: this.opts.dataDir,
		}
	}

	/** A child is ready: told the update kinds, its clients restored, the queued requests sent. */
	private onReady(gen: Generation, t: Transport, capacity: Capacity | undefined): Promise<unknown> {
		this.descriptors = capacity
		// Before any client starts: the updates a restored client sends at once are already wanted.
		t.send({ type: 'update_filter', kinds: [...this.updateKinds] })
		const restored = this.clients.restore(this.sendStart)
		const queued = this.queue
		this.queue = []
		for (const m of queued) if ('id' in m && this.channel.waiting(m.id ?? -1)) t.send(m)
		this.log.info('supervisor ready', { pid: gen.proc.pid, restored: restored.count })
		return restored.done
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
				if (gen !== this.children.current) return
				this.clients.onState(m.userbotId, m.state)
				return this.emit(authorizationStateEvent(m.userbotId, m.state, m.detail))
			case 'update':
				if (gen !== this.children.current) return
				return this.emit({ type: 'update', userbotId: m.userbotId, update: m.update })
			case 'log':
				return this.log[m.level](`supervisor: ${m.msg}`, m.fields)
			case 'client_restarting':
				// One client, not the child: told as a restart of that one (the account shows `restarting`).
				if (gen !== this.children.current || !this.clients.has(m.userbotId)) return
				return this.emit({ type: 'runtime_down', userbotIds: [m.userbotId] })
			case 'hello':
			case 'ready':
				return
		}
	}

	/** The child went: everything in flight fails at once; answers how many requests did. */
	private onDown(reason: string): number {
		const failed = this.channel.failAll(
			new RuntimeError('runtime_down', `the supervisor stopped (${reason})`),
		)
		this.queue = []
		return failed
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
			const t = this.children.transport()
			if (t) t.send(m)
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
		this.children.transport()?.send({ type: 'update_filter', kinds: [...next] })
	}

	/** The bus: the child closes every client unless this is said again within `ms` (protocol `fence`). */
	fence(ms: number): void {
		this.children.transport()?.send({ type: 'fence', ms: Math.max(0, Math.floor(ms)) })
	}

	onRequest(listener: (event: RequestEvent) => void): () => void {
		return this.channel.onRequest(listener)
	}

	health() {
		const up = !!this.children.transport() && !this.closing
		return { up, restarts: this.restarts, clients: this.clients.size, backend: this.opts.backend }
	}

	/** Closes every client, lets the child exit, and kills it if it does not in time. */
	async close(): Promise<void> {
		if (this.closing) return
		this.channel.stopTaking()
		const timeoutMs = this.opts.closeTimeoutMs ?? 10_000
		await this.children.end(timeoutMs, (t) => {
			const { id, promise } = this.channel.last(timeoutMs)
			t.send({ type: 'shutdown', id })
			return promise
		})
		this.channel.close()
		this.children.unlisten()
	}
}
