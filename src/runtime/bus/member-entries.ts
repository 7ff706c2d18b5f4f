import type { KvEntry } from '@nats-io/kv'
import type { Logger } from '../../common/util/logger'
import { watchBucket } from './bucket-watch'
import type { Bus } from './connection'
import { type LiveShard, parseRoom, type ShardRoom } from './placement'

/**
 * A shard's entry names its incarnation (random per start): a shard that restarted under the same
 * `SHARD_ID` is another incarnation, and whatever was in flight to the old one is lost.
 */
export interface ShardEntry {
	incarnation: string
	/** The room of its supervisors (docs/capacity.md#on-a-bus); absent when they have no limit. */
	room?: ShardRoom
	/** It holds its lock on the shared storage (storage-locks.ts): a shard that starts checks it. */
	locks?: boolean
}

export interface GatewayEntry {
	/** The kinds of TDLib update its clients want (its hub's `onKinds`). */
	kinds: string[]
}

export type MemberEntry = ShardEntry | GatewayEntry

/** Live shards: id → incarnation. */
export function shardsOf(live: Iterable<[string, MemberEntry]>): Map<string, string> {
	const out = new Map<string, string>()
	for (const [k, v] of live)
		if (k.startsWith('shard.') && 'incarnation' in v) out.set(k.slice('shard.'.length), v.incarnation)
	return out
}

/** Live shards with the room each advertises (placement.ts). */
export function liveShardsOf(live: Iterable<[string, MemberEntry]>): Map<string, LiveShard> {
	const out = new Map<string, LiveShard>()
	for (const [k, v] of live) {
		if (!k.startsWith('shard.') || !('incarnation' in v)) continue
		const room = parseRoom(v.room)
		out.set(
			k.slice('shard.'.length),
			room ? { incarnation: v.incarnation, room } : { incarnation: v.incarnation },
		)
	}
	return out
}

/** Every kind of update some live gateway wants. */
export function gatewayKindsOf(live: Iterable<[string, MemberEntry]>): string[] {
	const kinds = new Set<string>()
	for (const [k, v] of live)
		if (k.startsWith('gateway.') && 'kinds' in v && Array.isArray(v.kinds))
			for (const kind of v.kinds) kinds.add(String(kind))
	return [...kinds].sort()
}

/**
 * Watches the members bucket: `began` once the watch is made, each entry to `onEntry` (those
 * already there first, flagged `initial`), `ended` when the watch ends by itself. Resolves, with
 * its stop, once the entries already there are read.
 */
export function followMembers(
	kv: Bus['members'],
	on: { began(): void; onEntry(e: KvEntry, initial: boolean): void; ended(): void; quiet(): boolean },
	log: Logger,
): Promise<() => void> {
	return watchBucket(
		kv,
		{
			began: on.began,
			entry: on.onEntry,
			failed: (err) => {
				if (!on.quiet()) log.warn('bus membership watch ended', { error: String(err) })
			},
			ended: on.ended,
		},
		'the members watch',
	)
}
