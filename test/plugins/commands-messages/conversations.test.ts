import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { sendAndWait } from '../../../plugins/commands-messages/send-and-wait'
import { SEED_CHATS } from '../../../src/emulator'
import {
	type ChatUpdate,
	createLoggedInUserbot,
	createMessagingFixture,
	type MessagingFixture,
	type WsClient,
} from '../../helpers-ws'

/**
 * Conversations (issue 46) over the real WebSocket, supervisor and emulator: Bob's userbot (the
 * fixture's) waits, and Alice's and Dave's userbots write to it. Each step that must come after a
 * wait began waits for the wait's listener to be there (the hub counts them), or for the other side
 * to have seen the message: the order is the test's, never a timer's.
 */
const ALICE = 1001
const BOB = 1002
const DAVE = 1004
const TEAM = SEED_CHATS.basicGroup

type Message = {
	id: number
	chat_id: number
	is_outgoing: boolean
	sending_state?: unknown
	sender_id: { user_id?: number }
	reply_to?: { message_id: number }
	content: { text?: { text: string } }
}

let f: MessagingFixture
let alice: number
let dave: number
let bobWs: WsClient
let aliceWs: WsClient
const bob = () => f.userbotId

beforeAll(async () => {
	f = await createMessagingFixture()
	alice = await createLoggedInUserbot(f.t, f.alice.companyId, '9996611111')
	dave = await createLoggedInUserbot(f.t, f.alice.companyId, '9996614444')
	bobWs = await f.connect()
	aliceWs = await f.connect()
})
afterAll(() => f.stop())

const listening = (userbotId?: number) => f.t.ctx.updates.listening(userbotId)
/** Resolves once `cond` holds: each turn of the event loop lets the gateway go on. */
async function until(cond: () => boolean): Promise<void> {
	while (!cond()) await Bun.sleep(1)
}
const on = (c: WsClient, userbotId: number, action: string, fields: Record<string, unknown>, ms?: number) =>
	c.command({ action, userbot_id: userbotId, ...fields }, ms)
const resultOf = <T = Message>(reply: ChatUpdate): T => {
	if (reply.payload.error !== undefined) throw new Error(`${reply.payload.type}: ${reply.payload.error}`)
	return reply.payload.result as T
}
/**
 * Starts a wait of `userbotId` and resolves once its listener is there, with the reply to come
 * (in a box: an async function's promise would adopt it).
 */
async function startWait(c: WsClient, userbotId: number, fields: Record<string, unknown>) {
	const before = listening(userbotId)
	const reply = on(c, userbotId, 'wait_for_message', fields)
	await until(() => listening(userbotId) > before)
	return { reply }
}
const textOf = (m: Message) => m.content.text?.text

