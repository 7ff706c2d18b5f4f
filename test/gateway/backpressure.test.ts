import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { SEED_CHATS } from '../../src/telegram/emulator'
import { createMessagingFixture, type MessagingFixture } from '../helpers-ws'

/**
 * Issue 7, item 2: a client that stops reading gets every reply or is told, by the close, that it
 * did not: never silence and loss. The client is a Node process (test/gateway/slow-reader.mjs):
 * Node's `pause()` really stops reading, so the kernel's buffers fill and the server meets TCP
 * backpressure. Each reply is a sent message with a 4,000-character text: 5,000 of them are more
 * than the kernel's loopback buffers and the gateway's 256 KiB limit hold together.
 */
const TEXT = 'x'.repeat(4000)
const READER = join(import.meta.dir, 'slow-reader.mjs')

interface Outcome {
	ids: Array<string | null>
	close: { code: number; reason: string } | null
}

describe('replies to a client that does not read', () => {
	let f: MessagingFixture
	beforeAll(async () => {
		f = await createMessagingFixture({ WS_SEND_BUFFER_BYTES: String(256 * 1024) })
	})
	afterAll(() => f.stop())

	async function run(count: number, pauseMs: number, readMs: number): Promise<Outcome> {
		// The reader stops at `count` replies, at the close, or after `readMs`.
		const frames = Array.from({ length: count }, (_, i) =>
			JSON.stringify({
				action: 'send_message',
				userbot_id: f.userbotId,
				chat_id: SEED_CHATS.basicGroup,
				text: TEXT,
				request_id: `c${i}`,
			}),
		)
		const args = [READER, f.t.url, f.alice.access, String(pauseMs), String(readMs), String(count)]
		const proc = Bun.spawn(['node', ...args], {
			stdin: new Blob([frames.join('\n')]),
			stdout: 'pipe',
			stderr: 'inherit',
		})
		const out = await new Response(proc.stdout).text()
		await proc.exited
		return JSON.parse(out) as Outcome
	}

	it('closes with 1013 once its buffer limit is passed, and never sends a reply twice', async () => {
		const { ids, close } = await run(5000, 3000, 10_000)
		expect(close).toEqual({ code: 1013, reason: 'reply buffer full: the client does not read its replies' })
		expect(new Set(ids).size).toBe(ids.length)
		// It got some, not all: the close is what tells it the rest did not come.
		expect(ids.length).toBeLessThan(5000)
		// The server goes on serving others.
		const other = await f.connect()
		const reply = await other.command({
			action: 'get_default_message_auto_delete_time',
			userbot_id: f.userbotId,
		})
		expect(reply.payload.type).toBe('get_default_message_auto_delete_time')
	}, 40_000)

	it('gives a client that reads every reply exactly once, without closing it', async () => {
		const { ids, close } = await run(500, 0, 20_000)
		expect(close).toBeNull()
		expect(ids.length).toBe(500)
		expect(new Set(ids).size).toBe(500)
	}, 40_000)
})
