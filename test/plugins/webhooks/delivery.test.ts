import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { Webhook } from 'standardwebhooks'
import { KEY_ENDPOINT_ROTATE } from '../../../plugins/webhooks/endpoints'
import { webhookEndpoint } from '../../../plugins/webhooks/tables'
import { createLoggedInUserbot, createMessagingFixture, type MessagingFixture } from '../../helpers-ws'
import {
	call,
	HOOK_ENV,
	insertUserbot,
	publish,
	type Received,
	type Receiver,
	startReceiver,
	texts,
} from './receiver'

/**
 * Issue 26 end to end, on the emulator: a company's endpoint on a real receiver (127.0.0.1) gets its
 * userbots' events signed as Standard Webhooks, checked with the `standardwebhooks` package itself.
 * Userbot B is the fixture's (emulated Bob, of `alice`'s company); userbot A is emulated Alice, of
 * `mallory`'s company. Each test's endpoint has its own path on the receiver.
 */
const BOB = 1002
type Delivery = Record<string, unknown>

describe('webhook deliveries', () => {
	let f: MessagingFixture
	let rx: Receiver
	let a: number
	const owner = () => call(f.t, f.alice.access)

	beforeAll(async () => {
		f = await createMessagingFixture(HOOK_ENV)
		a = await createLoggedInUserbot(f.t, f.mallory.companyId, '9996611111')
		rx = startReceiver()
	})
	afterAll(async () => {
		rx.stop()
		await f.stop()
	})

	let paths = 0
	const create = async (body: Record<string, unknown>) => {
		const path = `/hook/${++paths}`
		const res = await owner()('POST', '/api/webhooks/', { url: `${rx.url}/${paths}`, ...body })
		expect(res.status).toBe(201)
		const hook = (await res.json()) as { id: number; secret: string; events: string[] }
		const got = () => rx.received.filter((r) => r.path === path)
		const until = (pred: (r: Received[]) => boolean) => rx.until(() => pred(got()))
		const deliveries = async () =>
			(await (await owner()('GET', `/api/webhooks/${hook.id}/deliveries/`)).json()) as Delivery[]
		return { ...hook, path, got, until, deliveries }
	}
	const remove = async (id: number) =>
		expect((await owner()('DELETE', `/api/webhooks/${id}/`)).status).toBe(204)

	it("delivers the updateNewMessage of what Alice's userbot writes to Bob's endpoint, signed", async () => {
		const hook = await create({ userbot_ids: [f.userbotId] })
		expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
		expect(hook.events).toEqual(f.t.config.updates.defaultKinds)
		const alice = await f.connect(f.mallory)
		const sent = await alice.command({
			action: 'send_message',
			userbot_id: a,
			chat_id: BOB,
			text: 'hi by webhook',
		})
		expect(sent.payload.type).toBe('send_message')
		await hook.until((r) => r.some((x) => x.json.type === 'updateNewMessage'))
		const got = hook.got().find((x) => x.json.type === 'updateNewMessage')!
		// The package's own verification: it throws on a bad signature, id or timestamp.
		const verified = new Webhook(hook.secret).verify(got.body, got.headers) as typeof got.json
		expect(verified.data.userbot_id).toBe(f.userbotId)
		expect(verified.data.seq).toBeGreaterThan(0)
		const update = verified.data.update as { message: { content: { text: { text: string } } } }
		expect(update.message.content.text.text).toBe('hi by webhook')
		expect(got.headers['webhook-id']).toMatch(/^msg_\d+$/)
		const stranger = new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`)
		expect(() => stranger.verify(got.body, got.headers)).toThrow()
		// The secret is stored sealed, never in clear, and never answered again.
		const [row] = await f.t.ctx.db.select().from(webhookEndpoint).where(eq(webhookEndpoint.id, hook.id))
		expect(row?.secret.startsWith('v1.')).toBe(true)
		expect(row?.secret).not.toContain(hook.secret.slice(6, 20))
		const shown = await (await owner()('GET', `/api/webhooks/${hook.id}/`)).text()
		expect(shown).not.toContain(hook.secret)
		expect(JSON.parse(shown)).toMatchObject({ id: hook.id, userbot_ids: [f.userbotId], enabled: true })
		await remove(hook.id)
	})

	it('retries 500, 500, then 200 with one webhook-id, and delivers the event once', async () => {
		const hook = await create({})
		const ub = await insertUserbot(f.t, f.alice.companyId)
		rx.script(
			hook.path,
			{ status: 500, body: 'x'.repeat(5000) },
			{ status: 500 },
			{ status: 200, body: 'ok' },
		)
		publish(f.t, ub, 'retried')
		await hook.until((r) => r.length >= 3)
		const ids = hook.got().map((x) => x.headers['webhook-id'])
		expect(ids).toEqual(Array(3).fill(ids[0]))
		for (const x of hook.got()) new Webhook(hook.secret).verify(x.body, x.headers)
		for (let i = 0; i < 200 && (await hook.deliveries())[0]?.status !== 'delivered'; i++) await Bun.sleep(10)
		const listed = await hook.deliveries()
		expect(listed.length).toBe(1)
		expect(listed[0]).toMatchObject({
			status: 'delivered',
			attempts: 3,
			last_response_code: 200,
			last_response_body: 'ok',
		})
		expect(hook.got().length).toBe(3)
		await remove(hook.id)
	})

	it('keeps at most 1 KiB of a response body', async () => {
		const hook = await create({})
		const ub = await insertUserbot(f.t, f.alice.companyId)
		rx.script(hook.path, { status: 500, body: 'y'.repeat(5000) }, 'hold')
		publish(f.t, ub, 'big')
		await hook.until((r) => r.length >= 2)
		const [d] = await hook.deliveries()
		expect(d).toMatchObject({ status: 'pending', attempts: 1, last_response_code: 500 })
		expect(d?.last_response_body).toBe('y'.repeat(1024))
		rx.releaseAll()
		await remove(hook.id)
	})

	it("holds a failing event's followers back for that userbot only, and keeps order", async () => {
		const hook = await create({})
		const one = await insertUserbot(f.t, f.alice.companyId)
		const two = await insertUserbot(f.t, f.alice.companyId)
		// The first request (one's first event) is held; two's events pass meanwhile.
		rx.script(hook.path, 'hold')
		publish(f.t, one, 'one-1')
		await hook.until((r) => r.length > 0)
		publish(f.t, one, 'one-2')
		publish(f.t, two, 'two-1')
		publish(f.t, two, 'two-2')
		await hook.until((r) => texts(r, two).length === 2)
		expect(texts(hook.got(), one)).toEqual(['one-1'])
		rx.releaseAll()
		await hook.until((r) => texts(r, one).length === 2)
		expect(texts(hook.got(), one)).toEqual(['one-1', 'one-2'])
		expect(texts(hook.got(), two)).toEqual(['two-1', 'two-2'])
		await remove(hook.id)
	})

	it('sends command.result for a command sent with "webhook": true, and userbot.state', async () => {
		const hook = await create({ events: ['command.result', 'userbot.state'] })
		const bob = await f.connect()
		await bob.command({
			action: 'userbot_get_state',
			userbot_id: f.userbotId,
			webhook: true,
			request_id: 'r-7',
		})
		await bob.command({ action: 'userbot_get_state', userbot_id: f.userbotId, request_id: 'r-8' })
		await hook.until((r) => r.some((x) => x.json.type === 'command.result'))
		const results = hook.got().filter((x) => x.json.type === 'command.result')
		expect(results.length).toBe(1)
		const body = new Webhook(hook.secret).verify(results[0]!.body, results[0]!.headers) as Received['json']
		expect(body.data).toMatchObject({
			userbot_id: f.userbotId,
			chat_update: {
				type: 'chat_update',
				userbot_id: f.userbotId,
				payload: { type: 'userbot_get_state', request_id: 'r-7' },
			},
		})
		const ub = await createLoggedInUserbot(f.t, f.alice.companyId, '9996614444')
		await hook.until((r) =>
			r.some(
				(x) =>
					x.json.type === 'userbot.state' &&
					x.json.data.userbot_id === ub &&
					x.json.data.authorization_state === 'authorizationStateReady',
			),
		)
		expect(hook.got().filter((x) => x.json.type === 'command.result').length).toBe(1)
		await remove(hook.id)
	}, 30_000)

	it('signs with the old secret beside the new one after a rotation', async () => {
		const hook = await create({})
		const res = await owner()('POST', `/api/webhooks/${hook.id}/rotate-secret/`)
		expect(res.status).toBe(200)
		const rotated = (await res.json()) as { secret: string; previous_secret_expires_at: string }
		expect(rotated.secret).not.toBe(hook.secret)
		expect(Date.parse(rotated.previous_secret_expires_at) - Date.now()).toBeGreaterThan(23 * 3600 * 1000)
		const ub = await insertUserbot(f.t, f.alice.companyId)
		publish(f.t, ub, 'rotated')
		await hook.until((r) => r.length > 0)
		const got = hook.got()[0]!
		expect(got.headers['webhook-signature']?.split(' ').map((s) => s.slice(0, 3))).toEqual(['v1,', 'v1,'])
		new Webhook(rotated.secret).verify(got.body, got.headers)
		new Webhook(hook.secret).verify(got.body, got.headers)
		await remove(hook.id)
	})

	it("refuses to rotate a key's endpoint (a Bot API token's webhook): 409, its secret unchanged", async () => {
		const hook = await create({})
		const made = await owner()('POST', '/api/keys/', { name: 'hook owner' })
		expect(made.status).toBe(201)
		const key = (await made.json()) as { id: number }
		const db = f.t.ctx.db
		const sealed = async () =>
			(await db.select().from(webhookEndpoint).where(eq(webhookEndpoint.id, hook.id)))[0]?.secret
		const before = await sealed()
		await db.update(webhookEndpoint).set({ keyId: key.id }).where(eq(webhookEndpoint.id, hook.id))
		const res = await owner()('POST', `/api/webhooks/${hook.id}/rotate-secret/`)
		expect(res.status).toBe(409)
		expect(await res.json()).toEqual({ detail: KEY_ENDPOINT_ROTATE, code: 'bot_api_webhook' })
		expect(await sealed()).toBe(before)
		await db.update(webhookEndpoint).set({ keyId: null }).where(eq(webhookEndpoint.id, hook.id))
		await remove(hook.id)
	})

	it('replays exactly the stored events after a seq, with their webhook-ids', async () => {
		const hook = await create({})
		const ub = await insertUserbot(f.t, f.alice.companyId)
		for (const n of [1, 2, 3, 4]) publish(f.t, ub, `r${n}`)
		await hook.until((r) => r.length === 4)
		const first = hook.got()
		const seqs = first.map((x) => x.json.data.seq)
		const res = await owner()('POST', `/api/webhooks/${hook.id}/replay/`, {
			after_seq: seqs[1],
			userbot_id: ub,
		})
		expect(res.status).toBe(202)
		expect(await res.json()).toEqual({ replayed: 2, truncated: false })
		await hook.until((r) => r.length >= 6)
		const again = hook.got().slice(4)
		expect(again.map((x) => x.json.data.seq)).toEqual(seqs.slice(2))
		expect(again.map((x) => x.headers['webhook-id'])).toEqual(
			first.slice(2).map((x) => x.headers['webhook-id']),
		)
		expect(again.map((x) => x.body)).toEqual(first.slice(2).map((x) => x.body))
		const test = await owner()('POST', `/api/webhooks/${hook.id}/test/`)
		expect(test.status).toBe(202)
		await hook.until((r) => r.some((x) => x.json.type === 'webhook.test'))
		expect(hook.got().length).toBe(7)
		await remove(hook.id)
	})
})
