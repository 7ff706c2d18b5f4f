import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { Bot, webhookCallback } from 'grammy'
import { botApiToken } from '../../../plugins/bot-api/tables'
import type { MessagingFixture, WsClient } from '../../helpers-ws'
import { BOB, createBotFixture, madeToken, post } from './support'

/**
 * setWebhook through the durable webhooks (docs/bot-api.md#webhooks): the endpoint is the key's,
 * of its one userbot; the body is the Bot API `Update`, with `X-Telegram-Bot-Api-Secret-Token`.
 * grammY's `webhookCallback` in a server on 127.0.0.1 answers Alice; a wrong secret is refused by
 * grammY and getWebhookInfo says so. Bob (1002) is the token's userbot; Alice (1001) writes to him.
 */
let f: MessagingFixture
let alice: number
let aliceWs: WsClient
let token: string
beforeAll(async () => {
	;({ f, token, alice, aliceWs } = await createBotFixture({
		env: {
			WEBHOOK_ALLOW_HTTP: 'true',
			WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
			WEBHOOK_RETRY_BASE: '1',
			WEBHOOK_RETRY_CAP: '4',
			WEBHOOK_POLL: '20',
		},
		alice: true,
	}))
})
afterAll(() => f.stop())

const call = (method: string, body: Record<string, unknown> = {}) => post(f, token, method, body)
const aliceWrites = (text: string) =>
	aliceWs.command({ action: 'send_message', userbot_id: alice, chat_id: BOB, text, wait_sent: true })

/** Waits for `ready` (a condition of what has come), each look a turn apart, at most 10 s. */
async function until(ready: () => boolean | Promise<boolean>) {
	const end = Date.now() + 10_000
	while (!(await ready()) && Date.now() < end) await Bun.sleep(10)
	return ready()
}

