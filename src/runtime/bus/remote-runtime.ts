import type { Logger } from '../../common/util/logger'
import type { Room } from '../supervisor/capacity'
import { authorizationStateEvent, RequestChannel, startMessage, stopRequest } from '../supervisor/channel'
import type { ParentMessage } from '../supervisor/protocol'
import type {
	InvokeOptions,
	RequestEvent,
	RuntimeEvent,
	StartClientOptions,
	TelegramRuntime,
} from '../supervisor/types'
import { RuntimeError, type TdMethod, type TdRequest, type TdResult } from '../telegram/types'
import type { Bus } from './connection'
import { type AuthStateEvent, EventFeed, type StatusEvent, type UpdateEvent } from './event-feed'
import { GatewayReconcile } from './gateway-health'
import { LeaseView } from './lease-view'
import { Membership } from './membership'
import { RemotePlacement } from './remote-placement'
import { MovedError, RemoteRequests } from './remote-requests'

/**
 * A gateway's `TelegramRuntime` when the supervisors are shards on the bus: the same interface as
 * the local supervisor client, so nothing above it changes. Each request goes to the shard that
 * owns its userbot (rendezvous hashing over the live shards, as every gateway and shard computes
 * it) as one NATS message carrying the supervisor protocol (remote-requests.ts), with the same ids,
 * deadlines and "every request answered once" as the local client (`RequestChannel`). A shard that goes (its
 * heartbeats stop, or it comes back as another incarnation) fails what it had in flight at once
 * with `runtime_down`, as a dead child does.
 *
 * Updates and authorization states come from JetStream: every update kept there is read into this
 * gateway's hub with the number its shard gave it, so a client resumes on any gateway. When the
 * owner of some userbots changes, what this gateway knew of them is forgotten and it says
 * `runtime_restarted`: the userbots plugin then starts them again, which reaches their new owner.
 */
export interface RemoteRuntimeOptions {
	bus: Bus
	gatewayId: string
	heartbeatMs: number
	commandTimeoutMs: number
	backend: 'tdlib' | 'emulator'
	log: Logger
}

const MOVED_RETRY_MS = 100
/** How often userbots whose start the bus failed are started again, at most. */
const RETRY_STARTS_MS = 5_000

export class RemoteRuntime implements TelegramRuntime {
	readonly membership: Membership
	private readonly channel: RequestChannel
	private readonly requests: RemoteRequests
	private readonly states = new Map<number, string>()
	/** Userbots whose last start was refused for a folder another process holds (cleared by a state). */
	private readonly held = new Set<number>()
	/** The shard incarnation each known userbot was last seen on. */
	private readonly owners = new Map<number, string>()
	private kinds: string[] = []
	private restarts = 0
	private readonly stops: Array<() => void> = []
	private readonly log: Logger
	private readonly feed: EventFeed
	readonly leaseView: LeaseView
	private readonly reconcile: GatewayReconcile
	private readonly where: RemotePlacement

	constructor(private readonly opts: RemoteRuntimeOptions) {
		this.log = opts.log.child({ component: 'gateway-bus' })
		this.channel = new RequestChannel(this.log)
		this.membership = new Membership({ bus: opts.bus, heartbeatMs: opts.heartbeatMs, log: this.log })
		this.requests = new RemoteRequests(opts.bus, opts.gatewayId, this.channel)
		this.feed = new EventFeed(
			opts.bus,
			{
				onAuthState: (e) => this.onAuthState(e),
				onStatus: (e: StatusEvent) => this.emit({ type: 'userbot_status', ...e }),
				onUpdate: (e) => this.onUpdate(e),
			},
			this.log,
		)
		this.leaseView = new LeaseView(opts.bus, this.log)
		this.where = new RemotePlacement(this.membership, this.leaseView)
		this.reconcile = new GatewayReconcile(
			{
				recheck: async () => {
					await Promise.all([this.membership.recheck(), this.leaseView.recheck(), this.feed.check()])
				},
				reconcileOwners: () => {
					this.onMembers()
					this.retryFailedStarts()
				},
				leaseMismatches: () => this.where.leaseMismatches(),
				connected: () => this.opts.bus.connected(),
				feed: () => this.feed.health(),
			},
			opts.heartbeatMs,
		)
	}

