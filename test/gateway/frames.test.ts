import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { type ChatUpdate, createMessagingFixture, type MessagingFixture, type WsClient } from '../helpers-ws'
import { pluginsWith, testCommands } from './fixtures'

let f: MessagingFixture
let c: WsClient

beforeAll(async () => {
	f = await createMessagingFixture({ COMMAND_TIMEOUT: '300' }, { plugins: pluginsWith(testCommands) })
	c = await f.connect()
})
afterAll(() => f.stop())

const GET = 'get_default_message_auto_delete_time'

describe('gateway frame table (docs/protocol.md#frames-that-are-no-command)', () => {
	it('answers a frame that is not JSON with invalid JSON, and no userbot_id (never null)', async () => {
		c.send('{not json')
		expect(await c.next()).toEqual({
			type: 'chat_update',
			payload: { type: 'error', error: 'invalid JSON' },
		})
	})

	it('treats a JSON string frame as JSON that is no object', async () => {
		for (const frame of ['"{}"', '[1,2]', '42', 'null', 'true']) {
			c.send(frame)
			const reply = await c.next()
			expect(reply).toEqual({
				type: 'chat_update',
				payload: { type: 'error', error: 'command must be a JSON object' },
			})
		}
	})

	it('answers a frame without a string action with action is required', async () => {
		for (const frame of [{}, { action: 5, request_id: 'a1' }, { action: '', userbot_id: f.userbotId }]) {
			c.send(frame)
			const reply = await c.next()
			expect(reply.payload.type).toBe('error')
			expect(reply.payload.error).toBe('action is required')
		}
	})

	it('answers an unknown action with <action>_error', async () => {
		const reply = await c.command({ action: 'launch_rockets', userbot_id: f.userbotId })
		expect(reply.payload.type).toBe('launch_rockets_error')
		expect(reply.payload.error).toBe('unknown action')
	})

	it('requires userbot_id, and answers without one: the field is left out, never null', async () => {
		for (const missing of [{}, { userbot_id: null }, { userbot_id: '' }]) {
			const reply = await c.command({ action: GET, ...missing, request_id: 'no-id' })
			expect(reply).toEqual({
				type: 'chat_update',
				payload: { type: `${GET}_error`, error: 'userbot_id is required', request_id: 'no-id' },
			})
		}
	})

	it('requires userbot_id to be an integer, and does not echo what was sent instead', async () => {
		for (const bad of ['abc', 1.5, true, { id: 1 }, [1]]) {
			const reply = await c.command({ action: GET, userbot_id: bad })
			expect(reply.payload).toMatchObject({ type: `${GET}_error`, error: 'userbot_id must be an integer' })
			expect('userbot_id' in reply).toBe(false)
			expect('userbot_id' in reply.payload).toBe(false)
		}
	})

	it('answers an integer userbot_id beyond 2^53 with userbot not found, not must be an integer', async () => {
		// Raw frames: the digits reach the server as written.
		for (const id of ['1152921504606846976', '1e300', '-9007199254740993', '"12345678901234567890"']) {
			c.send(`{"action":"${GET}","userbot_id":${id},"request_id":"huge"}`)
			const reply = await c.next()
			expect(reply).toEqual({
				type: 'chat_update',
				payload: { type: `${GET}_error`, error: 'userbot not found', request_id: 'huge' },
			})
		}
		expect(c.ws.readyState).toBe(WebSocket.OPEN)
	})

	it('answers a userbot that does not exist with userbot not found', async () => {
		const reply = await c.command({ action: GET, userbot_id: 999_999 })
		expect(reply.payload).toMatchObject({
			userbot_id: 999_999,
			type: `${GET}_error`,
			error: 'userbot not found',
		})
	})

	it("answers another company's userbot with userbot not found", async () => {
		const other = await f.connect(f.mallory)
		const reply = await other.command({ action: GET, userbot_id: f.userbotId })
		expect(reply.payload.error).toBe('userbot not found')
		other.close()
	})

	it('answers a userbot that is not logged in with userbot is not authorized', async () => {
		const { userbot } = await import('../../db/schema')
		const [row] = await f.t.ctx.db
			.insert(userbot)
			.values({ companyId: f.alice.companyId, encryptionKey: 'a2V5' })
			.returning({ id: userbot.id })
		// No client runs for it yet (as while the start-up restore is still going): unavailable.
		const early = await c.command({ action: GET, userbot_id: row!.id })
		expect(early.payload).toMatchObject({ type: `${GET}_error`, error: 'userbot runtime unavailable' })
		// Its client runs, waiting for a phone number: not authorized.
		await f.t.ctx.runtime!.startClient(row!.id, { encryptionKey: 'a2V5' })
		// Its state changes are pushed to the company's connections: take them off the queue.
		const waiting = (u: ChatUpdate) =>
			(u.payload.result as { authorization_state?: string } | undefined)?.authorization_state ===
			'authorizationStateWaitPhoneNumber'
		while (!waiting(await c.next())) {}
		const reply = await c.command({ action: GET, userbot_id: row!.id })
		expect(reply.payload).toMatchObject({ type: `${GET}_error`, error: 'userbot is not authorized' })
		// A command that works before log-in skips the check.
		const ok = await c.command({ action: 'test_no_auth', userbot_id: row!.id })
		expect(ok.payload).toMatchObject({ type: 'test_no_auth', result: { userbot: row!.id } })
	})

	it('answers a command that outlives its deadline with timeout, once', async () => {
		const reply = await c.command({ action: 'test_sleep', userbot_id: f.userbotId, ms: 1000 })
		expect(reply.payload).toMatchObject({ type: 'test_sleep_error', error: 'timeout' })
		const before = c.received.length
		await Bun.sleep(900)
		expect(c.received.length).toBe(before)
	})

	it('counts a userbot lookup that hangs against the deadline', async () => {
		const directory = f.t.ctx.userbots
		const lookup = directory.lookup
		directory.lookup = (id) => (id === 31337 ? new Promise(() => {}) : lookup(id))
		try {
			const reply = await c.command({ action: GET, userbot_id: 31337 })
			expect(reply.payload).toMatchObject({ type: `${GET}_error`, error: 'timeout' })
		} finally {
			directory.lookup = lookup
		}
	})

	it('echoes request_id, string or integer', async () => {
		const a = await c.command({ action: GET, userbot_id: f.userbotId, request_id: 'abc' })
		expect(a.payload.request_id).toBe('abc')
		const b = await c.command({ action: GET, userbot_id: f.userbotId, request_id: 77 })
		expect(b.payload.request_id).toBe(77)
		expect(b).toEqual({
			type: 'chat_update',
			userbot_id: f.userbotId,
			payload: {
				userbot_id: f.userbotId,
				type: GET,
				result: { _: 'messageAutoDeleteTime', time: 0 },
				request_id: 77,
			},
		})
	})

	it('echoes an integer request_id beyond 2^53 digit for digit, and ignores a fraction', async () => {
		const raw: string[] = []
		const keep = (event: MessageEvent) => raw.push(String(event.data))
		c.ws.addEventListener('message', keep)
		c.send(`{"action":"${GET}","userbot_id":${f.userbotId},"request_id":12345678901234567890}`)
		// JSON.parse on this side rounds the id; the reply's text carries the very digits sent.
		const big = await c.next()
		expect(big.payload.type).toBe(GET)
		expect(Number(big.payload.request_id)).toBeGreaterThan(2 ** 53)
		c.ws.removeEventListener('message', keep)
		expect(raw.filter((text) => text.endsWith(',"request_id":12345678901234567890}}'))).toHaveLength(1)
		c.send(`{"action":"${GET}","userbot_id":${f.userbotId},"request_id":1.5}`)
		const fraction = await c.next()
		expect(fraction.payload.type).toBe(GET)
		expect('request_id' in fraction.payload).toBe(false)
	})

	it("reads null as a field not sent in the connection's own frames too (subscribe)", async () => {
		// A socket of its own: the updates it subscribes to go nowhere near the other tests' replies.
		const own = await f.connect()
		const reply = await own.command({
			action: 'subscribe',
			userbot_id: f.userbotId,
			updates: null,
			after: null,
		})
		expect(reply.payload).toMatchObject({ type: 'subscribe', result: { last_seq: expect.any(Number) } })
		const bad = await own.command({ action: 'subscribe', userbot_id: f.userbotId, after: -1 })
		expect(bad.payload).toMatchObject({
			type: 'subscribe_error',
			error: 'after must be a whole number (a seq)',
		})
		own.close()
	})

	it('accepts userbot_id as a digit string', async () => {
		const reply = await c.command({ action: GET, userbot_id: String(f.userbotId) })
		expect(reply.payload.type).toBe(GET)
	})

	it('hides unexpected exceptions behind internal error', async () => {
		const reply = await c.command({ action: 'test_crash', userbot_id: f.userbotId })
		expect(reply.payload).toMatchObject({ type: 'test_crash_error', error: 'internal error' })
		expect(JSON.stringify(reply)).not.toContain('shadow')
	})

	it('sends a CommandError with its partial result', async () => {
		const reply = await c.command({ action: 'test_partial', userbot_id: f.userbotId })
		expect(reply.payload).toMatchObject({
			type: 'test_partial_error',
			error: 'half done',
			result: { done: 1 },
		})
	})

	it('reads binary frames as UTF-8 text, and bytes that are not UTF-8 as invalid JSON', async () => {
		c.send(
			new TextEncoder().encode(JSON.stringify({ action: GET, userbot_id: f.userbotId, request_id: 'bin' })),
		)
		const ok = await c.next()
		expect(ok.payload).toMatchObject({ type: GET, request_id: 'bin' })
		c.send(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]))
		expect((await c.next()).payload).toMatchObject({ type: 'error', error: 'invalid JSON' })
	})

	it('keeps the connection open after every bad frame', async () => {
		const reply = await c.command({ action: GET, userbot_id: f.userbotId })
		expect(reply.payload.type).toBe(GET)
		expect(c.ws.readyState).toBe(WebSocket.OPEN)
	})

	it('matches 100 concurrent replies by request_id', async () => {
		const before = c.received.length
		const replies = await Promise.all(
			Array.from({ length: 100 }, (_, i) =>
				c.command(
					i % 2
						? { action: GET, userbot_id: f.userbotId, request_id: i }
						: {
								action: 'set_chat_message_auto_delete_time',
								userbot_id: f.userbotId,
								chat_id: 1001,
								message_auto_delete_time: i,
								request_id: i,
							},
				),
			),
		)
		replies.forEach((reply, i) => {
			expect(reply.payload.request_id).toBe(i)
			if (i % 2) expect(reply.payload.type).toBe(GET)
			else
				expect(reply.payload).toMatchObject({
					type: 'set_chat_message_auto_delete_time',
					result: { chat_id: 1001, message_auto_delete_time: i },
				})
		})
		const ids = c.received
			.slice(before)
			.map((m) => m.payload.request_id)
			.filter((id) => typeof id === 'number')
		expect(ids.length).toBe(100)
		expect(new Set(ids).size).toBe(100)
	})
})

