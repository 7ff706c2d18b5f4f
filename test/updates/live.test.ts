import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { SEED_CHATS } from '../../src/emulator'
import {
	type ChatUpdate,
	createLoggedInUserbot,
	createMessagingFixture,
	type MessagingFixture,
	type WsClient,
} from '../helpers-ws'

/**
 * Issue 11 over the real WebSocket and supervisor: two emulated accounts in one world. Userbot B is
 * the fixture's (Bob 1002, company of `alice`); userbot A is Alice 1001, of `mallory`'s company.
 */
const BOB = 1002
const ALICE = 1001

interface UpdateEvent {
	type: 'update' | 'resync'
	userbot_id: number
	seq: number
	update?: {
		_: string
		message?: {
			id: number
			chat_id: number
			content: { _: string; text?: { text: string } } & Record<string, unknown>
		}
	} & Record<string, unknown>
}

const events = (c: WsClient) => c.received as unknown as UpdateEvent[]
const updatesOf = (c: WsClient, userbotId: number) =>
	events(c).filter((e) => (e.type === 'update' || e.type === 'resync') && e.userbot_id === userbotId)

async function until<T>(find: () => T | undefined, ms = 5000): Promise<T> {
	const end = Date.now() + ms
	for (;;) {
		const found = find()
		if (found !== undefined) return found
		if (Date.now() > end) throw new Error(`not within ${ms} ms`)
		await Bun.sleep(10)
	}
}

