import type { Msg, Subscription } from '@nats-io/transport-node'
import type { Room } from '../supervisor/capacity'
import type { InvokeMessage, StartMessage, StopMessage } from '../supervisor/protocol'
import type { RuntimeEvent, TelegramRuntime } from '../supervisor/types'
import type { FolderLock } from '../telegram/binlog-lock'
import { RuntimeError, type TdRequest } from '../telegram/types'
import { createKeyedQueue } from '../util/keyed-queue'
import type { Logger } from '../util/logger'
import { checkShardRequest } from './allowed'
import type { Bus } from './connection'
import { LeaseView } from './lease-view'
import { type LeaseHolder, Leases } from './leases'
import { Membership } from './membership'
import { type Placement, place, withOwnRoom } from './placement'
import { ShardEvents } from './shard-events'
import { type ReconcilableShard, ShardReconcile } from './shard-reconcile'
import { MovedError, serveShardMessage } from './shard-requests'
import { checkPeerLocks, holdShardLock } from './storage-locks'
import { leaseKey, shardSubject } from './subjects'
import { lastUpdateSeq } from './update-log'

/**
 * A supervisor shard on the bus: the supervisors of this process (`SUPERVISORS`), serving the
 * supervisor protocol to every gateway on `ubg.shard.<SHARD_ID>` (NATS request/reply: one message
 * per request, one reply per request, the same messages as the Unix socket), and publishing its
 * userbots' updates and authorization states to JetStream.
 *
 * Which userbots it runs: those whose rendezvous owner among the live shards it is, each only while
 * it holds the userbot's lease (`leases.ts`). When the members change, it stops the userbots that
 * are no longer its own and lets go of their leases; the gateways start them on their new owner,
 * which waits for the lease. If its own heartbeats stop reaching the bus (two heartbeats without
 * one stored), it stops every client at once, before the others take it for gone (three), and
 * comes back as a new incarnation: so a shard cut off from the bus never runs a userbot that
 * another shard has taken over.
 */
export interface ShardServerOptions {
	bus: Bus
	shardId: string
	/** This process's supervisors; `fence` renews their children's fence; `room` is advertised. */
	local: TelegramRuntime & { fence?(ms: number): void; room?(): Room | undefined }
	heartbeatMs: number
	/** Kinds of update always forwarded (`UPDATE_KINDS`); gateways add their subscribers'. */
	defaultKinds: readonly string[]
	commandTimeoutMs: number
	log: Logger
	/** The TDLib methods a sender may send, by its label (a command's name, `userbots:<step>`). */
	methodsOf(label: string | undefined): ReadonlySet<string> | undefined
	/** The data folder (uploads are the only local files a request may name). */
	dataDir: string
	/** The backend is the emulator: its own test-control methods are taken too. */
	emulator: boolean
}

/** How long a start waits for the previous owner to let go of the userbot. */
const LEASE_WAIT_MS = 20_000

export class ShardServer {
	readonly membership: Membership
	private incarnation = crypto.randomUUID()
	private leases: Leases
	private readonly queue = createKeyedQueue()
	/** Userbots whose lease is held: their events are published. */
	private readonly running = new Set<number>()
	/** Userbots being handed over: their closing states are not the account's, and are not told. */
	private readonly leaving = new Set<number>()
	private readonly starting = new Map<number, Promise<unknown>>()
	private readonly events: ShardEvents
	/** Userbots whose stale lease was cleared here: their next start skips a number, as a takeover does. */
	private readonly tainted = new Set<number>()
	readonly leaseView: LeaseView
	private sub?: Subscription
	private fenceTimer?: ReturnType<typeof setInterval>
	private reconcileTimer?: ReturnType<typeof setInterval>
	private readonly reconcile: ShardReconcile
	private offEvents?: () => void
	private offMembers?: () => void
	private closed = false
	/** This shard's lock on the shared storage, held for its life (storage-locks.ts). */
	private storageLock?: FolderLock
	private readonly log: Logger

	constructor(private readonly opts: ShardServerOptions) {
		this.log = opts.log.child({ component: 'shard', shard: opts.shardId })
		this.membership = new Membership({ bus: opts.bus, heartbeatMs: opts.heartbeatMs, log: this.log })
		this.leases = this.makeLeases()
		this.leaseView = new LeaseView(opts.bus, this.log)
		this.events = new ShardEvents(opts.bus, opts.shardId, this.log)
		this.reconcile = new ShardReconcile(this.reconcilable(), this.log)
	}

