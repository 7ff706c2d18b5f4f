import type { Room } from '../supervisor/capacity'
import type { LeaseView } from './lease-view'
import type { Membership } from './membership'
import { type Placement, place } from './placement'

/**
 * Where the userbots run, as a gateway sees the bus: each one's shard by the rooms the live shards
 * advertise and its lease (placement.ts), named `id=incarnation` so that a shard back as another
 * incarnation is another owner; the shards that came and went since it last looked; the leases
 * whose holder is not their owner now; and the room of the whole deployment.
 */
export class RemotePlacement {
	private lastShards = new Set<string>()

	constructor(
		private readonly membership: Membership,
		private readonly leaseView: LeaseView,
	) {}

	/** Where the userbot runs, with the incarnation of its shard. */
	of(userbotId: number): { placement?: Placement; incarnation?: string } {
		const shards = this.membership.liveShards()
		const placement = place(userbotId, shards, this.leaseView.get(userbotId)?.holder)
		return {
			placement,
			incarnation: placement && 'shard' in placement ? shards.get(placement.shard)?.incarnation : undefined,
		}
	}

	/** The userbot's shard as `id=incarnation`; undefined while none can take it. */
	ownerKey(userbotId: number): string | undefined {
		const { placement, incarnation } = this.of(userbotId)
		return placement && 'shard' in placement ? `${placement.shard}=${incarnation}` : undefined
	}

	private shardKeys(): Set<string> {
		return new Set([...this.membership.shards()].map(([id, inc]) => `${id}=${inc}`))
	}

	/** The shard incarnations live now, and those that came and went since the last call. */
	changes(): { now: Set<string>; came: string[]; gone: string[] } {
		const now = this.shardKeys()
		const gone = [...this.lastShards].filter((k) => !now.has(k))
		const came = [...now].filter((k) => !this.lastShards.has(k))
		this.lastShards = now
		return { now, came, gone }
	}

	/** Each lease whose holder is not its userbot's owner now, as `userbot:shard=incarnation`. */
	*leaseMismatches(): Generator<string> {
		for (const [userbotId, lease] of this.leaseView.entries()) {
			const holder = lease.holder ? `${lease.holder.shard}=${lease.holder.incarnation}` : 'unreadable'
			if (holder !== this.ownerKey(userbotId)) yield `${userbotId}:${holder}`
		}
	}

	/** The deployment's room as the live shards advertise it; undefined while one advertises none. */
	room(): Room | undefined {
		const rooms = [...this.membership.liveShards().values()].map((s) => s.room)
		if (rooms.length === 0 || rooms.some((r) => r === undefined)) return undefined
		const all = rooms as Room[]
		return {
			clients: all.reduce((n, r) => n + r.clients, 0),
			used: all.reduce((n, r) => n + r.used, 0),
			reason: `the rooms of ${all.length} shard${all.length === 1 ? '' : 's'}`,
		}
	}
}
