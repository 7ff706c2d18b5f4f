import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { Bot } from 'grammy'
import type { MessagingFixture, WsClient } from '../../helpers-ws'
import { ALICE, BOB, createBotFixture, json, madeToken, request } from './support'

/**
 * The Bot API face (docs/bot-api.md) over the emulator: raw requests in each encoding, the Bot
 * API's error wording, and grammY's `Bot` pointed at the server (`client.apiRoot`) unchanged.
 * Bob (1002) is the token's userbot; Alice (1001), of another company, writes to him.
 */
let f: MessagingFixture
let alice: number
let aliceWs: WsClient
let token: string
let other: string
const lines: string[] = []
beforeAll(async () => {
	;({ f, token, alice, aliceWs } = await createBotFixture({ opts: { logLines: lines }, alice: true }))
	other = await tokenFor(f.mallory.access, alice)
})
afterAll(() => f.stop())

const made = (access: string, userbotId: number, scopes: Record<string, unknown> = {}) =>
	madeToken(f, access, userbotId, scopes)
const tokenFor = async (access: string, userbotId: number) => (await made(access, userbotId)).bot_token
const call = (method: string, init: RequestInit & { query?: string } = {}, tok = token) =>
	request(f, tok, method, init)

/** Confirms every update the token has now, so that its next long poll waits. */
async function drained(tok: string) {
	for (;;) {
		const updates = (await call('getUpdates', {}, tok)).body.result as Array<{ update_id: number }>
		const last = updates.at(-1)
		if (!last) return
		await call('getUpdates', json({ offset: last.update_id + 1, limit: 1 }), tok)
	}
}

/**
 * Waits until `n` getUpdates long polls wait on the server (its `ubg_bot_api_long_polls` gauge);
 * false if `over` says to stop looking first.
 */
async function pollsWaiting(n: number, over = () => false) {
	while (!over()) {
		const { text } = await f.t.ctx.metrics.render()
		if (text.includes(`\nubg_bot_api_long_polls ${n}\n`)) return true
		await Bun.sleep(5)
	}
	return false
}

/**
 * A 50 s long poll of `tok`, once it waits on the server, as `{ poll }`. No other poll is left
 * waiting first (a library's stopped poll of an earlier test), so the gauge's 1 is this one. An
 * update that came after `drained`, or a write of the userbot's with none for this token, answers
 * the poll early: what it got is confirmed and the poll made again, so the caller's revocation
 * meets a poll that waits.
 */
async function waitingPoll(tok: string) {
	await drained(tok)
	await pollsWaiting(0)
	for (;;) {
		let answered = false
		const poll = call('getUpdates', { query: 'timeout=50' }, tok).finally(() => {
			answered = true
		})
		if (await pollsWaiting(1, () => answered)) return { poll }
		// Answered early: an update, or a write of the userbot's that held none for this token.
		const last = ((await poll).body.result as Array<{ update_id: number }> | undefined)?.at(-1)
		if (last) await call('getUpdates', json({ offset: last.update_id + 1, limit: 1 }), tok)
	}
}

