import type { Room } from '../supervisor/capacity'
import { RuntimeError } from '../telegram/types'
import type { Bus } from './connection'
import type { LeaseView } from './lease-view'
import { type LeaseHolder, Leases } from './leases'
import type { Membership } from './membership'
import { type Placement, place, withOwnRoom } from './placement'
import { leaseKey } from './subjects'

/** How long a start waits for the previous owner to let go of the userbot. */
const LEASE_WAIT_MS = 20_000

/**
 * Who a shard is on the bus now, and what it holds under that name: its incarnation (a new one
 * each time it comes back from being cut off, `renew`) and the leases of its userbots (leases.ts),
 * with where a userbot runs as this shard sees it (placement.ts: its own room exact, its own
 * leases first). A lease taken by a past incarnation is not this one's.
 */
export class ShardIncarnation {
	private id = crypto.randomUUID()
	private leases: Leases
	/** Userbots whose stale lease was cleared here: their next start skips a number, as a takeover does. */
	private readonly tainted = new Set<number>()

	constructor(
		private readonly opts: { bus: Bus; shardId: string; local: { room?(): Room | undefined } },
		private readonly membership: Membership,
		private readonly leaseView: LeaseView,
	) {
		this.leases = this.makeLeases()
	}

	/** This incarnation's id: the one its leases and published states name. */
	get current(): string {
		return this.id
	}

	/** Whether the members say this holder is up (its shard live under that incarnation). */
	alive(holder: LeaseHolder): boolean {
		return this.membership.shards().get(holder.shard) === holder.incarnation
	}

	private makeLeases() {
		const self: LeaseHolder = { shard: this.opts.shardId, incarnation: this.id }
		return new Leases(
			this.opts.bus,
			self,
			(holder) => this.alive(holder),
			() => this.membership.viewFresh(),
		)
	}

	/** Where the userbot runs; `leaseGone`: as if nobody held its lease (it was just let go of). */
	placement(userbotId: number, leaseGone = false): Placement | undefined {
		const self = { id: this.opts.shardId, incarnation: this.id }
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

	isOwner(userbotId: number): boolean {
		const p = this.placement(userbotId)
		return p !== undefined && 'shard' in p && p.shard === this.opts.shardId
	}

	/**
	 * Takes the userbot's lease, waiting for its previous owner to let go. Resolves with whether its
	 * update numbers skip one: taken over from a holder that went without letting go, or cleared here.
	 */
	async take(userbotId: number, byRoom: boolean): Promise<boolean> {
		const leases = this.leases
		const { takenOver } = await leases.acquire(userbotId, LEASE_WAIT_MS, byRoom ? 'room' : undefined)
		// Cut off meanwhile: that lease is the past incarnation's; the gateway asks again.
		if (leases !== this.leases) throw new RuntimeError('unavailable', 'cut off from the bus while starting')
		return takenOver || this.tainted.delete(userbotId)
	}

	/** Takes again at once a lease this incarnation held (it vanished from the bucket); rejects if it cannot. */
	async retake(userbotId: number): Promise<void> {
		const placed = this.leases.placedByRoom(userbotId) ? 'room' : undefined
		this.leases.forget(userbotId)
		await this.leases.acquire(userbotId, 0, placed)
	}

	release(userbotId: number): Promise<void> {
		return this.leases.release(userbotId)
	}

	/** Forgets the lease without a word to the bucket (another holds it now). */
	forget(userbotId: number): void {
		this.leases.forget(userbotId)
	}

	/** Deletes a stale lease at the revision seen; the userbot's next start here skips an update number. */
	async clear(userbotId: number, revision: number): Promise<void> {
		await this.opts.bus.leases.delete(leaseKey(userbotId), { previousSeq: revision })
		this.tainted.add(userbotId)
	}

	/** Cut off from the bus: every lease forgotten (the others take them over), and a new incarnation. */
	renew(): void {
		this.leases.dropAll()
		this.id = crypto.randomUUID()
		this.leases = this.makeLeases()
	}
}
