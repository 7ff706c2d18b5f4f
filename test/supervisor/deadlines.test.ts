import { describe, expect, it } from 'bun:test'
import { createDeadlineQueue, type Deadline } from '../../src/runtime/supervisor/deadlines'
import { PendingRequests } from '../../src/runtime/supervisor/pending'
import { RuntimeError } from '../../src/runtime/telegram/types'

function entry(at: number, expired: number[], id = at): Deadline & { done: boolean } {
	return {
		at,
		done: false,
		expire() {
			this.done = true
			expired.push(id)
		},
	}
}

describe('deadline queue', () => {
	it('expires unanswered entries in order and skips answered ones', async () => {
		const q = createDeadlineQueue()
		const expired: number[] = []
		const now = performance.now()
		const a = entry(now + 10, expired, 1)
		const b = entry(now + 20, expired, 2)
		const c = entry(now + 30, expired, 3)
		for (const e of [a, b, c]) q.add(e)
		b.done = true
		q.settle(b)
		expect(q.size).toBe(2)
		await Bun.sleep(60)
		expect(expired).toEqual([1, 3])
		expect(q.size).toBe(0)
	})

	it('keeps its count while an old entry blocks the head and answered ones are compacted behind it', () => {
		const q = createDeadlineQueue()
		const expired: number[] = []
		const now = performance.now()
		q.add(entry(now + 60_000, expired))
		for (let i = 0; i < 100_000; i++) {
			const e = entry(now + 60_000 + i, expired)
			q.add(e)
			e.done = true
			q.settle(e)
		}
		expect(q.size).toBe(1)
		// Nothing to observe but that the size stayed right and clear() stops the timer.
		q.clear()
		expect(q.size).toBe(0)
		expect(expired).toEqual([])
	})
})

describe('pending requests', () => {
	const outcome = (p: Promise<unknown>) =>
		p.then(
			(v) => ({ value: v }),
			(e: RuntimeError) => ({ error: e.code }),
		)

	it('expires a short request on time behind a long one', async () => {
		const pending = new PendingRequests()
		const long = pending.add(10_000)
		const short = pending.add(20)
		const started = performance.now()
		expect(await outcome(short.promise)).toEqual({ error: 'timeout' })
		expect(performance.now() - started).toBeLessThan(1_000)
		expect(pending.resolve(long.id, 'late')).toBe(true)
		expect(await outcome(long.promise)).toEqual({ value: 'late' })
		expect(pending.size).toBe(0)
	})

	it('settles each request once: reply, deadline, abort or failure, whichever is first', async () => {
		const pending = new PendingRequests()
		const a = pending.add(1_000)
		const b = pending.add(1_000)
		const ac = new AbortController()
		const c = pending.add(1_000, ac.signal)
		expect(pending.resolve(a.id, 1)).toBe(true)
		expect(pending.resolve(a.id, 2)).toBe(false)
		ac.abort()
		expect(pending.rejectAll(new RuntimeError('runtime_down', 'gone'))).toBe(1)
		expect(pending.reject(b.id, new Error('again'))).toBe(false)
		expect(await outcome(a.promise)).toEqual({ value: 1 })
		expect(await outcome(b.promise)).toEqual({ error: 'runtime_down' })
		expect(await outcome(c.promise)).toEqual({ error: 'timeout' })
	})
})
