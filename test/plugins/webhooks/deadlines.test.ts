import { describe, expect, it } from 'bun:test'
import { Webhook } from 'standardwebhooks'
import { Deadlines, type TimerApi } from '../../../plugins/webhooks/deadlines'
import { generateSecret, signature, signingKey } from '../../../plugins/webhooks/secrets'
import { cachedLookup, checkUrlForm, targetResolverNow, UrlRefused } from '../../../plugins/webhooks/ssrf'

/** Timers run by hand: what is armed, and a clock moved by the test. */
function manualTimers() {
	let clock = 0
	let next = 1
	const armed = new Map<number, { at: number; fn: () => void }>()
	const api: TimerApi = {
		set(fn, ms) {
			const id = next++
			armed.set(id, { at: clock + ms, fn })
			return id
		},
		clear(handle) {
			armed.delete(handle as number)
		},
	}
	return {
		api,
		now: () => clock,
		armed,
		/** Moves the clock to `to`, running every timer due by then, in order. */
		advance(to: number) {
			for (;;) {
				const due = [...armed].filter(([, t]) => t.at <= to).sort((a, b) => a[1].at - b[1].at)[0]
				if (!due) break
				armed.delete(due[0])
				clock = due[1].at
				due[1].fn()
			}
			clock = to
		},
	}
}

/**
 * The sender's per-attempt bookkeeping made cheap (docs/webhooks.md#the-hot-path): one timer for
 * every attempt's timeout, answers at hand used without a promise, keyed hashers reused. Each must
 * keep what the per-attempt way guaranteed.
 */
describe('the sender’s attempt bookkeeping', () => {
	it('times out every attempt at its own deadline with one timer, and stops with its stopping signal', () => {
		const t = manualTimers()
		const deadlines = new Deadlines(t.now, t.api)
		const stopping = new AbortController()
		const first = deadlines.start(stopping.signal, 100)
		t.advance(10)
		const second = deadlines.start(stopping.signal, 100)
		t.advance(20)
		const third = deadlines.start(stopping.signal, 100)
		// One timer for the three, armed for the earliest.
		expect(t.armed.size).toBe(1)
		deadlines.done(second)
		t.advance(99)
		expect([first, third].map((d) => d.signal.aborted)).toEqual([false, false])
		t.advance(100)
		expect(first.signal.aborted).toBe(true)
		expect(third.signal.aborted).toBe(false)
		expect(t.armed.size).toBe(1)
		t.advance(119)
		expect(third.signal.aborted).toBe(false)
		t.advance(120)
		expect(third.signal.aborted).toBe(true)
		// The one that ended in time is never aborted, and nothing is left armed.
		expect(second.signal.aborted).toBe(false)
		expect(t.armed.size).toBe(0)

		const other = new AbortController()
		const mine = deadlines.start(stopping.signal, 100)
		const theirs = deadlines.start(other.signal, 100)
		stopping.abort()
		expect(mine.signal.aborted).toBe(true)
		expect(theirs.signal.aborted).toBe(false)
		// Started once stopping: aborted from the start.
		expect(deadlines.start(stopping.signal, 100).signal.aborted).toBe(true)
		deadlines.done(theirs)
		expect(deadlines.size).toBe(0)
		expect(t.armed.size).toBe(0)
	})

	it('times out a shorter timeout given later before the earlier, longer one', () => {
		const t = manualTimers()
		const deadlines = new Deadlines(t.now, t.api)
		const stopping = new AbortController()
		const long = deadlines.start(stopping.signal, 1000)
		const short = deadlines.start(stopping.signal, 100)
		t.advance(100)
		expect(short.signal.aborted).toBe(true)
		expect(long.signal.aborted).toBe(false)
		t.advance(1000)
		expect(long.signal.aborted).toBe(true)
	})

	it('answers without a promise when the address is at hand, and still holds it to the rules', async () => {
		let clock = 0
		let asked = 0
		let answer = '93.184.216.34'
		const lookup = cachedLookup(
			async () => {
				asked++
				return [{ address: answer, family: 4 }]
			},
			5000,
			() => clock,
		)
		const policy = { allowHttp: false, allowedHosts: [] as string[] }
		const resolve = targetResolverNow(policy, lookup)
		const url = checkUrlForm('https://hooks.example/x', policy)
		// Not known yet: asked, with a promise.
		const first = resolve(url)
		expect(first).toBeInstanceOf(Promise)
		expect(await first).toBe('93.184.216.34')
		// Known: the same checks, no promise.
		expect(resolve(url)).toBe('93.184.216.34')
		expect(asked).toBe(1)
		expect(resolve(checkUrlForm('https://93.184.216.35/x', policy))).toBe('93.184.216.35')
		expect(() => resolve(checkUrlForm('https://10.0.0.1/x', policy))).toThrow(UrlRefused)
		// The cached answer is judged at every use: rebound to an internal address once the answer
		// expired, refused.
		answer = '127.0.0.1'
		clock = 5000
		await expect(resolve(url) as Promise<string>).rejects.toBeInstanceOf(UrlRefused)
		expect(() => resolve(url)).toThrow(UrlRefused)
		expect(asked).toBe(2)
	})

	it('signs with a kept key again and again as the standardwebhooks package verifies', () => {
		const secret = generateSecret()
		const key = signingKey(secret)
		for (const [id, seconds, body] of [
			['msg_1', 1_800_000_000, '{"a":1}'],
			['msg_2', 1_800_000_001, '{"a":2}'],
		] as const) {
			const header = signature([key], id, seconds, body)
			expect(header).toBe(new Webhook(secret).sign(id, new Date(seconds * 1000), body))
		}
	})
})
