import type { KvEntry } from '@nats-io/kv'
import type { Logger } from '../../common/util/logger'
import { watchBucket } from './bucket-watch'
import type { Bus } from './connection'
import { isLeaseHolder, type LeaseHolder } from './leases'
import { Resilient } from './resilient'
import { kvSubject, LEASES_BUCKET, userbotOfLeaseKey } from './subjects'

export interface LeaseRecord {
	/** Undefined when the value does not open with the bus key (it holds nothing). */
	holder?: LeaseHolder
	revision: number
}

/**
 * Every lease in the bucket as it is now, watched (and watched again after a reconnect): what a
 * shard reconciles its own leases against, and what a gateway compares with the ownership for its
 * `/health`.
 */
export class LeaseView {
	private readonly leases = new Map<number, LeaseRecord>()
	private watcher?: Resilient
	/** The highest bucket revision the watch delivered, and the bucket's last at the previous check. */
	private seenRevision = 0
	private awaited = 0

	constructor(
		private readonly bus: Pick<Bus, 'leases' | 'codec' | 'onReconnect'>,
		private readonly log: Logger,
	) {}

	async watch(): Promise<void> {
		this.watcher = new Resilient(
			'leases',
			{ start: (ended) => this.follow(ended), stalled: () => this.stalled() },
			this.bus,
			this.log,
		)
		await this.watcher.open()
	}

	private follow(ended: () => void): Promise<() => void> {
		// Watched again from the start: what it holds now is what the bucket says.
		const fresh = new Map<number, LeaseRecord>()
		let initial = true
		// The whole bucket: its other keys (storage, secrets) make sure the first read ends with `delta` 0.
		return watchBucket(
			this.bus.leases,
			{
				// Counted again from this watch's first read: a server that lost its store numbers from 1 again.
				began: () => {
					this.seenRevision = 0
					this.awaited = 0
				},
				entry: (e) => this.onEntry(e, initial ? fresh : this.leases),
				settled: () => {
					initial = false
					this.leases.clear()
					for (const [k, v] of fresh) this.leases.set(k, v)
				},
				ended,
			},
			'the leases watch',
		)
	}

	/**
	 * Stuck: what the bucket held at the last check has not all come through the watch. (The bucket
	 * has no age limit, so its last sequence is always a message the watch delivers, a delete too.)
	 */
	private async stalled(): Promise<boolean> {
		const status = await this.bus.leases.status()
		const behind = this.awaited > 0 && this.seenRevision < this.awaited
		this.awaited = status.streamInfo.state.last_seq
		return behind
	}

	private onEntry(e: KvEntry, into: Map<number, LeaseRecord>) {
		if (e.revision > this.seenRevision) this.seenRevision = e.revision
		const userbotId = userbotOfLeaseKey(e.key)
		if (userbotId === undefined) return
		if (e.operation !== 'PUT') {
			into.delete(userbotId)
			return
		}
		const holder = this.bus.codec.open<LeaseHolder>(
			kvSubject(LEASES_BUCKET, e.key),
			e.value,
			e.created.getTime(),
		)
		into.set(userbotId, isLeaseHolder(holder) ? { holder, revision: e.revision } : { revision: e.revision })
	}

	get up(): boolean {
		return this.watcher?.up ?? false
	}

	entries(): IterableIterator<[number, LeaseRecord]> {
		return this.leases.entries()
	}

	get(userbotId: number): LeaseRecord | undefined {
		return this.leases.get(userbotId)
	}

	/** Makes the watch again if it is down or stuck (called periodically). */
	recheck(): Promise<void> {
		if (this.watcher && !this.watcher.up) this.watcher.restart()
		else return this.watcher?.check() ?? Promise.resolve()
		return Promise.resolve()
	}

	close(): void {
		this.watcher?.close()
	}
}
