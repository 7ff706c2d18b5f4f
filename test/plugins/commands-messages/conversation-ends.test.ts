import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import {
	type ChatUpdate,
	createLoggedInUserbot,
	createMessagingFixture,
	type MessagingFixture,
	type WsClient,
} from '../../helpers-ws'

/**
 * How waits end but by a message (issue 46): when their socket closes, when their userbot is
 * deleted or logged out, each pending wait gets exactly one reply (or none, its socket being gone),
 * and its listener is released; a wait longer than COMMAND_TIMEOUT is not cut by it. The fixture's
 * deadline is short (COMMAND_TIMEOUT 2 s) so that the last shows.
 */
let f: MessagingFixture
beforeAll(async () => {
	f = await createMessagingFixture({ COMMAND_TIMEOUT: '2000' })
})
afterAll(() => f.stop())

const listening = (userbotId?: number) => f.t.ctx.updates.listening(userbotId)
/** Resolves once `cond` holds: each turn of the event loop lets the gateway go on. */
async function until(cond: () => boolean): Promise<void> {
	while (!cond()) await Bun.sleep(1)
}
const waitFrame = (userbotId: number, i: number) => ({
	action: 'wait_for_message',
	userbot_id: userbotId,
	chat_id: 1001,
	timeout_s: 300,
	request_id: `w${i}`,
})
/** The replies to the waits a socket sent (beside them come the userbot's state pushes). */
const waitReplies = (socket: WsClient): ChatUpdate[] =>
	socket.received.filter((m) => String(m.payload?.request_id).startsWith('w'))
const call = (method: string, path: string) =>
	fetch(`${f.t.url}${path}`, { method, headers: { authorization: `Bearer ${f.alice.access}` } })

describe('waits that end without a message', () => {
	it('are not cut by a COMMAND_TIMEOUT shorter than their timeout_s', async () => {
		const c = await f.connect()
		// 3 s of waiting against 2 s of COMMAND_TIMEOUT: the wait's own `timed out`, not `timeout`.
		const reply = await c.command({
			action: 'wait_for_message',
			userbot_id: f.userbotId,
			chat_id: 1001,
			timeout_s: 3,
		})
		expect([reply.payload.type, reply.payload.error]).toEqual(['wait_for_message_error', 'timed out'])
		c.close()
	}, 20_000)

	it('end when their socket closes: every listener is released', async () => {
		const c = await f.connect()
		for (let i = 0; i < 50; i++) c.send(waitFrame(f.userbotId, i))
		await until(() => listening(f.userbotId) === 50)
		c.close()
		await c.closed
		await until(() => listening(f.userbotId) === 0)
		expect(listening()).toBe(0)
		// The userbot still answers, and a new wait listens again.
		const d = await f.connect()
		const reply = await d.command({ action: 'get_default_message_auto_delete_time', userbot_id: f.userbotId })
		expect(reply.payload.error).toBeUndefined()
		d.close()
	})

	it('1,000 at once on one userbot each get one `userbot not found` when it is deleted', async () => {
		const doomed = await createLoggedInUserbot(f.t, f.alice.companyId, '9996625555')
		// 256 commands may run per socket (MAX_IN_FLIGHT): four sockets of 250.
		const sockets: WsClient[] = await Promise.all([0, 1, 2, 3].map(() => f.connect()))
		for (const [s, socket] of sockets.entries())
			for (let i = 0; i < 250; i++) socket.send(waitFrame(doomed, s * 250 + i))
		await until(() => listening(doomed) === 1000)

		expect((await call('DELETE', `/api/userbots/${doomed}/`)).status).toBe(204)
		const replies = await Promise.all(
			sockets.map((socket) => until(() => waitReplies(socket).length >= 250).then(() => waitReplies(socket))),
		)
		const all = replies.flat()
		expect(all).toHaveLength(1000)
		expect(new Set(all.map((m) => m.payload.request_id)).size).toBe(1000)
		expect(new Set(all.map((m) => `${m.payload.type}: ${m.payload.error}`))).toEqual(
			new Set(['wait_for_message_error: userbot not found']),
		)
		expect(listening(doomed)).toBe(0)
		// Nothing more comes: a further command on each socket is answered, and is the only new frame.
		for (const socket of sockets) {
			const next = await socket.command({ action: 'get_me', userbot_id: doomed })
			expect(next.payload.error).toBe('userbot not found')
			expect(waitReplies(socket)).toHaveLength(250)
			socket.close()
		}
	}, 60_000)

	it('end with `userbot is not authorized` when the account logs out, send_and_wait too', async () => {
		const leaving = await createLoggedInUserbot(f.t, f.alice.companyId, '9996611111')
		const c = await f.connect()
		const wait = c.command(waitFrame(leaving, 0))
		await until(() => listening(leaving) === 1)
		// Bob (the fixture's userbot) sees the message: send_and_wait waits for an answer now.
		const seen = c.command({ ...waitFrame(f.userbotId, 1), request_id: 'seen' })
		await until(() => listening(f.userbotId) === 1)
		const sent = c.command({
			action: 'send_and_wait',
			userbot_id: leaving,
			chat_id: 1002,
			text: 'Bye?',
			timeout_s: 300,
		})
		expect((await seen).payload.type).toBe('wait_for_message')
		// It listened twice while its message was sent (the confirmation, the answer), then once.
		await until(() => listening(leaving) === 2)
		expect((await call('POST', `/api/userbots/${leaving}/logout/`)).status).toBe(200)
		for (const [reply, action] of [
			[await wait, 'wait_for_message'],
			[await sent, 'send_and_wait'],
		] as const)
			expect([reply.payload.type, reply.payload.error]).toEqual([
				`${action}_error`,
				'userbot is not authorized',
			])
		expect(listening(leaving)).toBe(0)
		c.close()
	}, 30_000)
})