	/** The requests in flight, by their count (operators' tools and tests read it). */
	get pending(): { readonly size: number } {
		return this.channel
	}

	private get closing(): boolean {
		return this.channel.closed
	}

	async start(): Promise<void> {
		this.requests.listen()
		await this.membership.watch()
		await this.membership.join({
			kind: 'gateway',
			id: this.opts.gatewayId,
			entry: () => ({ kinds: this.kinds }),
		})
		this.stops.push(this.membership.onChange(() => this.onMembers()))
		await this.feed.start()
		this.stops.push(() => this.feed.close())
		await this.leaseView.watch()
		this.stops.push(() => this.leaseView.close())
		this.where.changes()
		this.reconcile.start()
		this.stops.push(() => this.reconcile.stop())
	}

	private onAuthState({ userbotId, state, detail, owner }: AuthStateEvent) {
		this.held.delete(userbotId)
		if (state === 'authorizationStateClosed') {
			this.states.delete(userbotId)
			this.owners.delete(userbotId)
		} else {
			this.states.set(userbotId, state)
			if (owner) this.owners.set(userbotId, owner)
		}
		this.emit(authorizationStateEvent(userbotId, state, detail))
	}

	private onUpdate({ userbotId, seq, update }: UpdateEvent) {
		this.emit({ type: 'update', userbotId, update, seq })
	}

	/** Shards came or went: fail what the gone ones had in flight, forget the userbots that moved. */
	private onMembers() {
		const { now, came, gone } = this.where.changes()
		for (const key of gone) this.requests.failShard(key)
		let moved = 0
		for (const [userbotId, was] of this.owners) {
			if (this.where.ownerKey(userbotId) === was) continue
			this.owners.delete(userbotId)
			this.states.delete(userbotId)
			moved++
		}
		// A shard that came starts its share; one that went leaves its share to the others. Either way
		// the userbots plugin starts again whatever is not known to run (`restore`), on its owner now.
		if ((moved > 0 || came.length > 0 || gone.length > 0) && now.size > 0 && !this.closing) {
			this.log.info('shards changed', { moved, came: came.length, gone: gone.length })
			this.restarts++
			this.emit({ type: 'runtime_restarted', restarts: this.restarts })
		}
	}

	private emit(event: RuntimeEvent) {
		this.channel.emit(event)
	}

	/** Sends `msg` to the userbot's shard under a fresh id; resolves with the reply. */
	private request(
		userbotId: number,
		msg: ParentMessage & { id: number },
		opts: { timeoutMs?: number; signal?: AbortSignal } = {},
	): { promise: Promise<unknown>; shard?: string } {
		// Closed: refused by the channel below, before any shard is looked for.
		const shard = this.closing ? '' : this.where.ownerKey(userbotId)
		if (shard === undefined)
			return { promise: Promise.reject(new RuntimeError('runtime_down', 'no shard is up')) }
		const timeoutMs = opts.timeoutMs ?? this.opts.commandTimeoutMs
		if (msg.type === 'invoke') msg.timeoutMs = timeoutMs
		return { promise: this.requests.send(shard, msg, { timeoutMs, signal: opts.signal }), shard }
	}

	invoke<M extends TdMethod>(
		userbotId: number,
		request: TdRequest<M>,
		opts?: InvokeOptions,
	): Promise<TdResult<M>> {
		this.channel.told(userbotId, request, opts?.label)
		// The label says who sends it (a command, a lifecycle step): the shard checks the method against it.
		const label = opts?.label
		return this.request(
			userbotId,
			{ type: 'invoke', id: 0, userbotId, request, ...(label ? { label } : {}) },
			opts,
		).promise as Promise<TdResult<M>>
	}