describe('wait_for_message', () => {
	it("answers with the other account's next message in the chat", async () => {
		const wait = await startWait(bobWs, bob(), { chat_id: ALICE })
		resultOf(await on(aliceWs, alice, 'send_message', { chat_id: BOB, text: 'hello Bob', wait_sent: true }))
		const got = resultOf(await wait.reply)
		expect([got.chat_id, got.sender_id.user_id, textOf(got), got.is_outgoing]).toEqual([
			ALICE,
			ALICE,
			'hello Bob',
			false,
		])
		expect(listening(bob())).toBe(0)
	})

	it('takes only a message of its sender_id', async () => {
		const anyone = await startWait(bobWs, bob(), { chat_id: TEAM })
		const fromDave = await startWait(bobWs, bob(), { chat_id: TEAM, sender_id: DAVE })
		resultOf(await on(aliceWs, alice, 'send_message', { chat_id: TEAM, text: 'Alice here', wait_sent: true }))
		// Both waits heard Alice's message (one update goes to every listener): only one took it.
		expect(textOf(resultOf(await anyone.reply))).toBe('Alice here')
		expect(listening(bob())).toBe(1)
		resultOf(await on(aliceWs, dave, 'send_message', { chat_id: TEAM, text: 'Dave here', wait_sent: true }))
		const got = resultOf(await fromDave.reply)
		expect([got.sender_id.user_id, textOf(got)]).toEqual([DAVE, 'Dave here'])
	})

	it('takes only a reply to its reply_to_message_id', async () => {
		// Alice sees Bob's question (in her chat with him, by her ids) before she answers it.
		const seen = await startWait(aliceWs, alice, { chat_id: BOB, sender_id: BOB })
		const question = resultOf(
			await on(bobWs, bob(), 'send_message', { chat_id: ALICE, text: 'Q?', wait_sent: true }),
		)
		const hers = resultOf(await seen.reply)
		expect(textOf(hers)).toBe('Q?')

		const anything = await startWait(bobWs, bob(), { chat_id: ALICE })
		const answer = await startWait(bobWs, bob(), { chat_id: ALICE, reply_to_message_id: question.id })
		resultOf(
			await on(aliceWs, alice, 'send_message', { chat_id: BOB, text: 'not an answer', wait_sent: true }),
		)
		expect(textOf(resultOf(await anything.reply))).toBe('not an answer')
		resultOf(
			await on(aliceWs, alice, 'send_message', {
				chat_id: BOB,
				text: 'A!',
				reply_to_message_id: hers.id,
				wait_sent: true,
			}),
		)
		const got = resultOf(await answer.reply)
		expect([textOf(got), got.reply_to?.message_id]).toEqual(['A!', question.id])
	})

	it('answers `timed out` after timeout_s when nothing comes (nothing is sent)', async () => {
		const reply = await on(bobWs, bob(), 'wait_for_message', { chat_id: SEED_CHATS.channel, timeout_s: 1 })
		expect([reply.payload.type, reply.payload.error]).toEqual(['wait_for_message_error', 'timed out'])
		expect(listening(bob())).toBe(0)
	})

	it('refuses a timeout_s out of 1..300 and a frame without chat_id, in our words', async () => {
		for (const timeout_s of [0, 301, -5])
			expect((await on(bobWs, bob(), 'wait_for_message', { chat_id: ALICE, timeout_s })).payload.error).toBe(
				'timeout_s must be between 1 and 300',
			)
		expect((await on(bobWs, bob(), 'wait_for_message', { timeout_s: 5 })).payload.error).toBe(
			'chat_id is required',
		)
		expect(
			(await on(bobWs, bob(), 'send_and_wait', { chat_id: ALICE, text: 'x', timeout_s: 0 })).payload.error,
		).toBe('timeout_s must be between 1 and 300')
		expect(listening(bob())).toBe(0)
	})
})

describe('send_and_wait', () => {
	it("answers {sent, reply}: the sent message, and the other account's answer to it", async () => {
		const seen = await startWait(aliceWs, alice, { chat_id: BOB, sender_id: BOB })
		const asked = on(bobWs, bob(), 'send_and_wait', { chat_id: ALICE, text: 'Are you there?', timeout_s: 30 })
		const hers = resultOf(await seen.reply)
		expect(textOf(hers)).toBe('Are you there?')
		resultOf(
			await on(aliceWs, alice, 'send_message', { chat_id: BOB, text: 'Yes', reply_to_message_id: hers.id }),
		)
		const { sent, reply } = resultOf<{ sent: Message; reply: Message }>(await asked)
		expect([textOf(sent), sent.sending_state, sent.is_outgoing]).toEqual(['Are you there?', undefined, true])
		expect([textOf(reply), reply.chat_id, reply.is_outgoing, reply.reply_to?.message_id]).toEqual([
			'Yes',
			ALICE,
			false,
			sent.id,
		])
		expect(listening(bob())).toBe(0)
	})

	it('in a private chat takes the next incoming message; in a group only a reply to the sent one', async () => {
		const seenPrivate = await startWait(aliceWs, alice, { chat_id: BOB, sender_id: BOB })
		const privately = on(bobWs, bob(), 'send_and_wait', { chat_id: ALICE, text: 'Lunch?', timeout_s: 30 })
		resultOf(await seenPrivate.reply)
		resultOf(await on(aliceWs, alice, 'send_message', { chat_id: BOB, text: 'Sure' }))
		expect(textOf(resultOf<{ reply: Message }>(await privately).reply)).toBe('Sure')

		const seenInGroup = await startWait(aliceWs, alice, { chat_id: TEAM, sender_id: BOB })
		const inGroup = on(bobWs, bob(), 'send_and_wait', {
			chat_id: TEAM,
			text: 'Stand-up at 10?',
			timeout_s: 30,
		})
		const hers = resultOf(await seenInGroup.reply)
		// Bob's own message and a message that answers nothing are no answer; the reply is.
		resultOf(await on(aliceWs, dave, 'send_message', { chat_id: TEAM, text: 'unrelated', wait_sent: true }))
		resultOf(
			await on(aliceWs, alice, 'send_message', {
				chat_id: TEAM,
				text: 'Yes, 10',
				reply_to_message_id: hers.id,
			}),
		)
		const { sent, reply } = resultOf<{ sent: Message; reply: Message }>(await inGroup)
		expect([textOf(reply), reply.sender_id.user_id, reply.reply_to?.message_id]).toEqual([
			'Yes, 10',
			ALICE,
			sent.id,
		])
	})

	it('answers `timed out` with the sent message when no answer comes (nobody answers)', async () => {
		const reply = await on(bobWs, bob(), 'send_and_wait', {
			chat_id: SEED_CHATS.supergroup,
			text: 'Anyone?',
			timeout_s: 1,
		})
		expect([reply.payload.type, reply.payload.error]).toEqual(['send_and_wait_error', 'timed out'])
		const { sent } = reply.payload.result as { sent: Message }
		expect([textOf(sent), sent.sending_state]).toEqual(['Anyone?', undefined])
		expect(listening(bob())).toBe(0)
	})
})