describe('the face', () => {
	it('getMe answers the account as a Bot API User, is_bot false', async () => {
		const { status, body } = await call('getMe')
		expect(status).toBe(200)
		expect(body).toEqual({ ok: true, result: expect.objectContaining({ id: BOB, is_bot: false }) })
		expect(typeof (body.result as { first_name: unknown }).first_name).toBe('string')
		expect(token.startsWith(`${BOB}:`)).toBe(true)
	})

	it('refuses a bad token as Telegram does: 401 Unauthorized, nothing echoed', async () => {
		const wrongId = token.replace(/^\d+:/, `${ALICE}:`)
		for (const tok of [wrongId, `${BOB}:ubg_${'x'.repeat(43)}`, '123:abc']) {
			const { status, body } = await call('getMe', {}, tok)
			expect(status).toBe(401)
			expect(body).toEqual({ ok: false, error_code: 401, description: 'Unauthorized' })
		}
	})

	it('answers a path whose token has no token shape 404 Not Found, as Telegram does', async () => {
		for (const tok of [token.replace(/^\d+:/, ''), '1', `${BOB}:a b`]) {
			const { status, body } = await call('getMe', {}, tok)
			expect(status).toBe(404)
			expect(body).toEqual({ ok: false, error_code: 404, description: 'Not Found' })
		}
	})

	it('answers an unknown method 404 and a bot-only method 400 saying so', async () => {
		expect(await call('noSuchMethod')).toEqual({
			status: 404,
			body: { ok: false, error_code: 404, description: 'Not Found: method not found' },
		})
		for (const m of [
			'answerCallbackQuery',
			'setMyCommands',
			'editMessageReplyMarkup',
			'getBusinessConnection',
		])
			expect(await call(m, json({}))).toEqual({
				status: 400,
				body: {
					ok: false,
					error_code: 400,
					description: 'Bad Request: the method is available only for bots',
				},
			})
	})

	it('sendMessage takes the query string, JSON and form-urlencoded, with message ids as the server has them', async () => {
		const byQuery = await call('sendMessage', { query: `chat_id=${ALICE}&text=by+query` })
		const byJson = await call('sendMessage', json({ chat_id: ALICE, text: 'by json' }))
		const byForm = await call('sendMessage', {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: `chat_id=${ALICE}&text=by%20form`,
		})
		for (const [res, text] of [
			[byQuery, 'by query'],
			[byJson, 'by json'],
			[byForm, 'by form'],
		] as const) {
			expect(res.status).toBe(200)
			const m = res.body.result as { message_id: number; chat: { id: number; type: string }; text: string }
			expect(m).toMatchObject({
				chat: { id: ALICE, type: 'private' },
				text,
				from: { id: BOB, is_bot: false },
			})
			expect(Number.isSafeInteger(m.message_id) && m.message_id > 0 && m.message_id < 2 ** 20).toBe(true)
		}
	})

	it('replies, edits and deletes by Bot API message id, on the same commands', async () => {
		const first = await call('sendMessage', json({ chat_id: ALICE, text: 'first' }))
		const id = (first.body.result as { message_id: number }).message_id
		const reply = await call(
			'sendMessage',
			json({ chat_id: ALICE, text: 'reply', reply_parameters: { message_id: id } }),
		)
		expect(reply.status).toBe(200)
		const edited = await call(
			'editMessageText',
			json({ chat_id: ALICE, message_id: id, text: 'first, edited' }),
		)
		expect(edited).toMatchObject({
			status: 200,
			body: { ok: true, result: { message_id: id, text: 'first, edited' } },
		})
		expect(await call('deleteMessage', json({ chat_id: ALICE, message_id: id }))).toEqual({
			status: 200,
			body: { ok: true, result: true },
		})
	})

	it("words TDLib's and the fields' errors as the Bot API does, never echoing a value", async () => {
		expect(await call('getChat', json({ chat_id: 4242424242 }))).toEqual({
			status: 400,
			body: { ok: false, error_code: 400, description: 'Bad Request: chat not found' },
		})
		expect((await call('sendMessage', json({ chat_id: ALICE }))).body.description).toBe(
			'Bad Request: message text is empty',
		)
		const bad = await call('sendMessage', json({ chat_id: 'secret-xyz', text: 'x' }))
		expect(bad).toEqual({
			status: 400,
			body: { ok: false, error_code: 400, description: 'Bad Request: invalid chat_id specified' },
		})
		expect(JSON.stringify(bad)).not.toContain('secret-xyz')
	})

	it('getChat answers a Bot API Chat', async () => {
		const { body } = await call('getChat', { query: `chat_id=${ALICE}` })
		expect(body).toEqual({ ok: true, result: expect.objectContaining({ id: ALICE, type: 'private' }) })
	})

	it('a token reaches its own userbot only: the other company’s token speaks as its own account', async () => {
		const { body } = await call('getMe', {}, other)
		expect(body).toMatchObject({ ok: true, result: { id: ALICE } })
	})
})