describe('setWebhook', () => {
	it('delivers the Bot API Update as the body, with the secret token header; getUpdates is 409 meanwhile', async () => {
		const got: Array<{ secret: string | null; body: Record<string, unknown> }> = []
		const server = Bun.serve({
			hostname: '127.0.0.1',
			port: 0,
			async fetch(req) {
				got.push({ secret: req.headers.get('x-telegram-bot-api-secret-token'), body: await req.json() })
				return new Response('ok')
			},
		})
		try {
			const url = `http://127.0.0.1:${server.port}/hook`
			expect(await call('setWebhook', { url, secret_token: 'Se_cret-1' })).toEqual({
				status: 200,
				body: { ok: true, result: true },
			})
			// Refused with nothing kept: the token's getUpdates settings stay as they were.
			const settings = async () =>
				(await f.t.ctx.db.select({ s: botApiToken.settings }).from(botApiToken)).map((r) => r.s)
			const before = await settings()
			const refusedPoll = await call('getUpdates', {
				allowed_updates: ['chat_member'],
				include_own_sends: true,
			})
			expect(refusedPoll.status).toBe(409)
			expect(await settings()).toEqual(before)
			expect(await call('getUpdates')).toEqual({
				status: 409,
				body: {
					ok: false,
					error_code: 409,
					description:
						"Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
				},
			})
			await aliceWrites('to the hook')
			expect(await until(() => got.length > 0)).toBe(true)
			expect(got[0]?.secret).toBe('Se_cret-1')
			expect(Object.keys(got[0]?.body ?? {}).sort()).toEqual(['message', 'update_id'])
			expect(got[0]?.body.message).toMatchObject({ text: 'to the hook', chat: { id: 1001 } })
			// The delivery is written delivered once the answer is read: pending until then.
			const settled = async () =>
				((await call('getWebhookInfo')).body.result as { pending_update_count: number })
					.pending_update_count === 0
			expect(await until(settled)).toBe(true)
			expect((await call('getWebhookInfo')).body.result).toMatchObject({
				url,
				has_custom_certificate: false,
				pending_update_count: 0,
				allowed_updates: [
					'message',
					'edited_message',
					'channel_post',
					'edited_channel_post',
					'my_chat_member',
					'chat_join_request',
				],
			})
			// The endpoint is the key's company's, of the key's one userbot, as any endpoint is.
			const listed = (await (
				await fetch(`${f.t.url}/api/webhooks/`, { headers: { authorization: `Bearer ${f.alice.access}` } })
			).json()) as Array<{ url: string; userbot_ids: number[] | null }>
			expect(listed.find((e) => e.url === url)?.userbot_ids).toEqual([f.userbotId])
			expect(await call('deleteWebhook')).toEqual({ status: 200, body: { ok: true, result: true } })
			expect((await call('getWebhookInfo')).body.result).toEqual({
				url: '',
				has_custom_certificate: false,
				pending_update_count: 0,
			})
			expect((await call('getUpdates')).status).toBe(200)
		} finally {
			server.stop(true)
		}
	}, 20_000)

	it("refuses to rotate the token endpoint's secret through /api/webhooks/ (409): its bot's secret token stays", async () => {
		const got: Array<string | null> = []
		const server = Bun.serve({
			hostname: '127.0.0.1',
			port: 0,
			fetch(req) {
				got.push(req.headers.get('x-telegram-bot-api-secret-token'))
				return new Response('ok')
			},
		})
		const owner = { authorization: `Bearer ${f.alice.access}` }
		try {
			const url = `http://127.0.0.1:${server.port}/rotated`
			expect((await call('setWebhook', { url, secret_token: 'Kept_1' })).body).toEqual({
				ok: true,
				result: true,
			})
			const listed = (await (await fetch(`${f.t.url}/api/webhooks/`, { headers: owner })).json()) as Array<{
				id: number
				url: string
			}>
			const id = listed.find((e) => e.url === url)?.id
			expect(typeof id).toBe('number')
			const rotate = await fetch(`${f.t.url}/api/webhooks/${id}/rotate-secret/`, {
				method: 'POST',
				headers: owner,
			})
			expect(rotate.status).toBe(409)
			expect(await rotate.json()).toEqual({
				detail:
					"This endpoint is a Bot API token's webhook: its secret is the token's secret_token. Call setWebhook again with a new secret_token.",
				code: 'bot_api_webhook',
			})
			// Nothing changed: the next delivery carries the bot's own secret token.
			await aliceWrites('after the rotation')
			expect(await until(() => got.length > 0)).toBe(true)
			expect(got[0]).toBe('Kept_1')
			expect((await call('getWebhookInfo')).body.result).toMatchObject({ url })
		} finally {
			expect((await call('deleteWebhook')).body).toEqual({ ok: true, result: true })
			server.stop(true)
		}
	}, 20_000)

	it("keeps to the token's allowed_updates, retries a failed delivery, and replays the same Update", async () => {
		const got: Array<{ secret: string | null; body: string }> = []
		const server = Bun.serve({
			hostname: '127.0.0.1',
			port: 0,
			async fetch(req) {
				got.push({ secret: req.headers.get('x-telegram-bot-api-secret-token'), body: await req.text() })
				// The first attempt fails: the outbox tries again after its backoff.
				return new Response(got.length === 1 ? 'down' : 'ok', { status: got.length === 1 ? 500 : 200 })
			},
		})
		const owner = { authorization: `Bearer ${f.alice.access}`, 'content-type': 'application/json' }
		const own = (await madeToken(f, f.alice.access, f.userbotId)).bot_token
		const mine = (method: string, body: Record<string, unknown> = {}) => post(f, own, method, body)
		try {
			const url = `http://127.0.0.1:${server.port}/edits`
			const set = { url, secret_token: 'Edits_1', allowed_updates: ['edited_message'] }
			expect((await mine('setWebhook', set)).body).toEqual({ ok: true, result: true })
			const sent = await aliceWrites('first words')
			const id = (sent.payload.result as { id: number }).id
			const edit = {
				action: 'edit_message',
				userbot_id: alice,
				chat_id: BOB,
				message_id: id,
				text: 'new words',
			}
			expect((await aliceWs.command(edit)).payload.type).toBe('edit_message')
			// The message itself is not among the token's allowed_updates: the edit alone comes, twice.
			expect(await until(() => got.length >= 2)).toBe(true)
			const [failed, retried] = got as [(typeof got)[0], (typeof got)[0]]
			expect(retried).toEqual(failed)
			const update = JSON.parse(retried.body) as Record<string, Record<string, unknown>>
			expect(Object.keys(update).sort()).toEqual(['edited_message', 'update_id'])
			expect(update.edited_message).toMatchObject({ text: 'new words', chat: { id: 1001 } })
			expect(retried.secret).toBe('Edits_1')
			// Replay: the stored Update again, its secret header as before.
			const listed = (await (await fetch(`${f.t.url}/api/webhooks/`, { headers: owner })).json()) as Array<{
				id: number
				url: string
			}>
			const endpoint = listed.find((e) => e.url === url)?.id
			const replay = await fetch(`${f.t.url}/api/webhooks/${endpoint}/replay/`, {
				method: 'POST',
				headers: owner,
				body: JSON.stringify({ after_seq: 0, userbot_id: f.userbotId }),
			})
			expect(replay.status).toBe(202)
			expect(await replay.json()).toEqual({ replayed: 1, truncated: false })
			expect(await until(() => got.length >= 3)).toBe(true)
			expect(got[2]).toEqual(retried)
		} finally {
			expect((await mine('deleteWebhook')).body).toEqual({ ok: true, result: true })
			server.stop(true)
		}
	}, 20_000)

	it('refuses a URL the address policy refuses and a secret token of other characters, echoing neither', async () => {
		const bad = await call('setWebhook', { url: 'ftp://hook.example/x' })
		expect(bad.status).toBe(400)
		expect(String(bad.body.description)).toStartWith('Bad Request: bad webhook: ')
		expect(JSON.stringify(bad)).not.toContain('hook.example')
		expect(
			(await call('setWebhook', { url: 'http://127.0.0.1:9/x', secret_token: 'no spaces' })).body,
		).toEqual({
			ok: false,
			error_code: 400,
			description: 'Bad Request: secret token contains unallowed characters or is too long',
		})
	})
})