	private reconcilable(): ReconcilableShard {
		return {
			shardId: this.opts.shardId,
			incarnation: () => this.incarnation,
			busy: (id) => this.starting.has(id) || this.leaving.has(id),
			running: () => [...this.running],
			isOwner: (id) => this.isOwner(id),
			alive: (holder) => this.membership.shards().get(holder.shard) === holder.incarnation,
			viewFresh: () => this.membership.viewFresh(),
			leaseView: this.leaseView,
			recheck: async () => {
				await Promise.all([this.membership.recheck(), this.leaseView.recheck()])
			},
			handOver: () => this.onMembers(),
			reacquire: (id) =>
				this.queue(String(id), async () => {
					if (!this.running.has(id)) return true
					const placed = this.leases.placedByRoom(id) ? 'room' : undefined
					this.leases.forget(id)
					try {
						await this.leases.acquire(id, 0, placed)
						return true
					} catch {
						await this.stopHereNow(id)
						return false
					}
				}),
			stopHere: (id) => this.queue(String(id), () => this.stopHereNow(id)),
			clearLease: async (id, revision) => {
				await this.opts.bus.leases.delete(leaseKey(id), { previousSeq: revision })
				this.tainted.add(id)
			},
		}
	}

	/** Stops a userbot here, its lease left to whoever holds it now. */
	private async stopHereNow(userbotId: number) {
		if (!this.running.has(userbotId)) return
		this.leaving.add(userbotId)
		try {
			await this.opts.local.stopClient(userbotId, { logOut: false, removeData: false })
		} finally {
			this.leaving.delete(userbotId)
		}
		this.running.delete(userbotId)
		this.events.forget(userbotId)
		this.leases.forget(userbotId)
	}

	private makeLeases() {
		const self: LeaseHolder = { shard: this.opts.shardId, incarnation: this.incarnation }
		return new Leases(
			this.opts.bus,
			self,
			(holder) => this.membership.shards().get(holder.shard) === holder.incarnation,
			() => this.membership.viewFresh(),
		)
	}

	/**
	 * Joins the bus. A shard of the same id that is still beating (the process before a restart, not
	 * yet taken for gone) is waited for, so that its userbots are never run twice; a live one that
	 * does not go away means two processes share the id, and the start fails.
	 */
	async start(): Promise<void> {
		await this.membership.watch()
		const end = performance.now() + this.membership.ttlMs + 2 * this.opts.heartbeatMs
		while (this.membership.heldByOther(this.opts.shardId, this.incarnation)) {
			if (performance.now() > end)
				throw new Error(`SHARD_ID ${this.opts.shardId} is used by another running shard`)
			await Bun.sleep(Math.min(100, this.opts.heartbeatMs))
		}
		// The storage must carry POSIX locks between the shards, TDLib's lock being the last fence
		// of one owner per account: this shard's own, then every other's, seen (storage-locks.ts).
		this.storageLock = await holdShardLock(
			this.opts.dataDir,
			this.opts.shardId,
			Math.max(0, end - performance.now()),
		)
		await checkPeerLocks(this.membership, this.opts.dataDir, this.opts.shardId, this.opts.heartbeatMs)
		this.offEvents = this.opts.local.onEvent((e) => this.onLocalEvent(e))
		this.sub = this.opts.bus.nc.subscribe(shardSubject(this.opts.shardId), {
			callback: (err, msg) => {
				if (!err) this.onMessage(msg)
			},
		})
		await this.membership.join({
			kind: 'shard',
			id: this.opts.shardId,
			entry: () => {
				const room = this.opts.local.room?.()
				return room
					? { incarnation: this.incarnation, room, locks: true }
					: { incarnation: this.incarnation, locks: true }
			},
		})
		this.offMembers = this.membership.onChange(() => this.onMembers())
		this.onMembers()
		await this.leaseView.watch()
		this.reconcileTimer = setInterval(
			() => void this.reconcile.tick(),
			Math.max(500, 3 * this.opts.heartbeatMs),
		)
		this.fenceTimer = setInterval(
			() => this.checkFence(),
			Math.max(20, Math.floor(this.opts.heartbeatMs / 4)),
		)
		this.log.info('shard joined', { incarnation: this.incarnation })
	}

