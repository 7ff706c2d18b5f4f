import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { slowReader } from '../gateway/slow-reader'
import { createLoggedInUserbot, createMessagingFixture, type MessagingFixture } from '../helpers-ws'

/**
 * Issue 11: a subscriber that does not read. No more than its budget (UPDATE_QUEUE_BYTES, 64 KiB
 * here) is sent ahead of its reading: the rest waits in the userbot's shared stream (500 kept here),
 * so the server's memory for it stays within the budget (measured while the flood lasts). When it
 * reads again it catches up from where it was; what fell out of the stream meanwhile it is told of
 * with a `resync`, never a silent hole; and the replies to its own commands all arrive.
 */
const BOB = 1002
const QUEUE = 64 * 1024
const TEXT = 'y'.repeat(4000)
const FLOOD = 4000

describe('a subscriber that does not read', () => {
	let f: MessagingFixture
	let a: number
	beforeAll(async () => {
		f = await createMessagingFixture({
			UPDATE_QUEUE_BYTES: String(QUEUE),
			WS_SEND_BUFFER_BYTES: String(1024 * 1024),
			UPDATE_BUFFER_SIZE: '500',
		})
		a = await createLoggedInUserbot(f.t, f.mallory.companyId, '9996611111')
	})
	afterAll(() => f.stop())

	it('stays within its budget, keeps its replies, and catches up with a resync where the stream moved on', async () => {
		const reader = await slowReader(f.t.url, f.alice.access)
		reader.send({ action: 'subscribe', userbot_id: f.userbotId, request_id: 'sub' })
		await Bun.sleep(200)
		reader.pause()

		let maxWaiting = 0
		const sampler = setInterval(() => {
			maxWaiting = Math.max(maxWaiting, f.t.socketStats(f.alice.userId).waitingBytes)
		}, 5)
		const alice = await f.connect(f.mallory)
		// 4,000 messages of 4 KB to Bob, 100 at a time (each batch answered before the next): far more
		// than the kernel's buffers take.
		for (let i = 0; i < FLOOD; i++) {
			alice.send({ action: 'send_message', userbot_id: a, chat_id: BOB, text: TEXT, request_id: `flood${i}` })
			// Commands of the stalled client itself, while its updates pile up and are dropped.
			if (i % 800 === 400) {
				reader.send({
					action: 'get_default_message_auto_delete_time',
					userbot_id: f.userbotId,
					request_id: `mine${i}`,
				})
			}
			if (i % 100 === 99) {
				const reply = await alice.take((m) => m.payload?.request_id === `flood${i}`, 20_000)
				expect(reply.payload.type).toBe('send_message')
			}
		}
		await Bun.sleep(300)
		clearInterval(sampler)

		reader.resume()
		const { received, close } = await reader.end(3000)
		expect(close).toBeNull()
		// Every reply of its own arrived: the subscribe and the five commands.
		const replies = received.filter((r) => r.request_id !== undefined).map((r) => r.request_id)
		expect(replies).toEqual(['sub', 'mine400', 'mine1200', 'mine2000', 'mine2800', 'mine3600'])
		// It caught up: what it took before, then one resync (the stream kept 500 of 4,000), then the
		// rest in order to the last one, nothing twice.
		const resyncs = received.filter((r) => r.type === 'resync')
		expect(resyncs).toHaveLength(1)
		const at = received.indexOf(resyncs[0]!)
		const before = received
			.slice(0, at)
			.filter((r) => r.type === 'update')
			.map((r) => r.seq!)
		const after = received
			.slice(at + 1)
			.filter((r) => r.type === 'update')
			.map((r) => r.seq!)
		expect(before).toEqual(Array.from({ length: before.length }, (_, i) => before[0]! + i))
		expect(after[0]).toBe(resyncs[0]!.seq)
		expect(after).toEqual(Array.from({ length: after.length }, (_, i) => resyncs[0]!.seq! + i))
		expect(after.at(-1)).toBe(f.t.ctx.updates.kept(f.userbotId) + after[0]! - 1)
		// Measured: what the server held for it stayed within the budget (plus one update).
		expect(maxWaiting).toBeGreaterThan(0)
		expect(maxWaiting).toBeLessThanOrEqual(QUEUE + 8 * 1024)
		alice.close()
	}, 60_000)
})