	/** Starts the client on its owner; asked again while the owner says it is another's (views differ for a moment). */
	async startClient(userbotId: number, opts: StartClientOptions): Promise<string> {
		const end = performance.now() + this.opts.commandTimeoutMs
		for (;;) {
			const left = Math.max(1, Math.ceil(end - performance.now()))
			// Every shard full: refused here, naming each one's limit (docs/capacity.md#on-a-bus).
			const { placement } = this.where.of(userbotId)
			if (placement && 'full' in placement) throw placement.full
			const { promise, shard } = this.request(userbotId, startMessage(userbotId, opts), { timeoutMs: left })
			try {
				const state = String(await promise)
				this.held.delete(userbotId)
				if (shard) this.owners.set(userbotId, shard)
				if (state !== 'authorizationStateClosed') this.states.set(userbotId, state)
				return state
			} catch (err) {
				if (err instanceof RuntimeError && err.code === 'held_elsewhere') this.held.add(userbotId)
				if (!(err instanceof MovedError) || performance.now() + MOVED_RETRY_MS > end) {
					// The bus or a shard failed it, not TDLib: the next check has the userbots started again.
					if (err instanceof MovedError || err instanceof RuntimeError) this.failedStarts++
					throw err instanceof MovedError ? new RuntimeError('unavailable', err.message) : err
				}
				await Bun.sleep(MOVED_RETRY_MS)
			}
		}
	}

	async stopClient(userbotId: number, opts: { logOut: boolean; removeData: boolean }): Promise<void> {
		this.states.delete(userbotId)
		this.owners.delete(userbotId)
		const { msg, timeoutMs } = stopRequest(userbotId, opts, this.opts.commandTimeoutMs)
		await this.request(userbotId, msg, { timeoutMs }).promise
	}

	authorizationState(userbotId: number): string | undefined {
		return this.states.get(userbotId)
	}

	heldElsewhere(userbotId: number): boolean {
		return this.held.has(userbotId)
	}

	onEvent(listener: (event: RuntimeEvent) => void): () => void {
		return this.channel.onEvent(listener)
	}

	/** Said to the shards through this gateway's entry among the members. */
	setUpdateFilter(kinds: readonly string[]): void {
		const next = [...kinds].sort()
		if (next.join(',') === this.kinds.join(',')) return
		this.kinds = next
		this.membership.refresh()
	}

	onRequest(listener: (event: RequestEvent) => void): () => void {
		return this.channel.onRequest(listener)
	}

	/** The deployment's room as the live shards advertise it; undefined while one advertises none. */
	room(): Room | undefined {
		return this.where.room()
	}

	health() {
		const up = !this.closing && !this.opts.bus.nc.isClosed() && this.membership.shards().size > 0
		const bus = this.reconcile.health()
		return { up, restarts: this.restarts, clients: this.states.size, backend: this.opts.backend, bus }
	}

	/** Starts the bus or a shard failed since the last check (not TDLib): they are asked for again. */
	private failedStarts = 0
	private lastRetry = 0

	/** At most every `RETRY_STARTS_MS`: the userbots plugin reads every userbot again for it. */
	private retryFailedStarts() {
		if (this.failedStarts === 0 || this.closing || !this.membership.viewFresh()) return
		if (this.membership.shards().size === 0 || performance.now() - this.lastRetry < RETRY_STARTS_MS) return
		this.lastRetry = performance.now()
		this.log.info('starting again the userbots whose start failed on the bus', { failed: this.failedStarts })
		this.failedStarts = 0
		this.restarts++
		this.emit({ type: 'runtime_restarted', restarts: this.restarts })
	}

	get pid(): number | undefined {
		return undefined
	}

	async close(): Promise<void> {
		if (this.closing) return
		this.channel.stopTaking()
		for (const stop of this.stops.splice(0)) stop()
		this.channel.close()
		await this.requests.close()
		await this.membership.close()
	}
}