	get id(): string {
		return this.opts.shardId
	}

	get incarnationId(): string {
		return this.incarnation
	}

	/** This shard's own room, from its supervisors' limits; undefined while none is known. */
	room(): Room | undefined {
		return this.opts.local.room?.()
	}

	/** Where the userbot runs (placement.ts), as this shard sees it: its own room exact, its own leases first. */
	private placement(userbotId: number, leaseGone = false): Placement | undefined {
		const self = { id: this.opts.shardId, incarnation: this.incarnation }
		const shards = withOwnRoom(this.membership.liveShards(), self, this.opts.local.room?.())
		const holder = leaseGone
			? undefined
			: this.leases.holds(userbotId)
				? {
						shard: self.id,
						incarnation: self.incarnation,
						...(this.leases.placedByRoom(userbotId) ? { placed: 'room' as const } : {}),
					}
				: this.leaseView.get(userbotId)?.holder
		return place(userbotId, shards, holder)
	}

	private isOwner(userbotId: number): boolean {
		const p = this.placement(userbotId)
		return p !== undefined && 'shard' in p && p.shard === this.opts.shardId
	}

	private onMessage(msg: Msg) {
		serveShardMessage(this.opts.bus.codec, msg, {
			invoke: (m) => this.invoke(m),
			start: (m) => this.queue(String(m.userbotId), () => this.startUserbot(m)),
			stop: (m) => this.queue(String(m.userbotId), () => this.stopUserbot(m)),
		})
	}

	private async invoke(m: InvokeMessage) {
		// The gateway's own check, again: what its sender may send, as TDLib's schema has it.
		checkShardRequest(m, this.opts, this.log)
		// A request that overtook its userbot's start waits for it, as the child does.
		const starting = this.starting.get(m.userbotId)
		if (starting) await starting.catch(() => undefined)
		// The label goes along: the flood governor of this shard paces by the sender's declared class.
		return this.opts.local.invoke(m.userbotId, m.request as TdRequest, {
			timeoutMs: m.timeoutMs ?? this.opts.commandTimeoutMs,
			label: m.label,
		})
	}

	private startUserbot(m: StartMessage): Promise<unknown> {
		const run = async () => {
			const userbotId = m.userbotId
			if (!this.running.has(userbotId)) {
				// A stale view (just back from a freeze) decides nothing: the gateway asks again.
				if (!this.membership.viewFresh()) throw new MovedError()
				const p = this.placement(userbotId)
				if (p && 'full' in p) throw p.full
				// Another shard's (the gateway's view of the rooms is a heartbeat old: ours goes out now).
				if (p?.shard !== this.opts.shardId) {
					this.membership.refresh()
					throw new MovedError()
				}
				const leases = this.leases
				const { takenOver } = await leases.acquire(userbotId, LEASE_WAIT_MS, p.byRoom ? 'room' : undefined)
				// Cut off meanwhile: that lease is the past incarnation's; the gateway asks again.
				if (leases !== this.leases)
					throw new RuntimeError('unavailable', 'cut off from the bus while starting')
				try {
					// Taken over from a holder that went without letting go: updates it numbered but could not
					// publish are lost, so a number is skipped and the gateways' subscribers get `resync`.
					const skip = takenOver || this.tainted.delete(userbotId) ? 1 : 0
					this.events.startAt(userbotId, (await lastUpdateSeq(this.opts.bus, userbotId)) + skip)
				} catch (err) {
					await this.leases.release(userbotId).catch(() => undefined)
					throw err
				}
				this.running.add(userbotId)
			}
			try {
				const state = await this.opts.local.startClient(userbotId, {
					encryptionKey: m.encryptionKey,
					...(m.proxy ? { proxy: m.proxy } : {}),
				})
				const room = this.opts.local.room?.()
				if (room && room.used >= room.clients) this.membership.refresh()
				return state
			} catch (err) {
				// The supervisor died meanwhile, or the folder is still held by the shard this userbot
				// moved from: the supervisor starts the client itself once it can, so the lease stays.
				const keeps =
					err instanceof RuntimeError && (err.code === 'runtime_down' || err.code === 'held_elsewhere')
				if (!keeps) await this.letGo(userbotId)
				// Full here after all (another start took the last place): elsewhere if another has room.
				if (err instanceof RuntimeError && err.code === 'capacity') {
					this.membership.refresh()
					// Let go just now: the lease still in the view is not where it runs.
					const p = this.placement(userbotId, true)
					if (p && 'shard' in p && p.shard !== this.opts.shardId) throw new MovedError()
				}
				throw err
			}
		}
		const p = run()
		this.starting.set(m.userbotId, p)
		void p.then(
			() => this.starting.get(m.userbotId) === p && this.starting.delete(m.userbotId),
			() => this.starting.get(m.userbotId) === p && this.starting.delete(m.userbotId),
		)
		return p
	}

