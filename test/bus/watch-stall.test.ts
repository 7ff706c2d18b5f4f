import { describe, expect, it } from 'bun:test'
import type { KV, KvEntry } from '@nats-io/kv'
import { createLogger } from '../../src/common/util/logger'
import { BusCodec } from '../../src/runtime/bus/codec'
import { LeaseView } from '../../src/runtime/bus/lease-view'
import { Membership } from '../../src/runtime/bus/membership'
import { BusKey } from '../../src/runtime/bus/seal'
import { kvSubject, LEASES_BUCKET, MEMBERS_BUCKET } from '../../src/runtime/bus/subjects'
import { until } from './cluster'

/**
 * A bucket's watch made again on a server that had just restarted can stay open and silent while
 * writes succeed. The members and leases views must see that and watch again; otherwise a shard
 * takes every other member for gone for good (it keeps userbots it no longer owns). A bucket stand-in
 * whose current watch can be muted drives each view through exactly that.
 */
class MutableBucket {
	revision = 0
	watches = 0
	private readonly store = new Map<string, KvEntry>()
	private listener?: (e: KvEntry) => void

	/** The server lost its store: empty, and numbered from 1 again. */
	lose(): void {
		this.store.clear()
		this.revision = 0
	}

	/** Mutes the watch open now: it stays open and delivers nothing more. */
	mute(): void {
		this.listener = undefined
	}

	put = async (key: string, value: Uint8Array): Promise<number> => {
		const e = {
			key,
			value,
			revision: ++this.revision,
			operation: 'PUT',
			delta: 0,
			created: new Date(),
		} as unknown as KvEntry
		this.store.set(key, e)
		this.listener?.(e)
		return e.revision
	}

	delete = async (key: string) => {
		this.store.delete(key)
	}

	status = async () => ({ values: this.store.size, streamInfo: { state: { last_seq: this.revision } } })

	watch = async () => {
		this.watches++
		const queue: KvEntry[] = [...this.store.values()].map((e, i, all) => ({
			...e,
			delta: all.length - 1 - i,
		}))
		let wake: () => void = () => {}
		let stopped = false
		this.listener = (e) => {
			queue.push(e)
			wake()
		}
		return {
			stop: () => {
				stopped = true
				wake()
			},
			async *[Symbol.asyncIterator]() {
				while (!stopped) {
					const e = queue.shift()
					if (e) yield e
					else await new Promise<void>((r) => (wake = r))
				}
			},
		}
	}
}

const log = createLogger('silent')
const codec = new BusCodec(BusKey.fromDataKey('watch-stall-test-key'), 'test', log)
const noReconnect = () => () => {}

describe('a bucket watch that goes silent while writes succeed', () => {
	it('is made again by the members view, which then sees itself and the others again', async () => {
		const bucket = new MutableBucket()
		const members = new Membership({
			bus: { members: bucket as unknown as KV, codec, onReconnect: noReconnect },
			heartbeatMs: 200,
			log,
		})
		await members.watch()
		await members.join({ kind: 'shard', id: 's1', entry: () => ({ incarnation: 'i1' }) })
		await until('fresh', () => (members.viewFresh() ? true : undefined))
		bucket.mute()
		// Heartbeats go on being stored; none comes back. Each check is after a new heartbeat was stored.
		for (let i = 0; i < 3 && bucket.watches === 1; i++) {
			const before = bucket.revision
			await until('a heartbeat stored', () => (bucket.revision > before ? true : undefined))
			await members.recheck()
		}
		await until('watched again', () => (bucket.watches >= 2 ? true : undefined))
		await bucket.put('shard.s2', codec.seal(kvSubject(MEMBERS_BUCKET, 'shard.s2'), { incarnation: 'i2' }))
		await until('sees the other shard', () => (members.shards().get('s2') === 'i2' ? true : undefined))
		await until('fresh again', () => (members.viewFresh() ? true : undefined))
		expect(members.shards().get('s1')).toBe('i1')
		await members.close()
	})

	it('still sees a silent watch after the server lost its store and numbers from 1 again', async () => {
		const bucket = new MutableBucket()
		bucket.revision = 1000
		let reconnected: () => void = () => {}
		const members = new Membership({
			bus: {
				members: bucket as unknown as KV,
				codec,
				onReconnect: (listener) => {
					reconnected = listener
					return () => {}
				},
			},
			heartbeatMs: 200,
			log,
		})
		await members.watch()
		await members.join({ kind: 'shard', id: 's1', entry: () => ({ incarnation: 'i1' }) })
		await until('fresh', () => (members.viewFresh() ? true : undefined))
		bucket.lose()
		reconnected()
		await until('watched again after the reconnect', () => (bucket.watches >= 2 ? true : undefined))
		await until('fresh on the new store', () => (members.viewFresh() ? true : undefined))
		bucket.mute()
		for (let i = 0; i < 3 && bucket.watches === 2; i++) {
			const before = bucket.revision
			await until('a heartbeat stored', () => (bucket.revision > before ? true : undefined))
			await members.recheck()
		}
		await until('watched again', () => (bucket.watches >= 3 ? true : undefined))
		await members.close()
	})

	it('is made again by the leases view, which then holds what the bucket holds', async () => {
		const bucket = new MutableBucket()
		const view = new LeaseView({ leases: bucket as unknown as KV, codec, onReconnect: noReconnect }, log)
		await view.watch()
		const lease = (id: number, shard: string) =>
			bucket.put(
				`lease.${id}`,
				codec.seal(kvSubject(LEASES_BUCKET, `lease.${id}`), { shard, incarnation: 'x' }),
			)
		await lease(1, 's1')
		await until('seen', () => (view.get(1)?.holder?.shard === 's1' ? true : undefined))
		bucket.mute()
		await lease(1, 's2')
		await view.recheck()
		expect(bucket.watches).toBe(1)
		// Not yet: what was stored since the last check may still be on its way.
		await lease(2, 's2')
		await view.recheck()
		await until('watched again', () => (bucket.watches >= 2 ? true : undefined))
		await until('holds the bucket', () =>
			view.get(1)?.holder?.shard === 's2' && view.get(2)?.holder?.shard === 's2' ? true : undefined,
		)
		view.close()
	})
})