describe('send_and_wait, as send_message', () => {
	it("sends each of send_message's ways (markup, a thread, a phone, a username, an album), then waits", async () => {
		const methods = new Set<string>()
		const stop = f.t.ctx.runtime?.onRequest((e) => {
			if (e.label === 'send_and_wait' && e.userbotId === bob()) methods.add(e.request._)
		})
		const photo = (name: string) => ({ file: `https://example.com/${name}.png`, media_type: 'photo' })
		const lounge = SEED_CHATS.supergroup
		const frames = [
			{ chat_id: lounge, text: '<b>bold</b>', parse_mode: 'HTML' },
			{ chat_id: lounge, text: 'in a thread', message_thread_id: 2 ** 20 },
			{ phone: '+999 662 5555', text: 'Hi Eve' },
			{ username: '@dave', text: 'Hi Dave' },
			{ chat_id: lounge, media: [photo('a'), photo('b')] },
		]
		const replies = await Promise.all(
			frames.map((frame) => on(bobWs, bob(), 'send_and_wait', { ...frame, timeout_s: 1 })),
		)
		stop?.()
		// Nobody answers: each sent, then timed out, with what it sent.
		expect(replies.map((r) => [r.payload.type, r.payload.error])).toEqual(
			frames.map(() => ['send_and_wait_error', 'timed out']),
		)
		const sent = replies.map((r) => (r.payload.result as { sent: { _: string } }).sent._)
		expect(sent).toEqual(['message', 'message', 'message', 'message', 'messages'])
		// Every TDLib method it declares went out (the conformance judge's pairs).
		expect([...methods].sort()).toEqual([...sendAndWait.methods].sort())
		expect(listening(bob())).toBe(0)
	}, 20_000)

	it('answers hostile fields with one error each, in our words, and waits for none of them', async () => {
		const hostile: Array<[string, Record<string, unknown>, string]> = [
			['wait_for_message', { chat_id: 'x' }, 'chat_id must be an integer'],
			['wait_for_message', { chat_id: '99999999999999999999' }, 'chat_id is out of range'],
			[
				'wait_for_message',
				{ chat_id: ALICE, sender_id: { _: 'messageSenderUser' } },
				'sender_id must be an integer',
			],
			[
				'wait_for_message',
				{ chat_id: ALICE, reply_to_message_id: 1.5 },
				'reply_to_message_id must be an integer',
			],
			['wait_for_message', { chat_id: ALICE, timeout_s: '1e3' }, 'timeout_s must be an integer'],
			['wait_for_message', { chat_id: ALICE, timeout_s: 2 ** 63 }, 'timeout_s is out of range'],
			['send_and_wait', { text: 'no recipient', timeout_s: 1 }, 'chat_id is required'],
			['send_and_wait', { chat_id: ALICE, text: 'x', timeout_s: true }, 'timeout_s must be an integer'],
		]
		for (const [action, fields, error] of hostile) {
			const reply = await on(bobWs, bob(), action, fields)
			expect([reply.payload.type, reply.payload.error]).toEqual([`${action}_error`, error])
		}
		expect(listening(bob())).toBe(0)
	})
})

describe('wait_for_message on a chat that is none', () => {
	it("answers TDLib's `Chat not found` at once, waiting for nothing", async () => {
		const reply = await on(bobWs, bob(), 'wait_for_message', { chat_id: -4242424242, timeout_s: 300 })
		expect([reply.payload.type, reply.payload.error]).toEqual(['wait_for_message_error', 'Chat not found'])
		expect(listening(bob())).toBe(0)
	})
})
