import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { Webhook } from 'standardwebhooks'
import { createMessagingFixture, type MessagingFixture } from '../helpers-ws'
import { HOOK_ENV, type Receiver, startReceiver } from '../plugins/webhooks/receiver'
import { ALICE_CHAT, call, isStatus, PHONE } from './account-status'

describe('account health: revoked through the emulator, and logged in again', () => {
	let f: MessagingFixture
	let rx: Receiver
	beforeAll(async () => {
		f = await createMessagingFixture({ EMULATOR_CONTROL: 'true', ...HOOK_ENV })
		rx = startReceiver()
	})
	afterAll(async () => {
		rx.stop()
		await f.stop()
	})

	/** Logs the userbot in through the REST steps. */
	const logIn = async (id: number) => {
		const phone = await call(f, 'POST', `/api/userbots/${id}/phone/`, { phone_number: PHONE })
		expect(phone.status).toBe(200)
		const code = await call(f, 'POST', `/api/userbots/${id}/code/`, { code: PHONE.charAt(5).repeat(5) })
		expect(code.status).toBe(200)
	}

	it('a revoked session turns the userbot `revoked` with an event; logging in again keeps its id', async () => {
		// Its own account (the fixture's userbot is another company's account number): made and logged in by REST.
		await call(f, 'DELETE', `/api/userbots/${f.userbotId}/`)
		const created = (await (await call(f, 'POST', '/api/userbots/', { name: 'health' })).json()) as {
			id: number
		}
		const id = created.id
		const hook = await call(f, 'POST', '/api/webhooks/', { url: rx.url, events: ['userbot.status'] })
		expect(hook.status).toBe(201)
		const { secret } = (await hook.json()) as { secret: string }
		await logIn(id)
		const ws = await f.connect()
		const sub = await ws.command({ action: 'subscribe', userbot_id: id, updates: ['updateNewMessage'] })
		expect(sub.payload.type).toBe('subscribe')
		const lastSeq = (sub.payload.result as { last_seq: number }).last_seq
		const before = (await (await call(f, 'GET', `/api/userbots/${id}/`)).json()) as { status: string }
		expect(before.status).toBe('active')

		const res = await call(f, 'POST', '/api/emulator/revoke/', { phone_number: PHONE })
		expect(res.status).toBe(200)
		// To the company's sockets (the subscriber's among them), once stored...
		const pushed = await ws.take(isStatus('revoked'))
		expect(pushed).toEqual({
			type: 'chat_update',
			userbot_id: id,
			payload: { userbot_id: id, type: 'userbot_status', result: { status: 'revoked' } },
		})
		// ...and to the endpoint that asked for `userbot.status`, signed like every webhook.
		await rx.until((r) => r.some((x) => x.json.type === 'userbot.status'))
		const got = rx.received.find((x) => x.json.type === 'userbot.status')!
		const body = new Webhook(secret).verify(got.body, got.headers) as { data: Record<string, unknown> }
		expect(body.data).toMatchObject({ userbot_id: id, status: 'revoked' })
		// An event about the account, not a TDLib update: it carries the last number the userbot's
		// stream gave out, and nothing numbered reached the subscriber but TDLib's updates.
		expect(body.data.seq).toBeGreaterThanOrEqual(lastSeq)
		const numbered = ws.received.filter((m) => 'seq' in m) as unknown as Array<{ type: string }>
		expect(numbered.every((m) => m.type === 'update' || m.type === 'resync')).toBe(true)
		const after = (await (await call(f, 'GET', `/api/userbots/${id}/`)).json()) as {
			id: number
			status: string
			authorization_state: string
		}
		expect(after).toMatchObject({ id, status: 'revoked' })

		// The same REST steps log it in again; the id is the same one.
		await logIn(id)
		await ws.take(isStatus('active'))
		const again = (await (await call(f, 'GET', `/api/userbots/${id}/`)).json()) as Record<string, unknown>
		expect(again).toMatchObject({ id, status: 'active', authorization_state: 'authorizationStateReady' })
		const sent = await ws.command({
			action: 'send_message',
			userbot_id: id,
			chat_id: ALICE_CHAT,
			text: 'back',
		})
		expect(sent.payload.type).toBe('send_message')
	})

	it('a phone number of no userbot of the caller is 404', async () => {
		const res = await call(f, 'POST', '/api/emulator/limit/', { phone_number: '9996611111' })
		expect(res.status).toBe(404)
	})
})

describe('account health: limited and banned', () => {
	let f: MessagingFixture
	beforeAll(async () => {
		f = await createMessagingFixture({ EMULATOR_CONTROL: 'true' })
	})
	afterAll(() => f.stop())

	it('PEER_FLOOD marks the account limited; a ban stops it for good', async () => {
		const ws = await f.connect()
		await ws.command({ action: 'subscribe', userbot_id: f.userbotId })
		expect((await call(f, 'POST', '/api/emulator/limit/', { phone_number: PHONE })).status).toBe(200)
		const refused = await ws.command({
			action: 'send_message',
			userbot_id: f.userbotId,
			chat_id: ALICE_CHAT,
			text: 'x',
		})
		expect(refused.payload).toMatchObject({ type: 'send_message_error', error: 'PEER_FLOOD' })
		await ws.take(isStatus('limited'))

		expect((await call(f, 'POST', '/api/emulator/ban/', { phone_number: PHONE })).status).toBe(200)
		await ws.take(isStatus('banned'))
		const view = (await (await call(f, 'GET', `/api/userbots/${f.userbotId}/`)).json()) as { status: string }
		expect(view.status).toBe('banned')
		// Not started again: its client is gone and stays gone.
		const after = await ws.command({
			action: 'send_message',
			userbot_id: f.userbotId,
			chat_id: ALICE_CHAT,
			text: 'y',
		})
		expect(after.payload.type).toBe('send_message_error')
		await expect(f.t.ctx.runtime!.startClient(f.userbotId, { encryptionKey: 'a2V5' })).rejects.toThrow(
			'banned',
		)
	})
})

describe('emulator controls are off by default', () => {
	let f: MessagingFixture
	beforeAll(async () => {
		f = await createMessagingFixture()
	})
	afterAll(() => f.stop())

	it('answers 404 without EMULATOR_CONTROL', async () => {
		expect((await call(f, 'POST', '/api/emulator/revoke/', { phone_number: PHONE })).status).toBe(404)
	})
})
