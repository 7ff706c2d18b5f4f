import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { MAX_IN_FLIGHT, MAX_IN_FLIGHT_CHARS } from '../../src/server/gateway/dispatch'
import { createMessagingFixture, type MessagingFixture } from '../helpers-ws'
import { heldCommands, pluginsWith, testCommands } from './fixtures'

let f: MessagingFixture
/** Commands answered when the test says: in flight for as long as it needs, whatever the load. */
const held = heldCommands()

beforeAll(async () => {
	f = await createMessagingFixture({}, { plugins: pluginsWith(testCommands, held.group) })
})
afterAll(() => f.stop())

const GET = 'get_default_message_auto_delete_time'

describe('commands in flight per connection', () => {
	it('refuses one command over the cap at once, once, and keeps the connection', async () => {
		expect(MAX_IN_FLIGHT).toBe(256)
		held.hold()
		const c = await f.connect()
		const sleeps = Array.from({ length: MAX_IN_FLIGHT }, () =>
			c.command({ action: 'test_held', userbot_id: f.userbotId }, 15_000),
		)
		const over = await c.command({ action: GET, userbot_id: f.userbotId, request_id: 'over' })
		expect(over.payload).toEqual({
			userbot_id: f.userbotId,
			type: `${GET}_error`,
			error: 'too many commands in flight',
			request_id: 'over',
		})
		// Answered while every held one still runs.
		expect(c.received.filter((m) => m.payload.type === 'test_held')).toEqual([])
		held.release()
		const done = await Promise.all(sleeps)
		expect(done.every((m) => m.payload.type === 'test_held')).toBe(true)
		// Room again once they settled.
		expect((await c.command({ action: GET, userbot_id: f.userbotId })).payload.type).toBe(GET)
		expect(c.received.filter((m) => m.payload.request_id === 'over').length).toBe(1)
		expect(c.ws.readyState).toBe(WebSocket.OPEN)
	}, 20_000)

	it('refuses a command past the frame characters its running commands may hold, and takes it once they settle', async () => {
		expect(MAX_IN_FLIGHT_CHARS).toBe(8 * 1024 * 1024)
		held.hold()
		const c = await f.connect()
		// Eight frames just under 1 MiB each (the frame limit), running: just under 8 Mi characters held.
		const pad = 'x'.repeat(1024 * 1024 - 200)
		const slow = Array.from({ length: 8 }, (_, i) =>
			c.command({ action: 'test_held', userbot_id: f.userbotId, pad, request_id: `big-${i}` }, 15_000),
		)
		// A ninth would pass 8 Mi characters: refused at once, though far under MAX_IN_FLIGHT.
		const over = await c.command({ action: 'test_held', userbot_id: f.userbotId, pad, request_id: 'over' })
		expect(over.payload).toEqual({
			userbot_id: f.userbotId,
			type: 'test_held_error',
			error: 'too many commands in flight',
			request_id: 'over',
		})
		// A small one still fits beside them.
		expect((await c.command({ action: GET, userbot_id: f.userbotId })).payload.type).toBe(GET)
		expect(c.received.filter((m) => m.payload.type === 'test_held')).toEqual([])
		held.release()
		const done = await Promise.all(slow)
		expect(done.every((m) => m.payload.type === 'test_held')).toBe(true)
		// Their characters are given back when they are answered.
		const again = await c.command({ action: 'test_held', userbot_id: f.userbotId, pad, request_id: 'again' })
		expect(again.payload.type).toBe('test_held')
		expect(c.ws.readyState).toBe(WebSocket.OPEN)
	}, 20_000)
})
