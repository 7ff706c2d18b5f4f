import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { emulatorRequest, SEED_CHATS } from '../../src/emulator'
import { createMessagingFixture, type MessagingFixture } from '../helpers-ws'
import { runtimeCounts } from './runtime-counts'

/**
 * Issue 13, faults: a slow Telegram cloud. The emulator answers every request 900 ms after doing
 * its work (`emulatorLatency`), past the 300 ms deadline: the command is answered `timeout` once;
 * the late answer (the message was sent) reaches the parent, is dropped there, and never becomes a
 * second reply. The update stream still tells the client what happened.
 */
const DEADLINE_MS = 300
const LATENCY_MS = 900

let f: MessagingFixture

beforeAll(async () => {
	f = await createMessagingFixture({ COMMAND_TIMEOUT: String(DEADLINE_MS) })
})
afterAll(() => f.stop())

const latency = (ms: number) =>
	f.t.ctx.runtime!.invoke(f.userbotId, emulatorRequest({ _: 'emulatorLatency', ms }), { timeoutMs: 5000 })

describe('a TDLib that answers past the deadline', () => {
	it('gets each command answered timeout once, drops the late answers, and recovers', async () => {
		const c = await f.connect()
		const sub = await c.command({
			action: 'subscribe',
			userbot_id: f.userbotId,
			updates: ['updateNewMessage'],
		})
		expect(sub.payload.error).toBeUndefined()
		await latency(LATENCY_MS)

		// One command of each group that reaches TDLib, and a send whose late answer has an effect.
		const frames = [
			{ action: 'send_message', chat_id: SEED_CHATS.basicGroup, text: 'late but sent' },
			{ action: 'get_default_message_auto_delete_time' },
			{ action: 'get_active_sessions' },
			{ action: 'get_password_state' },
			{ action: 'get_chat_members', chat_id: SEED_CHATS.supergroup },
			{ action: 'get_chat_invite_links', chat_id: SEED_CHATS.supergroup, creator_user_id: 1002 },
		]
		const replies = await Promise.all(frames.map((fr) => c.command({ ...fr, userbot_id: f.userbotId })))
		for (const [i, reply] of replies.entries()) {
			expect(reply.payload.type).toBe(`${frames[i]!.action}_error`)
			expect(reply.payload.error).toBe('timeout')
		}

		// The late answers come back (the message was sent: its update arrives) and are dropped.
		const update = await c.take(
			(m) =>
				(m as unknown as { type: string }).type === 'update' && JSON.stringify(m).includes('late but sent'),
			5000,
		)
		expect(update).toBeDefined()
		await Bun.sleep(LATENCY_MS + 300)
		expect(runtimeCounts(f.t).pendingRequests).toBe(0)
		const ids = c.received.flatMap((m) => (m.payload?.request_id === undefined ? [] : [m.payload.request_id]))
		// Each command once, the subscription once: no second reply to anything.
		expect(ids).toHaveLength(frames.length + 1)
		expect(new Set(ids).size).toBe(ids.length)

		// The cloud is quick again: the same commands succeed, on the same supervisor.
		await latency(0)
		const again = await Promise.all(frames.map((fr) => c.command({ ...fr, userbot_id: f.userbotId })))
		for (const reply of again) expect(reply.payload.error).toBeUndefined()
		expect(runtimeCounts(f.t).restarts).toBe(0)
	}, 30_000)
})
