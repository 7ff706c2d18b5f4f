import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import {
	type ChatUpdate,
	createLoggedInUserbot,
	createMessagingFixture,
	type MessagingFixture,
} from '../helpers-ws'

const BOB = '9996621234'
/** Bob's private chat with Alice, and Alice's with Bob (the emulator's seed). */
const BOB_TO_ALICE = 1001
const ALICE_TO_BOB = 1002

const statusOf = (userbotId: number, status?: string) => (m: ChatUpdate) =>
	m.payload?.type === 'userbot_status' &&
	m.userbot_id === userbotId &&
	(status === undefined || (m.payload.result as { status?: string } | undefined)?.status === status)

describe('self-healing: a TDLib client that stops answering (its process alive)', () => {
	let f: MessagingFixture
	beforeAll(async () => {
		// Probed every 50 ms; 3 s without an answer counts as hung (long enough that a loaded machine
		// never takes a healthy client for a hung one).
		f = await createMessagingFixture({
			EMULATOR_CONTROL: 'true',
			CLIENT_PROBE_INTERVAL: '50',
			CLIENT_PROBE_TIMEOUT: '3000',
		})
	})
	afterAll(() => f.stop())

	it('is restarted alone (restarting, then active); each command is answered once', async () => {
		const bob = f.userbotId
		const alice = await createLoggedInUserbot(f.t, f.alice.companyId, '9996611111')
		const pid = (f.t.ctx.runtime as unknown as { pid: number }).pid
		const ws = await f.connect()
		const commands: Array<Promise<ChatUpdate>> = []
		const send = (userbotId: number, chatId: number, text: string) => {
			const p = ws.command({ action: 'send_message', userbot_id: userbotId, chat_id: chatId, text }, 20_000)
			commands.push(p)
			return p
		}
		expect((await send(bob, BOB_TO_ALICE, 'before')).payload.type).toBe('send_message')

		const hang = await fetch(`${f.t.url}/api/emulator/hang/`, {
			method: 'POST',
			headers: { authorization: `Bearer ${f.alice.access}`, 'content-type': 'application/json' },
			body: JSON.stringify({ phone_number: BOB }),
		})
		expect(hang.status).toBe(200)
		// In flight in the hung client: answered once, with a clear error, when the hang is found out.
		const inFlight = send(bob, BOB_TO_ALICE, 'h1')
		// The other userbot of the same supervisor child is served meanwhile.
		expect((await send(alice, ALICE_TO_BOB, 'other')).payload.type).toBe('send_message')

		await ws.take(statusOf(bob, 'restarting'), 20_000)
		// Sent while it restarts: waits for the new client and goes once.
		const during = send(bob, BOB_TO_ALICE, 'h2')
		expect((await inFlight).payload).toMatchObject({
			type: 'send_message_error',
			error: 'userbot runtime restarted, try again',
		})
		await ws.take(statusOf(bob, 'active'), 20_000)
		expect((await during).payload.type).toBe('send_message')
		expect((await send(bob, BOB_TO_ALICE, 'h3')).payload.type).toBe('send_message')

		// One client restarted, not the child; the other userbot heard of nothing.
		expect((f.t.ctx.runtime as unknown as { pid: number }).pid).toBe(pid)
		expect(ws.received.filter(statusOf(alice))).toEqual([])
		const told = ws.received.filter(statusOf(bob)).map((m) => (m.payload.result as { status: string }).status)
		expect(told).toEqual(['restarting', 'active'])
		// Every command answered exactly once.
		const replies = await Promise.all(commands)
		for (const r of replies)
			expect(ws.received.filter((m) => m.payload?.request_id === r.payload.request_id)).toHaveLength(1)
		// Sent once each; the one the hung client held was not sent again behind the client's back.
		const runtime = f.t.ctx.runtime!
		const page = () =>
			runtime.invoke(
				bob,
				{
					_: 'getChatHistory',
					chat_id: BOB_TO_ALICE,
					from_message_id: 0,
					offset: 0,
					limit: 100,
					only_local: false,
				},
				{ label: 'test' },
			)
		await page()
		const texts = ((await page()).messages ?? []).map(
			(m) => (m?.content as { text?: { text?: string } } | undefined)?.text?.text,
		)
		for (const t of ['before', 'h2', 'h3']) expect(texts.filter((x) => x === t)).toHaveLength(1)
		expect(texts).not.toContain('h1')
		// The account's stored status is active again.
		const got = await fetch(`${f.t.url}/api/userbots/${bob}/`, {
			headers: { authorization: `Bearer ${f.alice.access}` },
		})
		expect(((await got.json()) as { status: string }).status).toBe('active')
	}, 60_000)
})
