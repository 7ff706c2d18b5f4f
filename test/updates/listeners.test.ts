import { describe, expect, it } from 'bun:test'
import {
	createUpdateListeners,
	type ListenersEnd,
	type UpdateListener,
} from '../../src/server/updates/listeners'

/** The commands' update listeners (src/server/updates/listeners.ts): by userbot and kind, ended once. */
function recorder(kinds: string[]) {
	const got: string[] = []
	const ended: ListenersEnd[] = []
	const listener: UpdateListener = {
		kinds: new Set(kinds),
		update: (u) => got.push(u._),
		ended: (why) => ended.push(why),
	}
	return { listener, got, ended }
}

describe('update listeners', () => {
	it("hand an update only to its userbot's listeners of its kind", () => {
		const l = createUpdateListeners()
		const a = recorder(['updateNewMessage'])
		const b = recorder(['updateMessageSendSucceeded'])
		const other = recorder(['updateNewMessage'])
		l.add(1, a.listener)
		l.add(1, b.listener)
		l.add(2, other.listener)
		l.deliver(1, { _: 'updateNewMessage' })
		l.deliver(1, { _: 'updateMessageSendSucceeded' })
		l.deliver(3, { _: 'updateNewMessage' })
		expect([a.got, b.got, other.got]).toEqual([['updateNewMessage'], ['updateMessageSendSucceeded'], []])
		expect([l.count(1), l.count(2), l.count(3), l.count()]).toEqual([2, 1, 0, 3])
	})

	it('end every listener of a userbot once, with why, and drop them; a stop after is nothing', () => {
		const l = createUpdateListeners()
		const waits = Array.from({ length: 1000 }, () => recorder(['updateNewMessage']))
		const stops = waits.map((w) => l.add(7, w.listener))
		const kept = recorder(['updateNewMessage'])
		l.add(8, kept.listener)
		l.end(7, 'deleted')
		l.end(7, 'stopped')
		for (const stop of stops) stop()
		expect(waits.every((w) => w.ended.length === 1 && w.ended[0] === 'deleted')).toBe(true)
		expect([l.count(7), l.count(8), l.count()]).toEqual([0, 1, 1])
		l.deliver(7, { _: 'updateNewMessage' })
		expect(waits.some((w) => w.got.length > 0)).toBe(false)
	})

	it('skip a listener that another dropped while an update was being handed out', () => {
		const l = createUpdateListeners()
		const second = recorder(['updateNewMessage'])
		let stopSecond = () => {}
		l.add(1, { kinds: new Set(['updateNewMessage']), update: () => stopSecond(), ended: () => {} })
		stopSecond = l.add(1, second.listener)
		l.deliver(1, { _: 'updateNewMessage' })
		expect([second.got, l.count(1)]).toEqual([[], 1])
	})
})
