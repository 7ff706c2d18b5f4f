import { describe, expect, it } from 'bun:test'
import { createUpdateHub, type UpdateSink } from '../../src/server/updates/hub'

/** The hub alone: numbering, keeping, resuming, and the kinds it asks the supervisor for. */
/** A connection that reads while `open.reads`, and takes `room` updates before its budget is spent. */
function sink(room = Number.POSITIVE_INFINITY) {
	const got: Array<{ type: string; seq: number; kind?: string }> = []
	const state = { reads: true, room }
	const s: UpdateSink = {
		deliver: (text) => {
			const e = JSON.parse(text) as { type: string; seq: number; update: { _: string } }
			got.push({ type: e.type, seq: e.seq, kind: e.update._ })
			state.room--
		},
		send: (text) => {
			got.push(JSON.parse(text) as { type: string; seq: number })
		},
		writable: () => state.reads && state.room > 0,
		blocked: () => !state.reads,
	}
	return { s, got, state }
}

function hub(size = 100, ageMs = 60_000) {
	let clock = 1_000
	const kinds: string[][] = []
	/** What the hub put off to a later turn, run by `turn()`. */
	const queued: Array<() => void> = []
	const h = createUpdateHub({
		size,
		ageMs,
		defaultKinds: ['updateNewMessage', 'updateDeleteMessages'],
		onKinds: (k) => kinds.push([...k]),
		now: () => clock,
		later: (fn) => queued.push(fn),
	})
	const turn = () => {
		for (const fn of queued.splice(0)) fn()
	}
	return { h, kinds, tick: (ms: number) => (clock += ms), turn }
}

const msg = { _: 'updateNewMessage' }

describe('the update hub', () => {
	it('numbers each userbot’s updates from 1 and keeps them whether or not anyone listens', () => {
		const { h } = hub()
		h.publish(7, msg)
		h.publish(7, msg)
		h.publish(8, msg)
		expect(h.kept(7)).toBe(2)
		const { s, got } = sink()
		const sub = h.subscribe(s, 7, undefined, 0)
		expect(sub.lastSeq).toBe(2)
		sub.start()
		expect(got).toEqual([
			{ type: 'update', seq: 1, kind: 'updateNewMessage' },
			{ type: 'update', seq: 2, kind: 'updateNewMessage' },
		])
	})

	it('resumes after the last number seen with exactly what was missed, once, in order, then live', () => {
		const { h } = hub()
		for (let i = 0; i < 5; i++) h.publish(1, msg)
		const { s, got } = sink()
		h.subscribe(s, 1, undefined, 3).start()
		h.publish(1, msg)
		expect(got.map((e) => e.seq)).toEqual([4, 5, 6])
	})

	it('sends only the kinds asked for, and asks the supervisor for a kind beyond the defaults while wanted', () => {
		const { h, kinds } = hub()
		expect(kinds).toEqual([['updateDeleteMessages', 'updateNewMessage']])
		const { s, got } = sink()
		h.subscribe(s, 1, ['updateChatAction']).start()
		expect(kinds.at(-1)).toEqual(['updateChatAction', 'updateDeleteMessages', 'updateNewMessage'])
		h.publish(1, msg)
		h.publish(1, { _: 'updateChatAction' })
		expect(got).toEqual([{ type: 'update', seq: 2, kind: 'updateChatAction' }])
		h.unsubscribe(s, 1)
		expect(kinds.at(-1)).toEqual(['updateDeleteMessages', 'updateNewMessage'])
	})

	it('answers a resume from before the oldest kept with resync, then everything kept', () => {
		const { h } = hub(3)
		for (let i = 0; i < 10; i++) h.publish(1, msg)
		const { s, got } = sink()
		h.subscribe(s, 1, undefined, 2).start()
		expect(got).toEqual([
			{ type: 'resync', userbot_id: 1, seq: 8 } as never,
			{ type: 'update', seq: 8, kind: 'updateNewMessage' },
			{ type: 'update', seq: 9, kind: 'updateNewMessage' },
			{ type: 'update', seq: 10, kind: 'updateNewMessage' },
		])
	})

	it('forgets updates older than the age, and says so to a resume that needed them', () => {
		const { h, tick } = hub(100, 1_000)
		h.publish(1, msg)
		tick(2_000)
		h.publish(1, msg)
		const { s, got } = sink()
		h.subscribe(s, 1, undefined, 0).start()
		expect(got.map((e) => [e.type, e.seq])).toEqual([
			['resync', 2],
			['update', 2],
		])
	})

	it('treats a number it never gave out (a client from before a restart) as a gap', () => {
		const { h } = hub()
		h.publish(1, msg)
		const { s, got } = sink()
		h.subscribe(s, 1, undefined, 500).start()
		expect(got.map((e) => [e.type, e.seq])).toEqual([
			['resync', 1],
			['update', 1],
		])
	})

	it('keeps what a connection that stops reading has not taken in the stream, and sends it at drain', () => {
		const { h } = hub()
		const { s, got, state } = sink()
		h.subscribe(s, 1, undefined).start()
		h.publish(1, msg)
		state.reads = false
		h.publish(1, msg)
		h.publish(1, msg)
		expect(got.map((e) => e.seq)).toEqual([1])
		state.reads = true
		h.pump(s)
		expect(got.map((e) => e.seq)).toEqual([1, 2, 3])
	})

	it('sends at most its budget in one turn, the rest on later turns, in order', () => {
		const { h, turn } = hub()
		for (let i = 0; i < 5; i++) h.publish(1, msg)
		const { s, got, state } = sink(2)
		h.subscribe(s, 1, undefined, 0).start()
		expect(got.map((e) => e.seq)).toEqual([1, 2])
		state.room = 2
		turn()
		state.room = 2
		turn()
		expect(got.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5])
	})

	it('tells a connection that fell behind the oldest update kept, once, and goes on from there', () => {
		const { h } = hub(3)
		const { s, got, state } = sink()
		h.subscribe(s, 1, undefined).start()
		h.publish(1, msg)
		state.reads = false
		for (let i = 0; i < 10; i++) h.publish(1, msg)
		state.reads = true
		h.pump(s)
		expect(got.map((e) => [e.type, e.seq])).toEqual([
			['update', 1],
			['resync', 9],
			['update', 9],
			['update', 10],
			['update', 11],
		])
	})

	it('ends what a closed connection or a deleted userbot had', () => {
		const { h } = hub()
		const a = sink()
		h.subscribe(a.s, 1, undefined).start()
		h.subscribe(a.s, 2, undefined).start()
		h.dropSink(a.s)
		const b = sink()
		h.subscribe(b.s, 3, undefined).start()
		h.forget(3)
		for (const id of [1, 2, 3]) h.publish(id, msg)
		expect(a.got).toEqual([])
		expect(b.got).toEqual([])
		expect(h.kept(3)).toBe(1)
	})
})
