import { createKeyedQueue } from '../../common/util/keyed-queue'
import type { Logger } from '../../common/util/logger'
import type { Room } from '../supervisor/capacity'
import type { InvokeMessage, StartMessage, StopMessage } from '../supervisor/protocol'
import type { RuntimeEvent, TelegramRuntime } from '../supervisor/types'
import { RuntimeError, type TdRequest } from '../telegram/types'
import { checkShardRequest, type TdRequestCheck } from './allowed'
import type { Bus } from './connection'
import type { LeaseView } from './lease-view'
import type { Membership } from './membership'
import { ShardEvents } from './shard-events'
import { ShardIncarnation } from './shard-incarnation'
import type { ReconcilableShard } from './shard-reconcile'
import { MovedError, type ShardHandlers } from './shard-requests'
import { lastUpdateSeq } from './update-log'

/** What a shard's userbots need of it: its bus, its supervisors, and what a request may send. */
export interface ShardUserbotsOptions {
	bus: Bus
	shardId: string
	/** This process's supervisors; `fence` renews their children's fence; `room` is advertised. */
	local: TelegramRuntime & { fence?(ms: number): void; room?(): Room | undefined }
	/** Kinds of update always forwarded (`UPDATE_KINDS`); gateways add their subscribers'. */
	defaultKinds: readonly string[]
	commandTimeoutMs: number
	/** The TDLib methods a sender may send, by its label (a command's name, `userbots:<step>`). */
	methodsOf(label: string | undefined): ReadonlySet<string> | undefined
	/** The gateway's check of a TDLib request, made again here (allowed.ts). */
	checkRequest: TdRequestCheck
	/** The data folder (uploads are the only local files a request may name). */
	dataDir: string
	/** The backend is the emulator: its own test-control methods are taken too. */
	emulator: boolean
}

/**
 * The userbots a shard runs (`ShardServer` is its presence on the bus): those whose rendezvous
 * owner among the live shards it is, each only while it holds the userbot's lease under the
 * shard's current incarnation (shard-incarnation.ts). It serves the gateways' requests for them (one at a time
 * per userbot), publishes their events, hands over those that another shard owns now, and, cut
 * off from the bus, drops them all at once and begins a new incarnation.
 */
export class ShardUserbots {
	private readonly incarnation: ShardIncarnation
	private readonly queue = createKeyedQueue()
	/** Userbots whose lease is held: their events are published. */
	private readonly running = new Set<number>()
	/** Userbots being handed over: their closing states are not the account's, and are not told. */
	private readonly leaving = new Set<number>()
	private readonly starting = new Map<number, Promise<unknown>>()
	private readonly events: ShardEvents
	private closed = false

	constructor(
		private readonly opts: ShardUserbotsOptions,
		private readonly membership: Membership,
		private readonly leaseView: LeaseView,
		private readonly log: Logger,
	) {
		this.incarnation = new ShardIncarnation(opts, membership, leaseView)
		this.events = new ShardEvents(opts.bus, opts.shardId, log)
	}

	/** This shard's incarnation now: the one its leases and published states name. */
	get incarnationId(): string {
		return this.incarnation.current
	}

	/** How the gateways' requests are served: starts and stops of one userbot take turns. */
	handlers(): ShardHandlers {
		return {
			invoke: (m) => this.invoke(m),
			start: (m) => this.queue(String(m.userbotId), () => this.startUserbot(m)),
			stop: (m) => this.queue(String(m.userbotId), () => this.stopUserbot(m)),
		}
	}

