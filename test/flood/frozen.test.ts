import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { Webhook } from 'standardwebhooks'
import { createMessagingFixture, type MessagingFixture } from '../helpers-ws'
import { HOOK_ENV, type Receiver, startReceiver } from '../plugins/webhooks/receiver'
import { ALICE_CHAT, call, isStatus, PHONE } from './account-status'

describe('account health: frozen', () => {
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

	it('a frozen account shows `frozen` (event, webhook, GET); acting on others answers FROZEN_METHOD_INVALID', async () => {
		const hook = await call(f, 'POST', '/api/webhooks/', { url: rx.url, events: ['userbot.status'] })
		expect(hook.status).toBe(201)
		const { secret } = (await hook.json()) as { secret: string }
		const ws = await f.connect()
		await ws.command({ action: 'subscribe', userbot_id: f.userbotId })

		const res = await call(f, 'POST', '/api/emulator/freeze/', { phone_number: PHONE })
		expect(res.status).toBe(200)
		// Told by TDLib's `updateFreezeState`, before any request fails.
		expect(await ws.take(isStatus('frozen'))).toEqual({
			type: 'chat_update',
			userbot_id: f.userbotId,
			payload: { userbot_id: f.userbotId, type: 'userbot_status', result: { status: 'frozen' } },
		})
		await rx.until((r) => r.some((x) => x.json.type === 'userbot.status'))
		const got = rx.received.find((x) => x.json.type === 'userbot.status')!
		const body = new Webhook(secret).verify(got.body, got.headers) as { data: Record<string, unknown> }
		expect(body.data).toMatchObject({ userbot_id: f.userbotId, status: 'frozen' })
		const view = (await (await call(f, 'GET', `/api/userbots/${f.userbotId}/`)).json()) as { status: string }
		expect(view.status).toBe('frozen')

		// Sending and joining are refused with Telegram's word; reading its own chats still works.
		const sent = await ws.command({
			action: 'send_message',
			userbot_id: f.userbotId,
			chat_id: ALICE_CHAT,
			text: 'x',
		})
		expect(sent.payload).toMatchObject({ type: 'send_message_error', error: 'FROZEN_METHOD_INVALID' })
		const chats = await ws.command({ action: 'get_chats', userbot_id: f.userbotId, limit: 10 })
		expect(chats.payload.type).toBe('get_chats')
		// One change, told once.
		expect(ws.received.filter(isStatus('frozen'))).toHaveLength(1)
	})
})

describe('frozen, in the process that runs the account', () => {
	it('a client started again stays frozen until TDLib says the freeze ended', async () => {
		const { harness } = await import('./harness')
		const { emulatorRequest } = await import('../../src/emulator')
		const h = await harness({
			governor: null,
			emulator: { limits: {}, delaySeconds: 2 },
			users: [[1, PHONE]],
		})
		const told = () =>
			h.events.flatMap((e) => (e.type === 'userbot_status' && e.userbotId === 1 ? [e.status] : []))
		try {
			await h.rt.invoke(1, emulatorRequest({ _: 'emulatorFreeze' } as never))
			await h.settle()
			expect(told().at(-1)).toBe('frozen')
			// Its client restarts (a hang, a child that died): restarting, then ready again; still frozen.
			h.emit({ type: 'runtime_down', userbotIds: [1] })
			h.emit({ type: 'authorization_state', userbotId: 1, state: 'authorizationStateReady' })
			expect(told().slice(-2)).toEqual(['restarting', 'frozen'])
			h.emit({
				type: 'update',
				userbotId: 1,
				update: {
					_: 'updateFreezeState',
					is_frozen: false,
					freezing_date: 0,
					deletion_date: 0,
					appeal_link: '',
				},
			})
			expect(told().at(-1)).toBe('active')
		} finally {
			h.close()
		}
	})
})
