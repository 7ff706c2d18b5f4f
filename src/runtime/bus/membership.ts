import type { KvEntry } from '@nats-io/kv'
import type { Logger } from '../../common/util/logger'
import type { Bus } from './connection'
import {
	followMembers,
	type GatewayEntry,
	gatewayKindsOf,
	liveShardsOf,
	type MemberEntry,
	type ShardEntry,
	shardsOf,
} from './member-entries'
import { type LiveShard, parseRoom } from './placement'
import { Resilient, within } from './resilient'
import { gatewayKey, kvSubject, MEMBERS_BUCKET, shardKey } from './subjects'

/**
 * Who is up on the bus. Every gateway and shard puts its own entry in the members bucket at each
 * heartbeat and watches everyone's. A member is up while its heartbeats arrive: silent for three
 * heartbeats (as this process's clock counts from the last one it received), or deleted (a clean
 * stop), it is gone. Liveness is judged by arrival, not by the server's timestamps, so clocks of
 * other machines do not matter, but for entries found at start (their age is all there is).
 */
interface Seen {
	value: MemberEntry
	/** performance.now() of the last heartbeat received. */
	at: number
}

export interface MembershipOptions {
	bus: Pick<Bus, 'members' | 'codec' | 'onReconnect'>
	heartbeatMs: number
	log: Logger
	/** How many heartbeats a member may miss before it is gone; default 3. */
	missed?: number
}

export type Self =
	| { kind: 'shard'; id: string; entry: () => ShardEntry }
	| { kind: 'gateway'; id: string; entry: () => GatewayEntry }

export class Membership {
	private readonly seen = new Map<string, Seen>()
	private readonly listeners = new Set<() => void>()
	private timer?: ReturnType<typeof setInterval>
	private watcher?: Resilient
	private self?: Self
	private liveKey = ''
	private closed = false
	/** performance.now() when the last heartbeat of our own was stored by the server. */
	lastBeatOk = 0
	readonly ttlMs: number

	constructor(private readonly opts: MembershipOptions) {
		this.ttlMs = opts.heartbeatMs * (opts.missed ?? 3)
	}

	/** Starts watching; resolves once the entries already there are read. Made again after a reconnect. */
	async watch(): Promise<void> {
		this.watcher = new Resilient(
			'members',
			{ start: (ended) => this.follow(ended), stalled: async () => this.stalled() },
			this.opts.bus,
			this.opts.log,
		)
		await this.watcher.open()
		this.timer = setInterval(() => this.tick(), Math.max(25, Math.floor(this.opts.heartbeatMs / 2)))
		this.check()
	}

	private follow(ended: () => void): Promise<() => void> {
		return followMembers(
			this.opts.bus.members,
			{
				// Counted again from this watch's first read: a server that lost its store numbers from 1 again.
				began: () => {
					this.seenRevision = 0
					this.awaited = 0
				},
				onEntry: (e, initial) => this.onEntry(e, initial),
				ended,
				quiet: () => this.closed,
			},
			this.opts.log,
		)
	}

	/** Makes the watch again if it is down or stuck (called periodically). */
	recheck(): Promise<void> {
		if (this.watcher && !this.watcher.up) this.watcher.restart()
		else return this.watcher?.check() ?? Promise.resolve()
		return Promise.resolve()
	}

	/**
	 * Stuck: a heartbeat of ours the server stored before the last check has not come back through
	 * the watch. (A watch made again on a server that had just restarted can stay silent while the
	 * puts succeed: this process would then take every other member for gone, for good.)
	 */
	private stalled(): boolean {
		const behind = this.awaited > 0 && this.seenRevision < this.awaited
		this.awaited = this.putRevision
		return behind
	}

	/** Joins: our own entry, now and at every heartbeat. */
	async join(self: Self): Promise<void> {
		this.self = self
		await this.beat()
	}

	/** Leaves at once (a clean stop): the others need not wait for the heartbeats to stop. */
	async leave(): Promise<void> {
		const self = this.self
		this.self = undefined
		if (!self) return
		await this.opts.bus.members.delete(this.keyOf(self)).catch(() => undefined)
	}

	private keyOf(self: Self) {
		return self.kind === 'shard' ? shardKey(self.id) : gatewayKey(self.id)
	}

	/** A heartbeat is on its way and not yet past its deadline: the next one waits for it. */
	private beating = false
	/** What we say changed while a heartbeat was on its way: sent again as soon as it is done. */
	private again = false
	private lastBeatAt = 0
	/** The bucket revision of our last stored heartbeat, the highest the watch delivered, and the one awaited. */
	private putRevision = 0
	private seenRevision = 0
	private awaited = 0
	/** performance.now() when the heartbeat behind `putRevision` was sent (one stored late is older). */
	private putSentAt = 0