	/** What the periodic check (shard-reconcile.ts) reads of the userbots and does to them. */
	reconcilable(): ReconcilableShard {
		return {
			shardId: this.opts.shardId,
			incarnation: () => this.incarnation.current,
			busy: (id) => this.starting.has(id) || this.leaving.has(id),
			running: () => [...this.running],
			isOwner: (id) => this.incarnation.isOwner(id),
			alive: (holder) => this.incarnation.alive(holder),
			viewFresh: () => this.membership.viewFresh(),
			leaseView: this.leaseView,
			recheck: async () => {
				await Promise.all([this.membership.recheck(), this.leaseView.recheck()])
			},
			handOver: () => this.onMembers(),
			reacquire: (id) =>
				this.queue(String(id), async () => {
					if (!this.running.has(id)) return true
					try {
						await this.incarnation.retake(id)
						return true
					} catch {
						await this.stopHereNow(id)
						return false
					}
				}),
			stopHere: (id) => this.queue(String(id), () => this.stopHereNow(id)),
			clearLease: (id, revision) => this.incarnation.clear(id, revision),
		}
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
			if (!this.running.has(m.userbotId)) await this.takeLease(m.userbotId)
			return this.startClient(m)
		}
		const p = run()
		this.starting.set(m.userbotId, p)
		void p.then(
			() => this.starting.get(m.userbotId) === p && this.starting.delete(m.userbotId),
			() => this.starting.get(m.userbotId) === p && this.starting.delete(m.userbotId),
		)
		return p
	}

	/** Takes the lease of a userbot this shard owns, and numbers its updates on from the last kept. */
	private async takeLease(userbotId: number) {
		// A stale view (just back from a freeze) decides nothing: the gateway asks again.
		if (!this.membership.viewFresh()) throw new MovedError()
		const p = this.incarnation.placement(userbotId)
		if (p && 'full' in p) throw p.full
		// Another shard's (the gateway's view of the rooms is a heartbeat old: ours goes out now).
		if (p?.shard !== this.opts.shardId) {
			this.membership.refresh()
			throw new MovedError()
		}
		// Taken over from a holder that went without letting go: updates it numbered but could not
		// publish are lost, so a number is skipped and the gateways' subscribers get `resync`.
		const skip = (await this.incarnation.take(userbotId, p.byRoom)) ? 1 : 0
		try {
			this.events.startAt(userbotId, (await lastUpdateSeq(this.opts.bus, userbotId)) + skip)
		} catch (err) {
			await this.incarnation.release(userbotId).catch(() => undefined)
			throw err
		}
		this.running.add(userbotId)
	}

	/** Starts the client of a userbot whose lease is held; a failure lets go of it, or moves it on. */
	private async startClient(m: StartMessage) {
		const userbotId = m.userbotId
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
				const p = this.incarnation.placement(userbotId, true)
				if (p && 'shard' in p && p.shard !== this.opts.shardId) throw new MovedError()
			}
			throw err
		}
	}

	private async stopUserbot(m: StopMessage) {
		await this.opts.local.stopClient(m.userbotId, { logOut: m.logOut, removeData: m.removeData })
		await this.letGo(m.userbotId)
		return null
	}

	private async letGo(userbotId: number) {
		this.running.delete(userbotId)
		this.events.forget(userbotId)
		await this.incarnation.release(userbotId)
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
		this.incarnation.forget(userbotId)
	}

	/** Stops the userbots that now belong to another shard, and tells the supervisors the update kinds. */
	onMembers(): void {
		if (this.closed) return
		this.opts.local.setUpdateFilter([
			...new Set([...this.opts.defaultKinds, ...this.membership.gatewayKinds()]),
		])
		for (const userbotId of this.running) {
			if (this.incarnation.isOwner(userbotId)) continue
			void this.queue(String(userbotId), () => this.handOver(userbotId)).catch((err: unknown) =>
				this.log.warn('could not hand a userbot over', { userbotId, error: String(err) }),
			)
		}
	}

	private async handOver(userbotId: number) {
		if (!this.running.has(userbotId) || this.incarnation.isOwner(userbotId)) return
		this.leaving.add(userbotId)
		try {
			await this.opts.local.stopClient(userbotId, { logOut: false, removeData: false })
		} finally {
			this.leaving.delete(userbotId)
		}
		await this.letGo(userbotId)
		this.log.info('userbot handed over', { userbotId })
	}

	/** Cut off from the bus: every client stopped and every lease dropped at once. */
	cutOff(): void {
		if (this.running.size === 0) return
		const ids = [...this.running]
		this.log.warn('cut off from the bus: stopping every userbot', { count: ids.length })
		this.running.clear()
		this.events.clear()
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
		this.incarnation.renew()
		this.membership.refresh()
	}

	/** A supervisor's event, published when it is of a userbot held here and not being handed over. */
	onLocalEvent(e: RuntimeEvent): void {
		if (e.type === 'runtime_restarted' || e.type === 'runtime_down') return
		const userbotId = e.userbotId
		if (!this.running.has(userbotId)) return
		if (e.type === 'update') this.events.update(e)
		else if (!this.leaving.has(userbotId)) this.events.state(e, this.incarnation.current)
	}

	/** A close has begun: no more hand-overs. */
	beginClose(): void {
		this.closed = true
	}

	/** Closes every client, then lets go of the leases. */
	async close(): Promise<void> {
		this.closed = true
		const ids = [...this.running]
		this.running.clear()
		await this.opts.local.close()
		await Promise.all(ids.map((id) => this.incarnation.release(id).catch(() => undefined)))
	}
}