describe('frames and commands no check foresaw', () => {
	it('refuses a frame nested deeper than any command takes, before anything walks it', async () => {
		let deep: unknown = 'x'
		for (let i = 0; i < 5000; i++) deep = [deep]
		const reply = await c.command({ action: 'send_message', userbot_id: f.userbotId, chat_id: 1, text: deep })
		expect(reply.payload).toMatchObject({ type: 'send_message_error', error: 'command is nested too deeply' })
		// 20 levels are within the frame's bound: the text field itself says what is wrong.
		let twenty: unknown = 'x'
		for (let i = 0; i < 20; i++) twenty = [twenty]
		const field = await c.command({
			action: 'send_message',
			userbot_id: f.userbotId,
			chat_id: 1,
			text: twenty,
		})
		expect(field.payload.error).toBe('text must be a string or a formattedText object')
	})

	it('words a schema without messages in our words, naming only a declared field', async () => {
		const wrong = await c.command({ action: 'test_unworded', userbot_id: f.userbotId, count: 'five' })
		expect(wrong.payload).toMatchObject({ type: 'test_unworded_error', error: 'count is invalid' })
		const nested = await c.command({ action: 'test_unworded', userbot_id: f.userbotId, tags: ['a', 5] })
		expect(nested.payload.error).toBe('tags is invalid')
		expect(JSON.stringify([wrong, nested])).not.toMatch(/Invalid type|Expected|received/i)
	})

	it('refuses a TDLib method the command does not declare, and logs it', async () => {
		const reply = await c.command({ action: 'test_undeclared', userbot_id: f.userbotId })
		expect(reply.payload).toMatchObject({ type: 'test_undeclared_error', error: 'internal error' })
	})
})
