import type { TdMethod, TdRequest, TdResult } from '../telegram/types'
import { type Capacity, capacityReached, type Room } from './capacity'
import { ownerOf } from './rendezvous'
import type { InvokeOptions, RequestEvent, RuntimeEvent, StartClientOptions, TelegramRuntime } from './types'

/** One supervisor of a `ShardedRuntime`, under a name that places userbots on it. */
export interface LocalShard {
	name: string
	runtime: TelegramRuntime & {
		readonly pid?: number | undefined
		fence?(ms: number): void
		/** Clients it can still start (docs/capacity.md); absent: no limit. */
		free?(): number
		capacity?(): Capacity | undefined
		room?(): Room | undefined
		/** It runs (or will restore) this userbot's client. */
		holds?(userbotId: number): boolean
	}
}

const freeOf = (s: LocalShard) => s.runtime.free?.() ?? Number.POSITIVE_INFINITY

/**
 * Several supervisors in this process behind the one `TelegramRuntime` (`SUPERVISORS=N`): each has
 * its own child and so its own tdl receive loop, the ceiling of one process (about 14-16k TDLib
 * responses per second for all its clients). A userbot goes to the supervisor rendezvous hashing
 * over their names picks, while that one has room; when it is full, to the one with the most room
 * (docs/capacity.md); when all are full its start is refused (`capacity reached: ...`). Once
 * started it stays where it is: the supervisor that holds it is asked first. The set is fixed for the
 * process's life, because a supervisor whose child dies restarts it and brings its clients back itself.
 */
export class ShardedRuntime implements TelegramRuntime {
	private readonly byName: Map<string, LocalShard>

	constructor(readonly shards: readonly LocalShard[]) {
		if (shards.length === 0) throw new Error('a sharded runtime needs at least one supervisor')
		this.byName = new Map(shards.map((s) => [s.name, s]))
	}

	/** The supervisor that runs `userbotId`: the one holding its client, else the hash's choice. */
	shardOf(userbotId: number): LocalShard {
		const owner = this.ownerOf(userbotId)
		if (!owner.runtime.holds || owner.runtime.holds(userbotId)) return owner
		return this.shards.find((s) => s.runtime.holds?.(userbotId)) ?? owner
	}

	private ownerOf(userbotId: number): LocalShard {
		return this.byName.get(ownerOf(userbotId, this.byName.keys()) as string) as LocalShard
	}

	/** Where a new client goes: the hash's choice while it has room, else the one with the most. */
	private place(userbotId: number): LocalShard | undefined {
		const current = this.shardOf(userbotId)
		if (current.runtime.holds?.(userbotId) || freeOf(current) > 0) return current
		let best: LocalShard | undefined
		for (const s of this.shards) if (freeOf(s) > 0 && (!best || freeOf(s) > freeOf(best))) best = s
		return best
	}

	/** The room of all its supervisors together; undefined when one of them has no limit. */
	room(): Room | undefined {
		const rooms = this.shards.map((s) => s.runtime.room?.())
		if (rooms.some((r) => r === undefined)) return undefined
		const all = rooms as Room[]
		const each = all.length === 1 ? '' : ` in each of ${all.length} supervisor children`
		return {
			clients: all.reduce((n, r) => n + r.clients, 0),
			used: all.reduce((n, r) => n + r.used, 0),
			reason: `${(all[0] as Room).reason}${each}`,
		}
	}

	/** The children's process ids, in the order of the supervisors (tests kill them). */
	get pids(): Array<number | undefined> {
		return this.shards.map((s) => s.runtime.pid)
	}

	get pid(): number | undefined {
		return this.shards[0]?.runtime.pid
	}

	invoke<M extends TdMethod>(
		userbotId: number,
		request: TdRequest<M>,
		opts?: InvokeOptions,
	): Promise<TdResult<M>> {
		return this.shardOf(userbotId).runtime.invoke(userbotId, request, opts)
	}

	startClient(userbotId: number, opts: StartClientOptions): Promise<string> {
		// Placed and started in one step (no await between): two starts cannot take one last place.
		const shard = this.place(userbotId)
		if (shard) return shard.runtime.startClient(userbotId, opts)
		const owner = this.ownerOf(userbotId)
		const cap = owner.runtime.capacity?.()
		const running = this.shards.reduce((n, s) => n + s.runtime.health().clients, 0)
		// `place` found none free, so every supervisor has a limit: the hash owner's names it.
		return Promise.reject(capacityReached(running, cap as Capacity, this.shards.length))
	}

	stopClient(userbotId: number, opts: { logOut: boolean; removeData: boolean }): Promise<void> {
		return this.shardOf(userbotId).runtime.stopClient(userbotId, opts)
	}

	authorizationState(userbotId: number): string | undefined {
		return this.shardOf(userbotId).runtime.authorizationState(userbotId)
	}

	heldElsewhere(userbotId: number): boolean {
		return this.shardOf(userbotId).runtime.heldElsewhere?.(userbotId) ?? false
	}

	onEvent(listener: (event: RuntimeEvent) => void): () => void {
		const offs = this.shards.map((s) => s.runtime.onEvent(listener))
		return () => {
			for (const off of offs) off()
		}
	}

	setUpdateFilter(kinds: readonly string[]): void {
		for (const s of this.shards) s.runtime.setUpdateFilter(kinds)
	}

	/** Renews the fence of every supervisor's child (see protocol `fence`). */
	fence(ms: number): void {
		for (const s of this.shards) s.runtime.fence?.(ms)
	}

	onRequest(listener: (event: RequestEvent) => void): () => void {
		const offs = this.shards.map((s) => s.runtime.onRequest(listener))
		return () => {
			for (const off of offs) off()
		}
	}

	/** Up when every supervisor is: a userbot on one that restarts is not served meanwhile. */
	health() {
		const all = this.shards.map((s) => s.runtime.health())
		return {
			up: all.every((h) => h.up),
			restarts: all.reduce((n, h) => n + h.restarts, 0),
			clients: all.reduce((n, h) => n + h.clients, 0),
			backend: all[0]?.backend ?? 'emulator',
		}
	}

	async close(): Promise<void> {
		await Promise.all(this.shards.map((s) => s.runtime.close()))
	}
}