describe('grammY in webhook mode', () => {
	it("webhookCallback(bot, 'std/http', {secretToken}) answers Alice; a wrong secret is refused by grammY", async () => {
		const bot = new Bot(token, { client: { apiRoot: f.t.url } })
		const heard: string[] = []
		bot.on('message:text', async (ctx) => {
			heard.push(ctx.message.text)
			await ctx.reply(`hook echo: ${ctx.message.text}`)
		})
		const handle = webhookCallback(bot, 'std/http', { secretToken: 'grammy_secret' })
		const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (req) => handle(req) })
		try {
			const url = `http://127.0.0.1:${server.port}/grammy`
			expect(await bot.api.setWebhook(url, { secret_token: 'grammy_secret' })).toBe(true)
			await aliceWrites('hi hook')
			expect(await until(() => heard.length > 0)).toBe(true)
			expect(heard).toEqual(['hi hook'])
			const replied = async () => {
				const history = await aliceWs.command({
					action: 'get_chat_history',
					userbot_id: alice,
					chat_id: BOB,
					limit: 5,
				})
				return JSON.stringify(history.payload.result).includes('hook echo: hi hook')
			}
			expect(await until(replied)).toBe(true)
			// The same server, told another secret: grammY refuses the request, the delivery fails.
			expect(await bot.api.setWebhook(url, { secret_token: 'not_the_secret' })).toBe(true)
			await aliceWrites('wrong secret')
			const failed = async () => Boolean((await bot.api.getWebhookInfo()).last_error_date)
			expect(await until(failed)).toBe(true)
			const info = await bot.api.getWebhookInfo()
			expect(info).toMatchObject({ url, last_error_message: 'Wrong response from the webhook: 401' })
			expect(info.pending_update_count).toBeGreaterThanOrEqual(1)
			expect(heard).toEqual(['hi hook'])
			await bot.api.deleteWebhook()
		} finally {
			server.stop(true)
		}
	}, 20_000)
})
