import { describe, expect, it } from 'bun:test'
import { createWaiters } from '../../../plugins/bot-api/update-view'

/**
 * A getUpdates long poll's wait (plugins/bot-api/update-view.ts): a revocation may end the poll
 * while it still reads its updates, before the wait begins. That end must hold: the wait returns
 * at once, not after the poll's timeout. The order is made explicit here; end to end it was one
 * timer against another (face.test.ts, "a revocation naming the owner").
 */
describe('a long poll’s wait', () => {
	it('returns at once when its signal was aborted before the wait began', async () => {
		const waiters = createWaiters()
		const since = waiters.version(7)
		const controller = new AbortController()
		controller.abort()
		let over = false
		const waited = waiters.wait(7, since, 60_000, controller.signal).then(() => {
			over = true
		})
		// One turn of the loop is all a resolved wait needs; a 60 s wait would still be open.
		await Promise.resolve()
		await Promise.resolve()
		expect(over).toBe(true)
		await waited
	})

	it('returns when aborted while waiting, and only then', async () => {
		const waiters = createWaiters()
		const controller = new AbortController()
		let over = false
		const waited = waiters.wait(7, waiters.version(7), 60_000, controller.signal).then(() => {
			over = true
		})
		await Promise.resolve()
		expect(over).toBe(false)
		controller.abort()
		await waited
		expect(over).toBe(true)
	})

	it('returns at once when an update was written between the read and the wait', async () => {
		const waiters = createWaiters()
		const since = waiters.version(7)
		waiters.wake(7)
		await waiters.wait(7, since, 60_000, new AbortController().signal)
		expect(waiters.version(7)).toBe(since + 1)
	})
})
