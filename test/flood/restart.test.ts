import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { createMessagingFixture, type MessagingFixture } from '../helpers-ws'
import { ALICE_CHAT, isStatus } from './account-status'

/** The texts of Bob's chat with Alice, newest first (up to 100). */
const history = async (f: MessagingFixture) => {
	const runtime = f.t.ctx.runtime!
	const page = () =>
		runtime.invoke(
			f.userbotId,
			{
				_: 'getChatHistory',
				chat_id: ALICE_CHAT,
				from_message_id: 0,
				offset: 0,
				limit: 100,
				only_local: false,
			},
			{ label: 'test' },
		)
	// As TDLib's, a client's first call on a chat answers its last message alone; the next, a page.
	await page()
	const h = await page()
	return (
		h.messages?.map((m) => (m?.content as { text?: { text?: string } } | undefined)?.text?.text ?? '') ?? []
	)
}

describe('self-healing: a killed TDLib client comes back', () => {
	let f: MessagingFixture
	beforeAll(async () => {
		f = await createMessagingFixture()
	})
	afterAll(() => f.stop())

	it('restarting, then active; commands sent meanwhile are answered once and sent once', async () => {
		const ws = await f.connect()
		await ws.command({ action: 'subscribe', userbot_id: f.userbotId })
		const runtime = f.t.ctx.runtime as unknown as { pid: number }
		const pid = runtime.pid
		process.kill(pid, 'SIGKILL')
		await ws.take(isStatus('restarting'))
		// Sent while the client is down: each waits for the new child and goes once.
		const sends = ['r1', 'r2', 'r3'].map((text) =>
			ws.command({ action: 'send_message', userbot_id: f.userbotId, chat_id: ALICE_CHAT, text }),
		)
		const replies = await Promise.all(sends)
		const active = await ws.take(isStatus('active'))
		const restarting = ws.received.find(isStatus('restarting'))
		expect(restarting).toBeDefined()
		// Told in the order they happened, each once.
		expect(ws.received.indexOf(active)).toBeGreaterThan(ws.received.indexOf(restarting!))
		expect(ws.received.filter(isStatus('restarting')).length).toBe(1)
		expect(ws.received.filter(isStatus('active')).length).toBe(1)
		expect(runtime.pid).not.toBe(pid)
		for (const r of replies) expect(r.payload.type).toBe('send_message')
		expect(ws.received.filter((m) => m.payload?.type === 'send_message').length).toBe(3)
		const texts = await history(f)
		for (const t of ['r1', 'r2', 'r3']) expect(texts.filter((x) => x === t).length).toBe(1)
	})
})

describe('the governor on the command channel', () => {
	let f: MessagingFixture
	beforeAll(async () => {
		// Two a minute to one chat, no wait allowed: the third is refused at once, deterministically.
		f = await createMessagingFixture({ FLOOD_LIMITS: 'send_chat=2/60', FLOOD_MAX_WAIT: '0' })
	})
	afterAll(() => f.stop())

	it('a command past its flood budget is answered with retry_after and never sent', async () => {
		const ws = await f.connect()
		const send = (text: string) =>
			ws.command({ action: 'send_message', userbot_id: f.userbotId, chat_id: ALICE_CHAT, text })
		expect((await send('g1')).payload).toMatchObject({ type: 'send_message' })
		expect((await send('g2')).payload.type).toBe('send_message')
		const third = await send('g3')
		// Logged in a moment ago: the warm-up doubles the interval (two in 120 s), and the governor's 5%
		// margin stretches it: the next one at 63 s.
		expect(third.payload).toMatchObject({
			type: 'send_message_error',
			error: 'Too Many Requests: retry after 63',
			result: { retry_after: 63 },
		})
		const texts = await history(f)
		expect(texts).not.toContain('g3')
		// Another chat of the same account (the seed's basic group) has its own budget.
		const other = await ws.command({
			action: 'send_message',
			userbot_id: f.userbotId,
			chat_id: -2001,
			text: 'g4',
		})
		expect(other.payload).toMatchObject({ type: 'send_message' })
	})
})
