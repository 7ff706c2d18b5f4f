import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { createLogger } from '../../src/common/util/logger'
import { SEED_CHATS } from '../../src/emulator'
import { createMessagingFixture, type MessagingFixture } from '../helpers-ws'
import { slowReader } from './slow-reader'

/**
 * Issue 7, item 2: a client that stops reading gets every reply or is told, by the close, that it
 * did not: never silence and loss. The client is a Node process (slow-reader.mjs): Node's `pause()`
 * really stops reading, so the kernel's buffers fill and the server meets TCP backpressure. Each
 * reply is a sent message with a 4,000-character text; the client sends on until it is closed,
 * since what the kernel's loopback buffers and the gateway's 256 KiB limit hold together is passed
 * sooner or later, however many frames a loaded server refuses meanwhile.
 */
const TEXT = 'x'.repeat(4000)

describe('replies to a client that does not read', () => {
	let f: MessagingFixture
	/** Set when the gateway closes a socket for not reading (its warn line). */
	let closedOne = false
	beforeAll(async () => {
		const logger = createLogger('warn', {}, (line) => {
			if (line.includes('closing a WebSocket that does not read its replies')) closedOne = true
		})
		f = await createMessagingFixture({ WS_SEND_BUFFER_BYTES: String(256 * 1024) }, { logger })
	})
	afterAll(() => f.stop())

	const frames = (count: number, from = 0) =>
		Array.from({ length: count }, (_, i) => ({
			action: 'send_message',
			userbot_id: f.userbotId,
			chat_id: SEED_CHATS.basicGroup,
			text: TEXT,
			request_id: `c${from + i}`,
		}))

	it('closes with 1013 once its buffer limit is passed, and never sends a reply twice', async () => {
		const reader = await slowReader(f.t.url, f.alice.access)
		reader.pause()
		// It stays stalled, sending on, until the gateway has closed it: how many of a fixed number
		// of frames a loaded server takes (it refuses those past 256 in flight, with short replies)
		// decides nothing.
		let sent = 0
		while (!closedOne) {
			await reader.batch(frames(1000, sent))
			sent += 1000
		}
		reader.resume()
		const { received, close } = await reader.end(10_000)
		expect(close).toEqual({ code: 1013, reason: 'reply buffer full: the client does not read its replies' })
		const ids = received.map((r) => r.request_id)
		expect(new Set(ids).size).toBe(ids.length)
		// It got some, not all: the close is what tells it the rest did not come.
		expect(ids.length).toBeLessThan(sent)
		// The server goes on serving others.
		const other = await f.connect()
		const reply = await other.command({
			action: 'get_default_message_auto_delete_time',
			userbot_id: f.userbotId,
		})
		expect(reply.payload.type).toBe('get_default_message_auto_delete_time')
	}, 40_000)

	it('gives a client that reads every reply exactly once, without closing it', async () => {
		const reader = await slowReader(f.t.url, f.alice.access)
		await reader.batch(frames(500))
		const { received, close } = await reader.end(20_000, 500)
		expect(close).toBeNull()
		expect(received.length).toBe(500)
		expect(new Set(received.map((r) => r.request_id)).size).toBe(500)
	}, 40_000)
})
