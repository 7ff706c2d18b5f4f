import { describe, expect, it } from 'bun:test'
import { createDeadlineQueue } from '../../src/runtime/supervisor/deadlines'
import type { Principal } from '../../src/server/auth/types'
import { type Connection, Running } from '../../src/server/gateway/running'

/** A socket's signal that counts the listeners on it, and a connection around it that keeps the replies. */
function socket() {
	const closing = new AbortController()
	const signal = closing.signal
	let listeners = 0
	const add = signal.addEventListener.bind(signal)
	const remove = signal.removeEventListener.bind(signal)
	signal.addEventListener = ((...args: Parameters<typeof add>) => {
		listeners++
		add(...args)
	}) as typeof signal.addEventListener
	signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
		listeners--
		remove(...args)
	}) as typeof signal.removeEventListener
	const replies: string[] = []
	const conn: Connection = {
		principal: {} as Principal,
		signal,
		send: () => true,
		admit: () => true,
		runningCount: 0,
		runningChars: 0,
		refusing: null,
		leaving: false,
		started: () => undefined,
		answered: (_r, _c, reply) => {
			if (reply !== null) replies.push(reply)
		},
		observe: () => undefined,
	}
	return { conn, closing, replies, listeners: () => listeners }
}

describe('a command that asks for its signal', () => {
	it("leaves no listener on its socket's signal once answered, however it ended", () => {
		const s = socket()
		const deadlines = createDeadlineQueue()
		const endings: Array<(r: Running) => void> = [
			(r) => r.finish('{"ok":true}'),
			(r) => r.fail('failed'),
			(r) => r.end('revoked'),
			(r) => r.drop(),
			(r) => r.expire(),
		]
		for (let i = 0; i < 1000; i++) {
			const running = new Running(Date.now() + 60_000, 'wait_sent', 1, i, s.conn, deadlines)
			deadlines.add(running)
			expect(running.signal.aborted).toBe(false)
			endings[i % endings.length]?.(running)
		}
		// Without the detach each command's listener stayed for the socket's life: 1,000 here.
		expect(s.listeners()).toBe(0)
		expect(s.replies).toHaveLength(800)
	})

	it('is still aborted when its socket closes while it runs', () => {
		const s = socket()
		const deadlines = createDeadlineQueue()
		const running = new Running(Date.now() + 60_000, 'wait_sent', 1, 1, s.conn, deadlines)
		deadlines.add(running)
		const signal = running.signal
		expect(s.listeners()).toBe(1)
		s.closing.abort(new Error('socket closed'))
		expect(signal.aborted).toBe(true)
		running.drop()
	})

	it('is aborted when its socket drops it, before the socket signals its close', () => {
		const s = socket()
		const deadlines = createDeadlineQueue()
		const running = new Running(Date.now() + 60_000, 'wait_for_message', 1, 1, s.conn, deadlines)
		deadlines.add(running)
		const signal = running.signal
		// The socket's close settles what runs first (socket.ts `closed`), then aborts its own signal.
		running.drop()
		expect(signal.aborted).toBe(true)
		expect(s.listeners()).toBe(0)
	})
})