	private async stopUserbot(m: StopMessage) {
		await this.opts.local.stopClient(m.userbotId, { logOut: m.logOut, removeData: m.removeData })
		await this.letGo(m.userbotId)
		return null
	}

	private async letGo(userbotId: number) {
		this.running.delete(userbotId)
		this.events.forget(userbotId)
		await this.leases.release(userbotId)
	}

	/** Stops the userbots that now belong to another shard, and tells the supervisors the update kinds. */
	private onMembers() {
		if (this.closed) return
		this.opts.local.setUpdateFilter([
			...new Set([...this.opts.defaultKinds, ...this.membership.gatewayKinds()]),
		])
		for (const userbotId of this.running) {
			if (this.isOwner(userbotId)) continue
			void this.queue(String(userbotId), () => this.handOver(userbotId)).catch((err: unknown) =>
				this.log.warn('could not hand a userbot over', { userbotId, error: String(err) }),
			)
		}
	}

	private async handOver(userbotId: number) {
		if (!this.running.has(userbotId) || this.isOwner(userbotId)) return
		this.leaving.add(userbotId)
		try {
			await this.opts.local.stopClient(userbotId, { logOut: false, removeData: false })
		} finally {
			this.leaving.delete(userbotId)
		}
		await this.letGo(userbotId)
		this.log.info('userbot handed over', { userbotId })
	}

	/**
	 * Cut off from the bus for two heartbeats: stop everything before the others take over (three).
	 * While the heartbeats go through, the children's fence is renewed up to that same moment, so a
	 * process that freezes is covered too: its children close their clients when the fence runs out.
	 */
	private checkFence() {
		if (this.closed) return
		const left = this.membership.lastBeatOk + 2 * this.opts.heartbeatMs - performance.now()
		if (left > 0) {
			this.opts.local.fence?.(left)
			return
		}
		if (this.running.size === 0) return
		const ids = [...this.running]
		this.log.warn('cut off from the bus: stopping every userbot', { count: ids.length })
		this.running.clear()
		this.events.clear()
		this.leases.dropAll()
		for (const userbotId of ids) {
			this.leaving.add(userbotId)
			void this.opts.local
				.stopClient(userbotId, { logOut: false, removeData: false })
				.catch(() => undefined)
				.finally(() => this.leaving.delete(userbotId))
		}
		// Back on the bus, it is a new incarnation: the gateways start its share on it again. Said at
		// once (right after a heartbeat still on its way, if one is): until the members name it, its
		// own view is not fresh (it starts nothing) and the others know only the past incarnation.
		this.incarnation = crypto.randomUUID()
		this.leases = this.makeLeases()
		this.membership.refresh()
	}

	private onLocalEvent(e: RuntimeEvent) {
		if (e.type === 'runtime_restarted' || e.type === 'runtime_down') return
		const userbotId = e.userbotId
		if (!this.running.has(userbotId)) return
		if (e.type === 'update') return this.events.update(e)
		if (this.leaving.has(userbotId)) return
		this.events.state(e, this.incarnation)
	}

	/** Stops taking requests, closes every client and lets go of the leases, then leaves. */
	async close(): Promise<void> {
		if (this.closed) return
		this.closed = true
		clearInterval(this.fenceTimer)
		clearInterval(this.reconcileTimer)
		this.leaseView.close()
		this.offMembers?.()
		await this.sub?.drain().catch(() => undefined)
		this.offEvents?.()
		const ids = [...this.running]
		this.running.clear()
		await this.opts.local.close()
		await Promise.all(ids.map((id) => this.leases.release(id).catch(() => undefined)))
		await this.membership.close()
		this.storageLock?.release()
	}
}
