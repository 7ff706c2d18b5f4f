import { describe, expect, it } from 'bun:test'
import type { ServerWebSocket } from 'bun'
import { createOutbox } from '../../src/server/gateway/outbox'

/**
 * The outbox alone, against a socket that answers `send` as Bun does: the byte count, -1 when it had
 * to buffer (backpressure), 0 when it dropped the message.
 */
function fakeSocket(answers: number[]) {
	const sent: string[] = []
	let buffered = 0
	const ws = {
		cork(fn: () => void) {
			fn()
		},
		send(text: string) {
			const answer = answers.shift() ?? text.length
			if (answer !== 0) sent.push(text)
			if (answer === -1) buffered += text.length
			return answer
		},
		getBufferedAmount: () => buffered,
	}
	return { ws: ws as unknown as ServerWebSocket<unknown>, sent, drained: () => (buffered = 0) }
}

const turn = () => new Promise((resolve) => setImmediate(resolve))

describe('the outbox', () => {
	it('writes each turn in one corked batch, in order', async () => {
		const overflowed: unknown[] = []
		const outbox = createOutbox({ limitBytes: 1000, onOverflow: (ws) => overflowed.push(ws) })
		const { ws, sent } = fakeSocket([])
		outbox.send(ws, 'a')
		outbox.send(ws, 'b')
		expect(sent).toEqual([])
		await turn()
		expect(sent).toEqual(['a', 'b'])
		expect(overflowed).toEqual([])
	})

	it('holds replies after backpressure until drain, then writes them in order', async () => {
		const outbox = createOutbox({ limitBytes: 1000, onOverflow: () => {} })
		const { ws, sent, drained } = fakeSocket([1, -1])
		outbox.send(ws, 'one')
		outbox.send(ws, 'two')
		outbox.send(ws, 'three')
		await turn()
		// 'two' went to Bun's buffer: nothing more is handed over until drain.
		expect(sent).toEqual(['one', 'two'])
		outbox.send(ws, 'four')
		await turn()
		expect(sent).toEqual(['one', 'two'])
		expect(outbox.waitingBytes(ws)).toBe('three'.length + 'four'.length)
		drained()
		outbox.drain(ws)
		expect(sent).toEqual(['one', 'two', 'three', 'four'])
	})

	it('closes a socket whose waiting replies pass the limit, once, and keeps nothing of it', async () => {
		const overflowed: unknown[] = []
		const outbox = createOutbox({ limitBytes: 10, onOverflow: (ws) => overflowed.push(ws) })
		const { ws, sent } = fakeSocket([-1])
		outbox.send(ws, 'first')
		await turn()
		outbox.send(ws, '123456')
		expect(overflowed).toEqual([])
		outbox.send(ws, '7890123')
		expect(overflowed).toEqual([ws])
		outbox.drain(ws)
		expect(sent).toEqual(['first'])
		expect(outbox.waitingBytes(ws)).toBe(0)
	})

	it('treats a reply Bun dropped as the end of the socket, never as sent', async () => {
		const overflowed: unknown[] = []
		const outbox = createOutbox({ limitBytes: 1000, onOverflow: (ws) => overflowed.push(ws) })
		const { ws, sent } = fakeSocket([0])
		outbox.send(ws, 'lost')
		outbox.send(ws, 'after')
		await turn()
		expect(sent).toEqual([])
		expect(overflowed).toEqual([ws])
	})

	it('writes what waits at once before a close (flushNow)', () => {
		const outbox = createOutbox({ limitBytes: 1000, onOverflow: () => {} })
		const { ws, sent } = fakeSocket([])
		outbox.send(ws, 'last words')
		outbox.flushNow(ws)
		expect(sent).toEqual(['last words'])
	})
})
