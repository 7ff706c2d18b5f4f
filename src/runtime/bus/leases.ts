import type { Bus } from './connection'
import { kvSubject, LEASES_BUCKET, leaseKey } from './subjects'

/**
 * The fence that keeps a userbot out of two shards at once: a shard runs a userbot only while it
 * holds the userbot's lease, an entry in the leases bucket naming the shard and its incarnation.
 * Every change is revision-checked (create only if absent, update or delete only at the revision
 * read), so of two shards racing for one lease exactly one wins. A lease is taken over from its
 * holder only when the holder is gone from the members (its heartbeats stopped: it stopped its
 * clients itself before that, see `ShardServer`'s self-fence), and otherwise waited for: the holder
 * stops the userbot and lets go when it sees it is no longer the owner.
 */
export interface LeaseHolder {
	shard: string
	incarnation: string
	/** `room`: placed here because its home shard was full; it stays here (src/runtime/bus/placement.ts). */
	placed?: 'room'
}

/** Whether a lease's opened value is a holder (what another process wrote is checked). */
export function isLeaseHolder(value: unknown): value is LeaseHolder {
	if (!value || typeof value !== 'object') return false
	const v = value as Record<string, unknown>
	return (
		typeof v.shard === 'string' &&
		typeof v.incarnation === 'string' &&
		(v.placed === undefined || v.placed === 'room')
	)
}

export class LeaseTimeoutError extends Error {
	override name = 'LeaseTimeoutError'
}

export class Leases {
	/** Revisions of the leases this incarnation holds. */
	private readonly held = new Map<number, number>()
	/** Those of them placed here by room. */
	private readonly byRoom = new Set<number>()

	constructor(
		private readonly bus: Pick<Bus, 'leases' | 'codec'>,
		private readonly self: LeaseHolder,
		/** Whether a holder is still up (its shard live under that incarnation). */
		private readonly alive: (holder: LeaseHolder) => boolean,
		/** Whether what `alive` says is current (our own view of the members is not stale). */
		private readonly viewFresh: () => boolean = () => true,
	) {}

	holds(userbotId: number): boolean {
		return this.held.has(userbotId)
	}

	/** Whether the lease this incarnation holds says the userbot was placed here by room. */
	placedByRoom(userbotId: number): boolean {
		return this.held.has(userbotId) && this.byRoom.has(userbotId)
	}

	/**
	 * Takes the lease, waiting while a live holder has it; rejects after `timeoutMs`. Resolves with
	 * whether it was taken over from a holder that is gone (it did not let go: whatever it was doing
	 * when it went, such as publishing an update, may not have been done).
	 */
	async acquire(
		userbotId: number,
		timeoutMs: number,
		placed?: 'room',
		pollMs = 50,
	): Promise<{ takenOver: boolean }> {
		if (this.held.has(userbotId)) return { takenOver: false }
		const key = leaseKey(userbotId)
		const kv = this.bus.leases
		const mine: LeaseHolder = placed ? { ...this.self, placed } : this.self
		const value = this.bus.codec.seal(kvSubject(LEASES_BUCKET, key), mine)
		if (placed) this.byRoom.add(userbotId)
		else this.byRoom.delete(userbotId)
		const end = performance.now() + timeoutMs
		for (;;) {
			const entry = await kv.get(key)
			try {
				if (entry?.operation !== 'PUT') {
					const revision = entry ? await kv.update(key, value, entry.revision) : await kv.create(key, value)
					this.held.set(userbotId, revision)
					return { takenOver: false }
				}
				const holder = this.holderOf(key, entry.value, entry.created)
				if (holder?.incarnation === this.self.incarnation) {
					this.held.set(userbotId, await kv.update(key, value, entry.revision))
					return { takenOver: false }
				}
				// Gone only by a current view: a process that just woke from a freeze sees everyone as gone.
				// A value that does not open (not sealed by this deployment) holds nothing.
				if ((!holder || !this.alive(holder)) && this.viewFresh()) {
					this.held.set(userbotId, await kv.update(key, value, entry.revision))
					return { takenOver: true }
				}
			} catch (err) {
				// Someone else changed it between our read and our write: read again.
				if (!isConflict(err)) throw err
			}
			if (performance.now() > end) {
				this.byRoom.delete(userbotId)
				throw new LeaseTimeoutError(`userbot ${userbotId} is still run by another shard`)
			}
			await Bun.sleep(pollMs)
		}
	}

	/** The holder a lease's value names, if it opens with the bus key. */
	holderOf(key: string, value: Uint8Array, created: Date): LeaseHolder | undefined {
		const holder = this.bus.codec.open<LeaseHolder>(kvSubject(LEASES_BUCKET, key), value, created.getTime())
		return isLeaseHolder(holder) ? holder : undefined
	}

	/** The revision this incarnation wrote for the userbot's lease, if it holds it. */
	revisionOf(userbotId: number): number | undefined {
		return this.held.get(userbotId)
	}

	/** Lets go of the lease, if it is still ours (the revision we wrote). */
	async release(userbotId: number): Promise<void> {
		const revision = this.held.get(userbotId)
		if (revision === undefined) return
		this.held.delete(userbotId)
		this.byRoom.delete(userbotId)
		await this.bus.leases.delete(leaseKey(userbotId), { previousSeq: revision }).catch((err: unknown) => {
			if (!isConflict(err)) throw err
		})
	}

	/** Forgets one lease without a word to the bucket (another holds it, or it is gone). */
	forget(userbotId: number): void {
		this.held.delete(userbotId)
		this.byRoom.delete(userbotId)
	}

	/** Forgets every lease without a word to the bucket (self-fenced: the others take them over). */
	dropAll(): number[] {
		const ids = [...this.held.keys()]
		this.held.clear()
		this.byRoom.clear()
		return ids
	}

	get size(): number {
		return this.held.size
	}
}

function isConflict(err: unknown): boolean {
	const text = err instanceof Error ? err.message : String(err)
	return /wrong last sequence|key exists/i.test(text)
}