	/**
	 * Sends our entry. A heartbeat waits for the one before it for one heartbeat at most: a put that
	 * has not settled by then (the client's request times out only after seconds, and one that never
	 * settles would silence us for good) frees the next one. One that succeeds late still counts,
	 * for when it was sent; from one connection they are stored in the order they were sent, so
	 * the newest entry (a new incarnation) is the one that stays.
	 */
	private async beat(changed = false) {
		const self = this.self
		if (!self) return
		if (this.beating) {
			if (changed) this.again = true
			return
		}
		this.beating = true
		this.again = false
		const sent = performance.now()
		this.lastBeatAt = sent
		const key = this.keyOf(self)
		const stored = (async () => {
			try {
				const revision = await this.opts.bus.members.put(
					key,
					this.opts.bus.codec.seal(kvSubject(MEMBERS_BUCKET, key), self.entry()),
				)
				// Measured from the send: the others heard it no earlier than that.
				if (sent >= this.putSentAt) {
					this.putSentAt = sent
					this.putRevision = revision
				}
				if (sent > this.lastBeatOk) this.lastBeatOk = sent
			} catch (err) {
				this.opts.log.warn('bus heartbeat failed', { error: String(err) })
			}
		})()
		try {
			await within(stored, this.opts.heartbeatMs, 'a heartbeat')
		} catch {
			// Still on its way: it counts if it lands; the next heartbeat is not held back by it.
		} finally {
			this.beating = false
		}
		if (this.again) void this.beat(true)
	}

	/** Sends our entry now (what it says changed: a gateway's update kinds, a shard's incarnation). */
	refresh(): void {
		void this.beat(true)
	}

	private tick() {
		if (this.self && performance.now() - this.lastBeatAt >= this.opts.heartbeatMs) void this.beat()
		this.check()
	}

	private onEntry(e: KvEntry, initial: boolean) {
		if (e.revision > this.seenRevision) this.seenRevision = e.revision
		if (e.operation !== 'PUT') {
			this.seen.delete(e.key)
			return this.check()
		}
		// Sealed by a gateway or shard of this deployment, or not a member at all.
		const value = this.opts.bus.codec.open<MemberEntry>(
			kvSubject(MEMBERS_BUCKET, e.key),
			e.value,
			e.created.getTime(),
		)
		if (!value || typeof value !== 'object') return
		if (e.key.startsWith('shard.')) {
			const entry = value as ShardEntry
			// A shard's room places userbots: one that does not parse drops the whole entry.
			if (typeof entry.incarnation !== 'string' || parseRoom(entry.room) === null) {
				this.seen.delete(e.key)
				return this.check()
			}
		}
		// Found at start: only its age says whether it still beats.
		const age = initial ? Math.max(0, Date.now() - e.created.getTime()) : 0
		this.seen.set(e.key, { value, at: performance.now() - age })
		this.check()
	}

	/** Calls the listeners when the set of live members (or an incarnation) changed. */
	private check() {
		const key = [...this.liveEntries()]
			.map(([k, v]) => `${k}=${'incarnation' in v ? v.incarnation : ''}`)
			.sort()
			.join(',')
		if (key === this.liveKey) return
		this.liveKey = key
		for (const l of this.listeners) {
			try {
				l()
			} catch (err) {
				this.opts.log.error('membership listener failed', { error: err instanceof Error ? err : String(err) })
			}
		}
	}

	private *liveEntries(): Generator<[string, MemberEntry]> {
		const now = performance.now()
		for (const [k, s] of this.seen) if (now - s.at < this.ttlMs) yield [k, s.value]
	}

	/** Live shards: id → incarnation. */
	shards(): Map<string, string> {
		return shardsOf(this.liveEntries())
	}

	/** Live shards with the room each advertises (placement.ts). */
	liveShards(): Map<string, LiveShard> {
		return liveShardsOf(this.liveEntries())
	}

	/**
	 * Live shards that say they hold their lock on the shared storage, each with when its last
	 * heartbeat came (performance.now()).
	 */
	lockingShards(): Map<string, number> {
		const out = new Map<string, number>()
		const now = performance.now()
		for (const [k, s] of this.seen) {
			if (!k.startsWith('shard.') || now - s.at >= this.ttlMs) continue
			if ((s.value as ShardEntry).locks === true) out.set(k.slice('shard.'.length), s.at)
		}
		return out
	}

	/** Every kind of update some live gateway wants. */
	gatewayKinds(): string[] {
		return gatewayKindsOf(this.liveEntries())
	}

	/**
	 * Whether this view is current: our own last heartbeat came back to us within two heartbeats.
	 * A process that was frozen wakes with everyone's entries old, as if all had gone; the bucket's
	 * watch is ordered, so once our own fresh heartbeat is back, every entry before it is read too.
	 */
	viewFresh(): boolean {
		const self = this.self
		const own = self && this.seen.get(this.keyOf(self))
		if (!self || !own) return false
		if (self.kind === 'shard' && (own.value as ShardEntry).incarnation !== self.entry().incarnation)
			return false
		return performance.now() - own.at < 2 * this.opts.heartbeatMs
	}

	/** Whether a live entry other than ours holds this shard id (another process, or our own past). */
	heldByOther(shardId: string, incarnation: string): boolean {
		const live = this.shards().get(shardId)
		return live !== undefined && live !== incarnation
	}

	onChange(listener: () => void): () => void {
		this.listeners.add(listener)
		return () => this.listeners.delete(listener)
	}

	async close(): Promise<void> {
		this.closed = true
		clearInterval(this.timer)
		await this.leave()
		this.watcher?.close()
	}
}