describe('the token as a key', () => {
	it("keeps the key's scopes: a read_only token reads, and its sendMessage is refused by the command's policy", async () => {
		const { bot_token } = await made(f.alice.access, f.userbotId, { read_only: true })
		expect((await call('getMe', {}, bot_token)).status).toBe(200)
		expect(await call('sendMessage', json({ chat_id: ALICE, text: 'no' }), bot_token)).toEqual({
			status: 403,
			body: { ok: false, error_code: 403, description: 'Forbidden: permission denied' },
		})
	})

	it("keeps the key's groups: a token of the chats group reads a chat, and its sendMessage is refused", async () => {
		const { bot_token } = await made(f.alice.access, f.userbotId, { groups: ['commands-chats'] })
		expect((await call('getChat', json({ chat_id: ALICE }), bot_token)).status).toBe(200)
		expect(await call('sendMessage', json({ chat_id: ALICE, text: 'no' }), bot_token)).toEqual({
			status: 403,
			body: { ok: false, error_code: 403, description: 'Forbidden: permission denied' },
		})
	})

	it('is 401 Unauthorized once its expiry passed, though memory vouched for it a moment before', async () => {
		const expires = Date.now() + 2000
		const key = await made(f.alice.access, f.userbotId, { expires_at: new Date(expires).toISOString() })
		expect((await call('getMe', {}, key.bot_token)).status).toBe(200)
		// The expiry is a moment on the clock: wait until it has passed.
		await Bun.sleep(Math.max(0, expires - Date.now()) + 50)
		expect((await call('getMe', {}, key.bot_token)).body).toEqual({
			ok: false,
			error_code: 401,
			description: 'Unauthorized',
		})
	})

	it('is 401 Unauthorized at its next request once revoked', async () => {
		const key = await made(f.alice.access, f.userbotId)
		expect((await call('getMe', {}, key.bot_token)).status).toBe(200)
		const res = await fetch(`${f.t.url}/api/keys/${key.id}/`, {
			method: 'DELETE',
			headers: { authorization: `Bearer ${f.alice.access}` },
		})
		expect(res.status).toBe(204)
		expect((await call('getMe', {}, key.bot_token)).body).toEqual({
			ok: false,
			error_code: 401,
			description: 'Unauthorized',
		})
	})

	it('ends a long poll already waiting once its key is revoked: 401 Unauthorized at once', async () => {
		const key = await made(f.alice.access, f.userbotId)
		const { poll } = await waitingPoll(key.bot_token)
		const res = await fetch(`${f.t.url}/api/keys/${key.id}/`, {
			method: 'DELETE',
			headers: { authorization: `Bearer ${f.alice.access}` },
		})
		expect(res.status).toBe(204)
		// Answered well inside the poll's 50 s (and the test's 5 s), nothing handed out.
		expect((await poll).body).toEqual({ ok: false, error_code: 401, description: 'Unauthorized' })
		await pollsWaiting(0)
	})

	it("ends a waiting long poll with no updates when its owner's profile changes; the next poll is admitted again", async () => {
		const key = await made(f.alice.access, f.userbotId)
		const { poll } = await waitingPoll(key.bot_token)
		// What a change of the owner's profile announces (a grant changed, a member moved).
		f.t.ctx.auth.invalidateUser(f.alice.userId)
		expect((await poll).body).toEqual({ ok: true, result: [] })
		expect((await call('getUpdates', {}, key.bot_token)).status).toBe(200)
	})

	it('the access line names the route pattern and the key, never the token', async () => {
		const key = await made(f.alice.access, f.userbotId)
		expect((await call('getMe', {}, key.bot_token)).status).toBe(200)
		const credential = `key:${key.id}`
		let line: Record<string, unknown> | undefined
		const until = Date.now() + 5000
		while (!line && Date.now() < until) {
			line = lines
				.map((l) => JSON.parse(l) as Record<string, unknown>)
				.find((l) => l.credential === credential && l.msg === 'http')
			if (!line) await Bun.sleep(5)
		}
		expect(line).toMatchObject({ method: 'GET', route: '/bot:token/:method', status: 200 })
		expect(lines.join('\n')).not.toContain(key.key)
	})
})

