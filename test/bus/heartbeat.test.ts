import { afterEach, describe, expect, it, jest } from 'bun:test'
import type { KV } from '@nats-io/kv'
import { createLogger } from '../../src/common/util/logger'
import { BusCodec } from '../../src/runtime/bus/codec'
import { Membership } from '../../src/runtime/bus/membership'
import { BusKey } from '../../src/runtime/bus/seal'
import { kvSubject, MEMBERS_BUCKET, shardKey } from '../../src/runtime/bus/subjects'

/**
 * A shard's heartbeats go on whatever became of the one before: a put that never settles (a request
 * lost over a reconnect, an ack that never comes) must not silence the next ones, and what the
 * entry says changed while one is on its way (a new incarnation after a cut-off) goes out as soon
 * as that one is done, not a heartbeat later. The timers are fake and the bucket's puts settle when
 * the test says: the order is the test's, never a race between timers.
 */
const key = BusKey.fromDataKey('heartbeat-test-key')
const log = createLogger('silent')
const codec = new BusCodec(key, 'test', log)
const noReconnect = () => () => {}
const SUBJECT = kvSubject(MEMBERS_BUCKET, shardKey('s1'))

interface Put {
	incarnation: string
	settle: (revision: number) => void
}

/** A members bucket whose puts are recorded and settle as `answer` says (a watch that stays empty). */
class Bucket {
	readonly puts: Put[] = []
	revision = 0

	constructor(private readonly answer: (n: number) => 'now' | 'never' | 'later') {}

	put = (_key: string, value: Uint8Array): Promise<number> => {
		const opened = key.open(SUBJECT, value)
		if (!opened.ok) throw new Error('not sealed')
		const { incarnation } = JSON.parse(new TextDecoder().decode(opened.body)) as { incarnation: string }
		const how = this.answer(this.puts.length)
		let settle: (revision: number) => void = () => {}
		const p = new Promise<number>((resolve) => {
			settle = resolve
		})
		this.puts.push({ incarnation, settle })
		if (how === 'now') settle(++this.revision)
		return p
	}

	delete = async () => {}
	status = async () => ({ values: 0, streamInfo: { state: { last_seq: 0 } } })
	watch = async () => {
		let stop: () => void = () => {}
		const stopped = new Promise<void>((r) => {
			stop = r
		})
		// Delivers nothing (no member but us, and our own entries are not what these tests look at).
		return {
			stop,
			[Symbol.asyncIterator]: () => ({
				next: async () => {
					await stopped
					return { done: true as const, value: undefined }
				},
			}),
		}
	}
}

/** Lets every promise chain that can move on do so (no timer involved). */
async function settle() {
	for (let i = 0; i < 50; i++) await Promise.resolve()
}

/** Moves the fake clock by `ms`, a step of `step` at a time, letting promises move on after each. */
async function advance(ms: number, step: number) {
	for (let t = 0; t < ms; t += step) {
		jest.advanceTimersByTime(step)
		await settle()
	}
}

function membership(bucket: Bucket, heartbeatMs: number) {
	return new Membership({
		bus: { members: bucket as unknown as KV, codec, onReconnect: noReconnect },
		heartbeatMs,
		log,
	})
}

describe('the heartbeats of a member', () => {
	afterEach(() => {
		jest.useRealTimers()
	})

	it('go on after a put that never settles', async () => {
		jest.useFakeTimers()
		const bucket = new Bucket((n) => (n === 0 ? 'never' : 'now'))
		const members = membership(bucket, 100)
		await members.watch()
		const joined = members.join({ kind: 'shard', id: 's1', entry: () => ({ incarnation: 'i1' }) })
		await settle()
		expect(bucket.puts.length).toBe(1)
		expect(members.lastBeatOk).toBe(0)

		// Five heartbeats later, in steps of a quarter of one: whichever timer fires first at a step,
		// the first put's deadline has passed and the heartbeats after it went out and were stored.
		await advance(500, 25)
		expect(bucket.puts.length).toBeGreaterThanOrEqual(3)
		expect(bucket.puts.every((p) => p.incarnation === 'i1')).toBe(true)
		expect(members.lastBeatOk).toBeGreaterThan(0)
		// And the join, which waited for its first heartbeat, is done.
		await joined
		await members.close()
	})

	it('send a changed entry as soon as the heartbeat on its way is done', async () => {
		jest.useFakeTimers()
		const bucket = new Bucket((n) => (n === 0 ? 'later' : 'now'))
		// A heartbeat far longer than the test: no tick sends anything meanwhile.
		const members = membership(bucket, 60_000)
		await members.watch()
		let incarnation = 'old'
		const joined = members.join({ kind: 'shard', id: 's1', entry: () => ({ incarnation }) })
		await settle()
		expect(bucket.puts.map((p) => p.incarnation)).toEqual(['old'])

		// Cut off meanwhile: a new incarnation, said at once, while the old one's put is on its way.
		incarnation = 'new'
		members.refresh()
		await settle()
		expect(bucket.puts.map((p) => p.incarnation)).toEqual(['old'])

		// The old one is stored: the new one follows it at once, without waiting for a heartbeat.
		bucket.puts[0]?.settle(++bucket.revision)
		await joined
		await settle()
		expect(bucket.puts.map((p) => p.incarnation)).toEqual(['old', 'new'])
		await members.close()
	})

	it('count a put stored late for when it was sent, not for when it settled', async () => {
		jest.useFakeTimers()
		const bucket = new Bucket((n) => (n === 0 ? 'later' : 'never'))
		const members = membership(bucket, 100)
		await members.watch()
		const sentAt = performance.now()
		void members.join({ kind: 'shard', id: 's1', entry: () => ({ incarnation: 'i1' }) })
		await settle()
		// Past its deadline, others went out (and hang); then the first one is stored after all.
		await advance(300, 25)
		expect(bucket.puts.length).toBeGreaterThanOrEqual(2)
		bucket.puts[0]?.settle(++bucket.revision)
		await settle()
		expect(members.lastBeatOk).toBe(sentAt)
		await members.close()
	})
})
