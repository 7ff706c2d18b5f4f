import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { createMessagingFixture, type MessagingFixture } from '../helpers-ws'
import { pluginsWith, testCommands } from './fixtures'

let f: MessagingFixture

beforeAll(async () => {
	f = await createMessagingFixture({}, { plugins: pluginsWith(testCommands) })
})
afterAll(() => f.stop())

describe('gateway when the supervisor dies', () => {
	it('answers every pending command exactly once with an error', async () => {
		const c = await f.connect()
		const runtime = f.t.ctx.runtime as unknown as { pid: number | undefined }
		const pid = runtime.pid
		expect(pid).toBeNumber()
		const replies = Array.from({ length: 60 }, (_, i) =>
			c.command(
				i % 3 === 0
					? { action: 'get_default_message_auto_delete_time', userbot_id: f.userbotId }
					: { action: 'test_sleep', userbot_id: f.userbotId, ms: 5000 },
			),
		)
		// A later frame answered by the child: every earlier one was sent to it before (one socket's
		// frames go out in order), so the slow ones are pending there when it is killed.
		const after = await c.command({ action: 'get_default_message_auto_delete_time', userbot_id: f.userbotId })
		expect(after.payload.type).toBe('get_default_message_auto_delete_time')
		process.kill(pid as number, 'SIGKILL')
		const settled = await Promise.all(replies)
		for (const [i, reply] of settled.entries()) {
			// The quick ones may have been answered before the kill.
			if (i % 3 === 0 && reply.payload.type === 'get_default_message_auto_delete_time') continue
			expect(reply.payload.error).toBe('userbot runtime restarted, try again')
		}
		await Bun.sleep(300)
		// Company events (authorization states after the restart) may arrive too: count replies only.
		const ids = c.received.filter((m) => m.payload?.request_id !== undefined).map((m) => m.payload.request_id)
		expect(ids.length).toBe(61)
		expect(new Set(ids).size).toBe(61)
	})
})
