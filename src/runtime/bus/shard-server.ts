import type { Msg, Subscription } from '@nats-io/transport-node'
import type { Logger } from '../../common/util/logger'
import type { Room } from '../supervisor/capacity'
import type { FolderLock } from '../telegram/binlog-lock'
import { LeaseView } from './lease-view'
import { Membership } from './membership'
import { ShardReconcile } from './shard-reconcile'
import { serveShardMessage } from './shard-requests'
import { ShardUserbots, type ShardUserbotsOptions } from './shard-userbots'
import { checkPeerLocks, holdShardLock } from './storage-locks'
import { shardSubject } from './subjects'

/**
 * A supervisor shard on the bus: the supervisors of this process (`SUPERVISORS`), serving the
 * supervisor protocol to every gateway on `ubg.shard.<SHARD_ID>` (NATS request/reply: one message
 * per request, one reply per request, the same messages as the Unix socket), and publishing its
 * userbots' updates and authorization states to JetStream.
 *
 * Which userbots it runs, and how they move between shards, is `ShardUserbots`'s (shard-userbots.ts);
 * this is the shard's presence on the bus: it joins the members, takes the requests, checks its
 * leases now and then (shard-reconcile.ts), and fences itself. If its own heartbeats stop reaching
 * the bus (two heartbeats without one stored), it stops every client at once, before the others
 * take it for gone (three), and comes back as a new incarnation: so a shard cut off from the bus
 * never runs a userbot that another shard has taken over.
 */
export interface ShardServerOptions extends ShardUserbotsOptions {
	heartbeatMs: number
	log: Logger
}

export class ShardServer {
	readonly membership: Membership
	readonly leaseView: LeaseView
	private readonly userbots: ShardUserbots
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
		this.leaseView = new LeaseView(opts.bus, this.log)
		this.userbots = new ShardUserbots(opts, this.membership, this.leaseView, this.log)
		this.reconcile = new ShardReconcile(this.userbots.reconcilable(), this.log)
	}

	/**
	 * Joins the bus. A shard of the same id that is still beating (the process before a restart, not
	 * yet taken for gone) is waited for, so that its userbots are never run twice; a live one that
	 * does not go away means two processes share the id, and the start fails.
	 */
	async start(): Promise<void> {
		await this.membership.watch()
		const end = performance.now() + this.membership.ttlMs + 2 * this.opts.heartbeatMs
		while (this.membership.heldByOther(this.opts.shardId, this.userbots.incarnationId)) {
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
		this.offEvents = this.opts.local.onEvent((e) => this.userbots.onLocalEvent(e))
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
					? { incarnation: this.userbots.incarnationId, room, locks: true }
					: { incarnation: this.userbots.incarnationId, locks: true }
			},
		})
		this.offMembers = this.membership.onChange(() => this.userbots.onMembers())
		this.userbots.onMembers()
		await this.leaseView.watch()
		this.reconcileTimer = setInterval(
			() => void this.reconcile.tick(),
			Math.max(500, 3 * this.opts.heartbeatMs),
		)
		this.fenceTimer = setInterval(
			() => this.checkFence(),
			Math.max(20, Math.floor(this.opts.heartbeatMs / 4)),
		)
		this.log.info('shard joined', { incarnation: this.userbots.incarnationId })
	}

	get id(): string {
		return this.opts.shardId
	}

	get incarnationId(): string {
		return this.userbots.incarnationId
	}

	/** This shard's own room, from its supervisors' limits; undefined while none is known. */
	room(): Room | undefined {
		return this.opts.local.room?.()
	}

	private onMessage(msg: Msg) {
		serveShardMessage(this.opts.bus.codec, msg, this.userbots.handlers())
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
		this.userbots.cutOff()
	}

	/** Stops taking requests, closes every client and lets go of the leases, then leaves. */
	async close(): Promise<void> {
		if (this.closed) return
		this.closed = true
		this.userbots.beginClose()
		clearInterval(this.fenceTimer)
		clearInterval(this.reconcileTimer)
		this.leaseView.close()
		this.offMembers?.()
		await this.sub?.drain().catch(() => undefined)
		this.offEvents?.()
		await this.userbots.close()
		await this.membership.close()
		this.storageLock?.release()
	}
}
