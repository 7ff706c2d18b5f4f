import { describe, expect, it } from 'bun:test'
import { BusKey, REPLAY_WINDOW_MS, ReplayGuard } from '../../src/runtime/bus/seal'

/** The sealing of every bus message, on its own: what opens, what does not, and why. */
describe('sealed bus messages', () => {
	const key = BusKey.fromDataKey('the data key of one deployment, 32+ chars')
	const open = (subject: string, data: Uint8Array) => key.open(subject, data)

	it('opens what the deployment sealed for that subject, and hides the body', () => {
		const sealed = key.sealer('gateway-a').seal('ubg.req.s1', '{"code":"33333"}')
		expect(Buffer.from(sealed).includes('33333')).toBe(false)
		const opened = open('ubg.req.s1', sealed)
		expect(opened.ok && new TextDecoder().decode(opened.body)).toBe('{"code":"33333"}')
	})

	it('refuses another key, another subject, a changed byte, and what is no sealed message', () => {
		const sealed = key.sealer('gateway-a').seal('ubg.req.s1', 'hello')
		expect(BusKey.fromDataKey('another deployment').open('ubg.req.s1', sealed)).toEqual({
			ok: false,
			reason: 'forged',
		})
		expect(open('ubg.req.s2', sealed)).toEqual({ ok: false, reason: 'forged' })
		for (const at of [3, 6, 20, sealed.length - 1]) {
			const changed = Uint8Array.from(sealed)
			changed[at] = (changed[at] as number) ^ 1
			expect(open('ubg.req.s1', changed).ok).toBe(false)
		}
		expect(open('ubg.req.s1', new TextEncoder().encode('{"type":"invoke"}'))).toEqual({
			ok: false,
			reason: 'malformed',
		})
	})

	it('derives the same key from the same data key, and tells nothing of it in its fingerprint', () => {
		expect(BusKey.fromDataKey('same').fingerprint).toBe(BusKey.fromDataKey('same').fingerprint)
		expect(BusKey.fromDataKey('same').fingerprint).not.toBe(BusKey.fromDataKey('other').fingerprint)
		expect(BusKey.fromDataKey('same').fingerprint).not.toContain('same')
	})

	it('refuses a message seen before and one too far from now; a stored one is judged by when it was stored', () => {
		let now = 1_000_000
		const guard = new ReplayGuard(() => now)
		const sealer = key.sealer('shard-s1')
		const check = (data: Uint8Array, storedAt?: number) => {
			const o = open('x', data)
			if (!o.ok) throw new Error(o.reason)
			return guard.check(o.sender, o.counter, o.at, storedAt)
		}
		const first = sealer.seal('x', 'a', now)
		const second = sealer.seal('x', 'b', now)
		expect(check(second)).toBeUndefined()
		// Out of order within the window is fine; the same one twice is not.
		expect(check(first)).toBeUndefined()
		expect(check(first)).toBe('replayed')
		expect(check(sealer.seal('x', 'c', now - REPLAY_WINDOW_MS - 1))).toBe('stale')
		const old = sealer.seal('x', 'd', now)
		now += 10 * REPLAY_WINDOW_MS
		// Read again from the stream long after: its time against the time it was stored.
		expect(check(old, now - 10 * REPLAY_WINDOW_MS + 5)).toBeUndefined()
		expect(check(old, now)).toBe('stale')
	})
})
