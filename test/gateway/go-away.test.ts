import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { connectWs, createMessagingFixture, type MessagingFixture } from '../helpers-ws'
import { heldCommands, pluginsWith } from './fixtures'

/**
 * A stopping server (`goAway`, what SIGTERM starts: src/platform/shutdown.ts): each socket closes with 1001
 * once the commands it had running are answered; a command that arrives meanwhile is not run and
 * gets no reply (the close is its answer); no new socket is opened.
 */
const held = heldCommands()
let f: MessagingFixture

beforeAll(async () => {
	f = await createMessagingFixture({}, { plugins: pluginsWith(held.group) })
})
afterAll(() => f.stop())

describe('goAway', () => {
	it('answers what runs, runs nothing new, then closes every socket with 1001', async () => {
		const idle = await f.connect()
		const busy = await f.connect()
		const running = busy.command({ action: 'test_held', userbot_id: f.userbotId, request_id: 'held' })
		// A later frame's reply: the held one was taken before it (frames are handled in order).
		await busy.command({ action: 'no_such_action', userbot_id: f.userbotId })
		expect(held.state.started).toBe(1)

		const gone = f.t.goAway()
		// The idle socket goes at once; the busy one stays for its running command.
		expect(await idle.closed).toEqual({ code: 1001, reason: 'server shutting down' })
		expect(busy.ws.readyState).toBe(WebSocket.OPEN)
		// Arrives while the server stops: not run, no reply of its own.
		busy.send({ action: 'test_held', userbot_id: f.userbotId, request_id: 'late' })
		// Nor is a new socket opened.
		const refused = await connectWs(f.t.url, { bearer: f.alice.access }).then(
			() => 'opened',
			(err: Error) => err.message,
		)
		expect(refused).toBe('WebSocket upgrade failed')

		held.release()
		expect((await running).payload).toEqual({
			userbot_id: f.userbotId,
			type: 'test_held',
			result: { released: true },
			request_id: 'held',
		})
		expect(await busy.closed).toEqual({ code: 1001, reason: 'server shutting down' })
		await gone
		expect(held.state.started).toBe(1)
		expect(busy.received.map((m) => m.payload.request_id)).not.toContain('late')
	})
})
