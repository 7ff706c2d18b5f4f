import type { Room } from '../supervisor/capacity'
import { ownerOf } from '../supervisor/rendezvous'
import { RuntimeError } from '../telegram/types'

/**
 * Where a userbot runs on the bus (docs/capacity.md#on-a-bus): every gateway and shard computes it
 * from the same two things, the live shards with the room each advertises in its membership entry,
 * and the userbot's lease. A userbot's home is the shard rendezvous hashing picks (as before); it
 * runs at home while home has room. When home is full, a new userbot goes to the shard with the
 * most room, and its lease says it was placed by room: it stays there (home filling and emptying
 * does not move it) until that shard goes or the userbot is stopped. When no shard has room, its
 * start is refused with `capacity reached: ...`.
 */

/** What a shard advertises: the clients its supervisors may hold, how many they hold, and why. */
export type ShardRoom = Room

export interface LiveShard {
	incarnation: string
	/** Absent: no limit known (a shard whose supervisors have none). */
	room?: ShardRoom
}

/** The holder of a userbot's lease, as far as placement is concerned. */
export interface PlacedHolder {
	shard: string
	incarnation: string
	/** `room`: placed away from its home because home was full; it stays where it is. */
	placed?: 'room'
}

export type Placement = { shard: string; byRoom: boolean } | { full: RuntimeError }

/** Bounds of a valid advertisement: what a member sends is checked like every bus message. */
const MAX_CLIENTS = 10_000_000
const MAX_REASON = 300

/** The room in a membership entry, if it is well formed; `null` when it is not (the entry is dropped). */
export function parseRoom(value: unknown): ShardRoom | undefined | null {
	if (value === undefined) return undefined
	if (!value || typeof value !== 'object' || Array.isArray(value)) return null
	const { clients, used, reason, ...rest } = value as Record<string, unknown>
	const count = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0 && (n as number) <= MAX_CLIENTS
	if (Object.keys(rest).length > 0 || !count(clients) || !count(used)) return null
	if (typeof reason !== 'string' || reason.length > MAX_REASON) return null
	return { clients: clients as number, used: used as number, reason }
}

export const freeOf = (s: LiveShard | undefined): number =>
	s?.room ? Math.max(0, s.room.clients - s.room.used) : s ? Number.POSITIVE_INFINITY : 0

/** Where `userbotId` runs; undefined when no shard is up. */
export function place(
	userbotId: number,
	shards: ReadonlyMap<string, LiveShard>,
	holder?: PlacedHolder,
): Placement | undefined {
	const home = ownerOf(userbotId, shards.keys())
	if (home === undefined) return undefined
	const live = holder && shards.get(holder.shard)?.incarnation === holder.incarnation ? holder : undefined
	if (live?.shard === home) return { shard: home, byRoom: false }
	if (live?.placed === 'room') return { shard: live.shard, byRoom: true }
	if (freeOf(shards.get(home)) > 0) return { shard: home, byRoom: false }
	// Home is full: one running elsewhere stays there (it is not moved to a full shard).
	if (live) return { shard: live.shard, byRoom: true }
	let best: string | undefined
	for (const [id, s] of shards) {
		const free = freeOf(s)
		if (
			free > 0 &&
			(best === undefined ||
				free > freeOf(shards.get(best)) ||
				(free === freeOf(shards.get(best)) && id < best))
		)
			best = id
	}
	if (best !== undefined) return { shard: best, byRoom: true }
	return { full: deploymentFull(shards) }
}

/** `capacity reached: ...` for a deployment whose every shard is full, naming each one's limit. */
export function deploymentFull(shards: ReadonlyMap<string, LiveShard>): RuntimeError {
	const all = [...shards].sort(([a], [b]) => (a < b ? -1 : 1))
	const used = all.reduce((n, [, s]) => n + (s.room?.used ?? 0), 0)
	const limits = all.map(([id, s]) => `${id}: ${s.room?.reason ?? 'no limit'}`).join('; ')
	const shardWord = all.length === 1 ? 'shard' : 'shards'
	return new RuntimeError(
		'capacity',
		`capacity reached: ${used} userbot${used === 1 ? '' : 's'} run${used === 1 ? 's' : ''} on ${all.length} ${shardWord}, every one full (${limits})`,
	)
}

/** A shard's own view: the rooms advertised, its own replaced by the exact figure it knows now. */
export function withOwnRoom(
	shards: ReadonlyMap<string, LiveShard>,
	self: { id: string; incarnation: string },
	room: ShardRoom | undefined,
): Map<string, LiveShard> {
	const out = new Map(shards)
	if (out.get(self.id)?.incarnation === self.incarnation)
		out.set(self.id, room ? { incarnation: self.incarnation, room } : { incarnation: self.incarnation })
	return out
}
