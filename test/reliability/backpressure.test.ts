import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { createLogger } from '../../src/common/util/logger'
import { SEED_CHATS } from '../../src/emulator'
import { createLoggedInUserbot, createMessagingFixture, type MessagingFixture } from '../helpers-ws'
import { runtimeCounts } from './runtime-counts'
import { startStalledClients } from './stalled-clients'

/**
 * Issue 13, backpressure: clients that stop reading while commands and updates flow. Four stalled
 * sockets (one Node process: their kernel buffers really fill) each send 4,000 messages of 4,000
 * characters through a second userbot and subscribe to the first one's updates; meanwhile four
 * sockets that read send commands of every group and take the first userbot's updates, which a
 * fifth keeps producing. What waits in the server stays under a bound counted from the limits;
 * the readers lose nothing (every reply, every update number in order, no resync); each stalled
 * socket gets every reply or is closed with 1013, and never a reply twice.
 */
const SEND_BUFFER = 256 * 1024
const UPDATE_QUEUE = 64 * 1024
const STALLED = 4
const READERS = 4

let f: MessagingFixture
let bulkUserbotId: number
/** Resolved when the gateway first closes a socket for not reading (its warn line). */
let closedOne: () => void = () => {}
const firstClose = new Promise<void>((resolve) => {
	closedOne = resolve
})

beforeAll(async () => {
	const logger = createLogger('warn', {}, (line) => {
		if (line.includes('closing a WebSocket that does not read its replies')) closedOne()
	})
	f = await createMessagingFixture(
		{
			WS_SEND_BUFFER_BYTES: String(SEND_BUFFER),
			UPDATE_QUEUE_BYTES: String(UPDATE_QUEUE),
		},
		{ logger },
	)
	// Alice's emulated account: its messages to Carol (no userbot) reach no other stream.
	bulkUserbotId = await createLoggedInUserbot(f.t, f.alice.companyId, '9996611111')
})
afterAll(() => f.stop())

const readerMix = (userbotId: number, n: number): Record<string, unknown> => {
	const frames: Array<Record<string, unknown>> = [
		{ action: 'get_default_message_auto_delete_time' },
		{ action: 'get_active_sessions' },
		{ action: 'get_password_state' },
		{ action: 'get_chat_members', chat_id: SEED_CHATS.supergroup },
		{ action: 'get_chat_invite_links', chat_id: SEED_CHATS.supergroup, creator_user_id: 1002 },
	]
	return { ...frames[n % frames.length]!, userbot_id: userbotId }
}

describe('clients that stop reading while commands and updates flow', () => {
	it('cost a bounded amount, take nothing from readers, and get every reply or 1013', async () => {
		const text = 'x'.repeat(4000)
		const count = 4000
		const frame = { action: 'send_message', userbot_id: bulkUserbotId, chat_id: 1003, text }
		const stalled = await startStalledClients(f.t.url, f.alice.access, {
			sockets: STALLED,
			userbotId: f.userbotId,
			frame,
			count,
			paceMs: 50,
			// Stalled, sending on, until the gateway has closed one of them.
			readMs: 20_000,
		})

		// What waits for sockets, sampled while the stalled ones do not read.
		let mostWaiting = 0
		let sampling = true
		const sampler = (async () => {
			while (sampling) {
				mostWaiting = Math.max(mostWaiting, f.t.socketStats().waitingBytes)
				await Bun.sleep(10)
			}
		})()

		const readers = await Promise.all(Array.from({ length: READERS }, () => f.connect()))
		const firstSeq: number[] = []
		for (const r of readers) {
			const sub = await r.command({ action: 'subscribe', userbot_id: f.userbotId })
			firstSeq.push((sub.payload.result as { last_seq: number }).last_seq + 1)
		}
		const producer = await f.connect()
		const produced = Array.from({ length: 150 }, (_, i) =>
			producer.command(
				{
					action: 'send_message',
					userbot_id: f.userbotId,
					chat_id: SEED_CHATS.basicGroup,
					text: `u${i}`,
				},
				60_000,
			),
		)
		const commands = readers.flatMap((r) =>
			Array.from({ length: 100 }, (_, i) => r.command(readerMix(f.userbotId, i), 60_000)),
		)
		const answered = await Promise.all([...produced, ...commands])
		for (const reply of answered) expect(reply.payload.error).toBeUndefined()
		await firstClose
		stalled.resume()
		const results = await stalled.results
		sampling = false
		await sampler
		// The stream's last number: the readers must each have every update up to it.
		const check = await producer.command({ action: 'subscribe', userbot_id: f.userbotId })
		const lastSeq = (check.payload.result as { last_seq: number }).last_seq
		// Updates up to it may still be on their way to a reader: wait for the last one, not a timer.
		const isLast = (m: unknown) => {
			const u = m as { type: string; seq?: number }
			return u.type === 'update' && u.seq === lastSeq
		}
		await Promise.all(readers.map((r) => r.take(isLast, 30_000)))

		// Readers: every update number from their first to the last, in order, once; no resync.
		for (const [i, r] of readers.entries()) {
			const got = r.received as unknown as Array<{ type: string; seq?: number }>
			expect(got.filter((m) => m.type === 'resync')).toEqual([])
			const seqs = got.filter((m) => m.type === 'update').map((m) => m.seq!)
			expect(seqs).toEqual(Array.from({ length: lastSeq - firstSeq[i]! + 1 }, (_, k) => firstSeq[i]! + k))
		}

		// Stalled ones: every reply, or the 1013 close; never a reply twice.
		let closed = 0
		for (const s of results) {
			expect(new Set(s.replies).size).toBe(s.replies.length)
			if (s.replies.length === s.sent) continue
			expect(s.close).toEqual({
				code: 1013,
				reason: 'reply buffer full: the client does not read its replies',
			})
			closed++
		}
		expect(closed).toBeGreaterThan(0)

		// The bound: per socket, the reply queue and Bun's buffer up to the limit each, and the
		// updates sent ahead; readers hold little. Counted by the gateway, not guessed from RSS.
		const bound = (STALLED + READERS + 1) * (2 * SEND_BUFFER + UPDATE_QUEUE + 2 * 8 * 1024)
		expect(mostWaiting).toBeGreaterThan(0)
		expect(mostWaiting).toBeLessThanOrEqual(bound)
		expect(runtimeCounts(f.t).restarts).toBe(0)
		if (process.env.RELIABILITY_VERBOSE)
			console.log({ mostWaiting, bound, closed, lastSeq, results: results.map((r) => r.errors) })
	}, 90_000)
})
