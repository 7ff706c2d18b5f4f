import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { userbot } from '../../db/schema'
import { CLOSE_INVALID_UTF8, REASON_INVALID_UTF8 } from '../../src/common/wire/close'
import { connectWs, createMessagingFixture, type MessagingFixture, sessionCookie } from '../helpers-ws'
import { frame, openRawWebSocket } from '../raw-ws.mjs'

let f: MessagingFixture

beforeAll(async () => {
	f = await createMessagingFixture()
})
afterAll(() => f.stop())

const GET = 'get_default_message_auto_delete_time'

/** A raw upgrade request, to read the status of a refused upgrade. */
function upgrade(headers: Record<string, string> = {}) {
	return fetch(`${f.t.url}/ws`, {
		headers: {
			connection: 'Upgrade',
			upgrade: 'websocket',
			'sec-websocket-version': '13',
			'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
			...headers,
		},
	})
}

describe('gateway connection', () => {
	it('refuses an upgrade without credentials with 401', async () => {
		const res = await upgrade()
		expect(res.status).toBe(401)
		await expect(connectWs(f.t.url)).rejects.toThrow()
	})

	it('refuses a bad bearer token with 401', async () => {
		const res = await upgrade({ authorization: 'Bearer not-a-token' })
		expect(res.status).toBe(401)
	})

	it('accepts the session cookie from the own origin', async () => {
		const cookie = await sessionCookie(f.t, f.alice)
		const c = await connectWs(f.t.url, { cookie, origin: f.t.url })
		const reply = await c.command({ action: GET, userbot_id: f.userbotId })
		expect(reply.payload.type).toBe(GET)
		c.close()
	})

	it('refuses the session cookie from another origin with 401 (docs/protocol.md#connecting)', async () => {
		const cookie = await sessionCookie(f.t, f.alice)
		const res = await upgrade({ cookie, origin: 'https://evil.example' })
		expect(res.status).toBe(401)
		expect(await res.json()).toEqual({
			detail: 'CSRF Failed: Origin checking failed - the origin is not trusted.',
			code: 'csrf_failed',
		})
		await expect(connectWs(f.t.url, { cookie, origin: 'https://evil.example' })).rejects.toThrow()
	})

	it('refuses the session cookie without an Origin with 401', async () => {
		const cookie = await sessionCookie(f.t, f.alice)
		const res = await upgrade({ cookie })
		expect(res.status).toBe(401)
		expect(await res.json()).toMatchObject({ code: 'csrf_failed' })
		const crossSite = await upgrade({ cookie, origin: f.t.url, 'sec-fetch-site': 'cross-site' })
		expect(crossSite.status).toBe(401)
	})

	it('closes with 1009 on a frame over 1 MiB, and a fresh connection works', async () => {
		const c = await f.connect()
		c.send(JSON.stringify({ action: GET, userbot_id: f.userbotId, pad: 'x'.repeat(1024 * 1024) }))
		const { code } = await c.closed
		expect(code).toBe(1009)
		const fresh = await f.connect()
		const reply = await fresh.command({ action: GET, userbot_id: f.userbotId })
		expect(reply.payload.type).toBe(GET)
	})

	it('is closed with 1007 on a text frame that is not UTF-8 (docs/protocol.md#close-codes)', async () => {
		// A raw socket: a WebSocket class only sends text it encoded itself.
		const texts: string[] = []
		let close: { code: number; reason: string } | undefined
		let ended: () => void = () => {}
		const end = new Promise<void>((resolve) => {
			ended = resolve
		})
		const raw = openRawWebSocket(f.t.url, f.alice.access, {
			onText: (text: string) => {
				texts.push(text)
			},
			onClose: (c: { code: number; reason: string }) => {
				close = c
			},
			onEnd: () => ended(),
		})
		await raw.upgraded
		// `{`, two bytes no UTF-8 text holds, `}`: an opcode-1 (text) frame, masked as a client's must be.
		raw.socket.write(frame(Buffer.from([0x7b, 0xff, 0xfe, 0x7d])))
		await end
		expect(close).toEqual({ code: CLOSE_INVALID_UTF8, reason: REASON_INVALID_UTF8 })
		expect(texts).toEqual([])
		const fresh = await f.connect()
		expect((await fresh.command({ action: GET, userbot_id: f.userbotId })).payload.type).toBe(GET)
	})

	it('accepts a frame just under 1 MiB', async () => {
		const c = await f.connect()
		const frame = { action: GET, userbot_id: f.userbotId, request_id: 'big', pad: '' }
		frame.pad = 'x'.repeat(1024 * 1024 - JSON.stringify(frame).length)
		const reply = await c.command(frame)
		expect(reply.payload.type).toBe(GET)
	})

	it('answers userbot not found at once after a userbot is deleted', async () => {
		const c = await f.connect()
		const { createLoggedInUserbot } = await import('../helpers-ws')
		const id = await createLoggedInUserbot(f.t, f.alice.companyId, '9996614444')
		expect((await c.command({ action: GET, userbot_id: id })).payload.type).toBe(GET)
		await f.t.ctx.db.update(userbot).set({ deletedAt: Date.now() }).where(eq(userbot.id, id))
		f.t.ctx.userbots.invalidate(id)
		expect((await c.command({ action: GET, userbot_id: id })).payload.error).toBe('userbot not found')
	})

	it("publishes company events to that company's connections only", async () => {
		const mine = await f.connect()
		const theirs = await f.connect(f.mallory)
		f.t.ctx.publish({ companyId: f.alice.companyId, message: { type: 'userbot_update', userbot_id: 1 } })
		expect(await mine.next()).toEqual({ type: 'userbot_update', userbot_id: 1 } as never)
		f.t.ctx.publish({ companyId: f.mallory.companyId, message: { type: 'ping' } })
		expect(await theirs.next()).toEqual({ type: 'ping' } as never)
		expect(mine.received.length).toBe(1)
	})
})