describe('getUpdates', () => {
	it("hands out another account's messages as Updates, numbered, confirmed by offset; not the userbot's own sends", async () => {
		await call('sendMessage', json({ chat_id: ALICE, text: 'sent here, not an update' }))
		for (const text of ['one', 'two'])
			await aliceWs.command({ action: 'send_message', userbot_id: alice, chat_id: BOB, text })
		type U = { update_id: number; message: { text: string; chat: { id: number }; from: { id: number } } }
		let updates: U[] = []
		const until = Date.now() + 10_000
		while (updates.length < 2 && Date.now() < until)
			updates = (await call('getUpdates', { query: 'timeout=1' })).body.result as U[]
		expect(updates.map((u) => u.message.text)).toEqual(['one', 'two'])
		expect(updates[0]?.message).toMatchObject({ chat: { id: ALICE, type: 'private' }, from: { id: ALICE } })
		const [first, second] = updates as [U, U]
		expect(second.update_id).toBeGreaterThan(first.update_id)
		const after = (await call('getUpdates', json({ offset: second.update_id }))).body.result as U[]
		expect(after.map((u) => u.update_id)).toEqual([second.update_id])
		const none = await call('getUpdates', json({ offset: second.update_id + 1 }))
		expect(none.body).toEqual({ ok: true, result: [] })
	})
})

describe('grammY, unchanged, pointed at the server', () => {
	it('getMe and sendMessage through Bot.api', async () => {
		const bot = new Bot(token, { client: { apiRoot: f.t.url } })
		const me = await bot.api.getMe()
		expect(me).toMatchObject({ id: BOB, is_bot: false })
		const sent = await bot.api.sendMessage(ALICE, 'hello from grammY')
		expect(sent).toMatchObject({ chat: { id: ALICE }, text: 'hello from grammY' })
	})

	it('receives what Alice writes through bot.start() long polling, and answers it (an echo bot)', async () => {
		const bot = new Bot(token, { client: { apiRoot: f.t.url } })
		const heard: string[] = []
		bot.on('message:text', async (ctx) => {
			heard.push(ctx.message.text)
			await ctx.reply(`echo: ${ctx.message.text}`)
		})
		let started!: () => void
		const ready = new Promise<void>((r) => {
			started = r
		})
		const running = bot.start({ timeout: 2, onStart: () => started() })
		await ready
		const sent = await aliceWs.command({
			action: 'send_message',
			userbot_id: alice,
			chat_id: BOB,
			text: 'hi grammY',
		})
		expect(sent.payload.type).toBe('send_message')
		const until = Date.now() + 15_000
		while (heard.length === 0 && Date.now() < until) await Bun.sleep(20)
		await bot.stop()
		await running
		expect(heard).toEqual(['hi grammY'])
		const history = await aliceWs.command({
			action: 'get_chat_history',
			userbot_id: alice,
			chat_id: BOB,
			limit: 5,
		})
		const texts = JSON.stringify(history.payload.result)
		expect(texts).toContain('echo: hi grammY')
	})
})

// Last: it revokes the first company's owner, whose credentials the tests above use.
describe('a revocation naming the owner', () => {
	it('ends a waiting long poll at once with no updates; the next poll is the policy’s answer, 401', async () => {
		const key = await made(f.alice.access, f.userbotId)
		const { poll } = await waitingPoll(key.bot_token)
		// What a password reset or a removal from the company announces.
		f.t.ctx.auth.invalidateUser(f.alice.userId, true)
		expect((await poll).body).toEqual({ ok: true, result: [] })
		expect((await call('getUpdates', {}, key.bot_token)).body).toEqual({
			ok: false,
			error_code: 401,
			description: 'Unauthorized',
		})
	})
})