describe('live updates', () => {
	let f: MessagingFixture
	let a: number
	const b = () => f.userbotId
	beforeAll(async () => {
		f = await createMessagingFixture({ UPDATE_BUFFER_SIZE: '50' })
		a = await createLoggedInUserbot(f.t, f.mallory.companyId, '9996611111')
	})
	afterAll(() => f.stop())

	const send = (c: WsClient, userbotId: number, chatId: number, text: string) =>
		c.command({ action: 'send_message', userbot_id: userbotId, chat_id: chatId, text })

	it("delivers what A sends to B's private chat to B's subscriber, in B's chat, and the final id to A", async () => {
		const bob = await f.connect()
		const alice = await f.connect(f.mallory)
		const subB = await bob.command({ action: 'subscribe', userbot_id: b() })
		expect(subB.payload).toMatchObject({ type: 'subscribe', result: { last_seq: expect.any(Number) } })
		const subA = await alice.command({
			action: 'subscribe',
			userbot_id: a,
			updates: ['updateMessageSendSucceeded'],
		})
		expect(subA.payload.type).toBe('subscribe')

		const sent = await send(alice, a, BOB, 'hello Bob')
		const temp = sent.payload.result as { id: number }
		const got = await until(() =>
			updatesOf(bob, b()).find(
				(e) => e.update?._ === 'updateNewMessage' && e.update.message?.content.text?.text === 'hello Bob',
			),
		)
		// B sees the private chat under A's id, as TDLib would show it to B.
		expect(got.update?.message?.chat_id).toBe(ALICE)
		const final = await until(() =>
			updatesOf(alice, a).find((e) => e.update?._ === 'updateMessageSendSucceeded'),
		)
		expect(final.update?.old_message_id).toBe(temp.id)
		expect(final.update?.message?.id).toBe(got.update?.message?.id)
		// A asked for one kind only.
		expect(updatesOf(alice, a).every((e) => e.update?._ === 'updateMessageSendSucceeded')).toBe(true)
		bob.close()
		alice.close()
	})

	it('gives a client that comes back exactly the updates it missed, once, in order', async () => {
		const alice = await f.connect(f.mallory)
		let bob = await f.connect()
		await bob.command({ action: 'subscribe', userbot_id: b() })
		await send(alice, a, BOB, 'before')
		const seen = await until(() =>
			updatesOf(bob, b()).find((e) => e.update?.message?.content.text?.text === 'before'),
		)
		bob.close()
		for (const text of ['missed 1', 'missed 2', 'missed 3']) await send(alice, a, BOB, text)
		await until(() => (f.t.ctx.updates.kept(b()) >= seen.seq + 3 ? true : undefined))

		bob = await f.connect()
		const resumed = await bob.command({ action: 'subscribe', userbot_id: b(), after: seen.seq })
		const last = (resumed.payload.result as { last_seq: number }).last_seq
		await until(() => (updatesOf(bob, b()).length >= last - seen.seq ? true : undefined))
		const replay = updatesOf(bob, b())
		expect(replay.map((e) => e.seq)).toEqual(
			Array.from({ length: last - seen.seq }, (_, i) => seen.seq + 1 + i),
		)
		expect(replay.map((e) => e.update?.message?.content.text?.text)).toEqual([
			'missed 1',
			'missed 2',
			'missed 3',
		])
		// The replay came after the subscribe reply, never before it.
		const order = bob.received.map(
			(m) => (m as ChatUpdate).payload?.type ?? (m as unknown as UpdateEvent).type,
		)
		expect(order.indexOf('subscribe')).toBeLessThan(order.indexOf('update'))
		bob.close()
		alice.close()
	})

	it('answers a resume from too long ago with resync, then what is still kept', async () => {
		const alice = await f.connect(f.mallory)
		for (let i = 0; i < 60; i++) await send(alice, a, BOB, `flood ${i}`)
		const bob = await f.connect()
		await bob.command({ action: 'subscribe', userbot_id: b(), after: 0 })
		const resync = await until(() => updatesOf(bob, b()).find((e) => e.type === 'resync'))
		const kept = f.t.ctx.updates.kept(b())
		expect(kept).toBe(50)
		await until(() =>
			updatesOf(bob, b()).filter((e) => e.type === 'update').length >= kept ? true : undefined,
		)
		const replay = updatesOf(bob, b()).filter((e) => e.type === 'update')
		expect(replay[0]?.seq).toBe(resync.seq)
		expect(updatesOf(bob, b())[0]).toEqual({ type: 'resync', userbot_id: b(), seq: resync.seq })
		bob.close()
		alice.close()
	})

	it("refuses another company's subscriber as if the userbot did not exist, and sends it nothing", async () => {
		const intruder = await f.connect(f.mallory)
		const reply = await intruder.command({ action: 'subscribe', userbot_id: b() })
		expect(reply.payload).toMatchObject({ type: 'subscribe_error', error: 'userbot not found' })
		const alice = await f.connect(f.mallory)
		await send(alice, a, BOB, 'not for mallory')
		await Bun.sleep(200)
		expect(updatesOf(intruder, b())).toEqual([])
		intruder.close()
		alice.close()
	})

	it('stops delivery at unsubscribe', async () => {
		const bob = await f.connect()
		const alice = await f.connect(f.mallory)
		await bob.command({ action: 'subscribe', userbot_id: b() })
		await send(alice, a, BOB, 'heard')
		await until(() => updatesOf(bob, b()).find((e) => e.update?.message?.content.text?.text === 'heard'))
		const off = await bob.command({ action: 'unsubscribe', userbot_id: b() })
		expect(off.payload).toMatchObject({ type: 'unsubscribe', result: { unsubscribed: true } })
		const before = updatesOf(bob, b()).length
		await send(alice, a, BOB, 'not heard')
		await Bun.sleep(200)
		expect(updatesOf(bob, b()).length).toBe(before)
		bob.close()
		alice.close()
	})

	it('tells of edits, deletions and joins in a group both accounts are in', async () => {
		const bob = await f.connect()
		await bob.command({ action: 'subscribe', userbot_id: b() })
		const alice = await f.connect(f.mallory)
		// The seed's supergroup holds both Alice (an administrator) and Bob (its owner).
		const sent = await send(alice, a, SEED_CHATS.supergroup, 'to be edited')
		const tempId = (sent.payload.result as { id: number }).id
		const finalId = tempId - 1
		await until(() =>
			updatesOf(bob, b()).find((e) => e.update?.message?.content.text?.text === 'to be edited'),
		)
		await alice.command({
			action: 'edit_message',
			userbot_id: a,
			chat_id: SEED_CHATS.supergroup,
			message_id: finalId,
			text: 'edited',
		})
		const edited = await until(() => updatesOf(bob, b()).find((e) => e.update?._ === 'updateMessageContent'))
		expect(edited.update).toMatchObject({ chat_id: SEED_CHATS.supergroup, message_id: finalId })
		await until(() => updatesOf(bob, b()).find((e) => e.update?._ === 'updateMessageEdited'))
		await alice.command({
			action: 'delete_messages',
			userbot_id: a,
			chat_id: SEED_CHATS.supergroup,
			message_ids: [finalId],
			revoke: true,
		})
		const deleted = await until(() => updatesOf(bob, b()).find((e) => e.update?._ === 'updateDeleteMessages'))
		expect(deleted.update).toMatchObject({ chat_id: SEED_CHATS.supergroup, message_ids: [finalId] })
		// Bob adds Dave: everyone in the group, Bob's subscriber too, gets the service message.
		await bob.command({
			action: 'add_chat_member',
			userbot_id: b(),
			chat_id: SEED_CHATS.supergroup,
			user_id: 1004,
		})
		const joined = await until(() =>
			updatesOf(bob, b()).find((e) => e.update?.message?.content._ === 'messageChatAddMembers'),
		)
		expect(joined.update?.message?.content).toEqual({ _: 'messageChatAddMembers', member_user_ids: [1004] })
		bob.close()
		alice.close()
	})
})
