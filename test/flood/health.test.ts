import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { type ChatUpdate, createMessagingFixture, type MessagingFixture } from '../helpers-ws'

const PHONE = '9996621234'
/** Bob's private chat with Alice (the emulator's seed). */
const ALICE_CHAT = 1001

const call = (f: MessagingFixture, method: string, path: string, body?: unknown) =>
	fetch(`${f.t.url}${path}`, {
		method,
		headers: { authorization: `Bearer ${f.alice.access}`, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	})

type StatusEvent = { type: string; userbot_id: number; seq: number; status: string }
const isStatus = (status: string) => (m: ChatUpdate) =>
	(m as unknown as StatusEvent).type === 'userbot_status' && (m as unknown as StatusEvent).status === status

describe('account health: revoked through the emulator, and logged in again', () => {
	let f: MessagingFixture
	beforeAll(async () => {
		f = await createMessagingFixture({ EMULATOR_CONTROL: 'true' })
	})
	afterAll(() => f.stop())

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
		await logIn(id)
		const ws = await f.connect()
		const sub = await ws.command({ action: 'subscribe', userbot_id: id, updates: ['updateNewMessage'] })
		expect(sub.payload.type).toBe('subscribe')
		const before = (await (await call(f, 'GET', `/api/userbots/${id}/`)).json()) as { status: string }
		expect(before.status).toBe('active')

		const res = await call(f, 'POST', '/api/emulator/revoke/', { phone_number: PHONE })
		expect(res.status).toBe(200)
		// To the subscriber, numbered in the userbot's stream (whatever kinds it chose)...
		const event = (await ws.take(isStatus('revoked'))) as unknown as StatusEvent
		expect(event).toMatchObject({ userbot_id: id, seq: expect.any(Number) })
		// ...and to the company's sockets, once stored.
		const pushed = await ws.take((m) => m.payload?.type === 'userbot_status')
		expect(pushed.payload.result).toEqual({ status: 'revoked' })
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
