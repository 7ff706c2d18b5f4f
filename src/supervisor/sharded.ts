import type { TdMethod, TdRequest, TdResult } from '../telegram/types'
import { ownerOf } from './rendezvous'
import type { InvokeOptions, RequestEvent, RuntimeEvent, StartClientOptions, TelegramRuntime } from './types'

/** One supervisor of a `ShardedRuntime`, under a name that places userbots on it. */
export interface LocalShard {
	name: string
	runtime: TelegramRuntime & { readonly pid?: number | undefined; fence?(ms: number): void }
}

/**
 * Several supervisors in this process behind the one `TelegramRuntime` (`SUPERVISORS=N`): each has
 * its own child and so its own tdl receive loop, the ceiling of one process (about 14-16k TDLib
 * responses per second for all its clients). A userbot always goes to the same supervisor
 * (rendezvous hashing over their names); the set is fixed for the process's life, because a
 * supervisor whose child dies restarts it and brings its clients back itself.
 */
export class ShardedRuntime implements TelegramRuntime {
	private readonly byName: Map<string, LocalShard>

	constructor(readonly shards: readonly LocalShard[]) {
		if (shards.length === 0) throw new Error('a sharded runtime needs at least one supervisor')
		this.byName = new Map(shards.map((s) => [s.name, s]))
	}

	/** The supervisor that runs `userbotId`. */
	shardOf(userbotId: number): LocalShard {
		return this.byName.get(ownerOf(userbotId, this.byName.keys()) as string) as LocalShard
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
		return this.shardOf(userbotId).runtime.startClient(userbotId, opts)
	}

	stopClient(userbotId: number, opts: { logOut: boolean; removeData: boolean }): Promise<void> {
		return this.shardOf(userbotId).runtime.stopClient(userbotId, opts)
	}

	authorizationState(userbotId: number): string | undefined {
		return this.shardOf(userbotId).runtime.authorizationState(userbotId)
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
