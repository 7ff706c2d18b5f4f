import { describe, expect, it } from 'bun:test'
import { FloodRefusedTd } from '../../src/runtime/supervisor/governed-runtime'
import { TdError } from '../../src/runtime/telegram/types'
import { harness, sendText } from './harness'

const ALICE = 1
/** Alice's private chat with Bob. */
const BOB_CHAT = 1002
const LIMIT = { send_chat: { count: 10, seconds: 10 } }
type Harness = Awaited<ReturnType<typeof harness>>
const stats = async (h: Harness, id: number) => {
	const s = (await h.client(id).invoke({ _: 'emulatorFloodStats' } as never)) as {
		delayed: number
		refused: number
	}
	return { delayed: s.delayed, refused: s.refused }
}

/** Alice alone, the emulator holding her to `LIMIT`; the governor on (`LIMIT`) or off (`null`). */
const aliceHeldTo = (governor: typeof LIMIT | null) =>
	harness({ governor, emulator: { limits: LIMIT, delaySeconds: 2 }, users: [[ALICE, '9996611111']] })
/** The sends TDLib gave up on (`updateMessageSendFailed`), as the client saw them. */
const sendFailures = (h: Harness) =>
	h.events.filter((e) => e.type === 'update' && e.update._ === 'updateMessageSendFailed')

type Outcome = { i: number; ok: boolean; value: unknown; at: number }

/** Sends `n` messages at once (as `send_message` would) and records each outcome in the order it came. */
function burst(h: Harness, n: number, chatId = BOB_CHAT) {
	const outcomes: Outcome[] = []
	for (let i = 0; i < n; i++) {
		h.rt.invoke(ALICE, sendText(chatId, `m${i}`), { label: 'send_message', timeoutMs: 120_000 }).then(
			(value) => outcomes.push({ i, ok: true, value, at: h.clock.now() }),
			(value) => outcomes.push({ i, ok: false, value, at: h.clock.now() }),
		)
	}
	return outcomes
}

describe('flood governor against the emulated limits', () => {
	it('a burst of 30 to one chat, limit 10 per 10 s: all sent in order, no FLOOD_WAIT, in the limit’s own time', async () => {
		const h = await aliceHeldTo(LIMIT)
		const outcomes = burst(h, 30)
		await h.runUntil(() => outcomes.length === 30)
		expect(outcomes.map((o) => o.i)).toEqual([...Array(30).keys()])
		expect(outcomes.every((o) => o.ok)).toBe(true)
		expect(outcomes.map((o) => (o.value as { sending_state?: { _: string } }).sending_state?._)).toEqual(
			Array(30).fill('messageSendingStatePending'),
		)
		// Ten at once, then one a second: the 30th goes at 20 s, the limit's own minimum.
		expect(outcomes[9]?.at).toBe(0)
		expect(outcomes[10]?.at).toBe(1000)
		expect(outcomes[29]?.at).toBe(20_000)
		// Telegram's side never had to say wait, and nothing failed later.
		expect(await stats(h, ALICE)).toEqual({ delayed: 0, refused: 0 })
		expect(sendFailures(h)).toEqual([])
		h.close()
	})

	it('the same burst with the governor off meets FLOOD_WAIT: short ones waited out, longer ones failed', async () => {
		const h = await aliceHeldTo(null)
		const outcomes = burst(h, 30)
		await h.runUntil(() => outcomes.length === 30)
		const s = await stats(h, ALICE)
		// The 11th and 12th wait 1 and 2 s inside the client; from the 13th the wait passes 2 s.
		expect(s).toEqual({ delayed: 2, refused: 18 })
		await h.settle()
		const failed = sendFailures(h)
		expect(failed.length).toBe(18)
		const first = failed[0] as unknown as {
			update: {
				error: { code: number; message: string }
				message: { sending_state: { retry_after: number } }
			}
		}
		expect(first.update.error).toEqual({
			_: 'error',
			code: 429,
			message: 'Too Many Requests: retry after 3',
		} as never)
		expect(first.update.message.sending_state.retry_after).toBe(3)
		h.close()
	})

	it('with the governor off, a send refused with retry after N goes when sent again N seconds later', async () => {
		const h = await aliceHeldTo(null)
		// Ten at once, the 11th and 12th waited out (1 and 2 s), the other eight refused: retry after 3.
		const outcomes = burst(h, 20)
		await h.runUntil(() => outcomes.length === 20)
		expect(await stats(h, ALICE)).toEqual({ delayed: 2, refused: 8 })
		const failed = () => sendFailures(h).length
		await h.settle()
		expect(failed()).toBe(8)
		// A refusal takes no moment: 3 s after the burst the first refused message goes, not waited.
		h.clock.advance(3000 - h.clock.now())
		const again = await h.rt.invoke(ALICE, sendText(BOB_CHAT, 'm12'), { label: 'send_message' })
		expect((again as { sending_state?: { _: string } }).sending_state?._).toBe('messageSendingStatePending')
		await h.settle()
		expect(await stats(h, ALICE)).toEqual({ delayed: 2, refused: 8 })
		expect(failed()).toBe(8)
		h.close()
	})

	it('a wait past the bound is answered with retry_after at once and nothing is sent', async () => {
		const h = await harness({
			governor: LIMIT,
			emulator: { limits: LIMIT, delaySeconds: 2 },
			maxWaitMs: 5_000,
			users: [[ALICE, '9996611111']],
		})
		const count = async () =>
			(
				await h.rt.invoke(ALICE, {
					_: 'getChatHistory',
					chat_id: BOB_CHAT,
					from_message_id: 0,
					offset: 0,
					limit: 100,
					only_local: false,
				})
			).total_count
		// As TDLib's, the first call on a chat answers its last message alone; the next, a full page.
		await count()
		const before = await count()
		const outcomes = burst(h, 20)
		await h.settle()
		// Ten went at once; 11 to 15 wait 1 to 5 s; 16 to 20 are refused now, with their own wait.
		const refused = outcomes.filter((o) => !o.ok)
		expect(refused.map((o) => o.i)).toEqual([15, 16, 17, 18, 19])
		expect(refused.map((o) => o.at)).toEqual([0, 0, 0, 0, 0])
		// Refused without taking a token: each is told the same first free moment.
		for (const o of refused) {
			expect(o.value).toBeInstanceOf(FloodRefusedTd)
			expect(o.value).toBeInstanceOf(TdError)
			expect((o.value as TdError).code).toBe(429)
			expect((o.value as TdError).message).toBe('Too Many Requests: retry after 6')
			expect((o.value as FloodRefusedTd).retryAfter).toBe(6)
		}
		await h.runUntil(() => outcomes.length === 20)
		expect((await count()) - before).toBe(15)
		expect(await stats(h, ALICE)).toEqual({ delayed: 0, refused: 0 })
		h.close()
	})
})

describe('flood governor: isolation and Telegram’s own waits', () => {
	const BOB = 2
	/** Bob's private chat with Alice. */
	const ALICE_CHAT = 1001

	it('one account’s queue and one chat’s queue hold nobody else up', async () => {
		const h = await harness({
			governor: LIMIT,
			emulator: { limits: LIMIT, delaySeconds: 2 },
			users: [
				[ALICE, '9996611111'],
				[BOB, '9996621234'],
			],
		})
		const outcomes = burst(h, 15)
		await h.settle()
		expect(outcomes.length).toBe(10)
		// Bob, and Alice in another chat, go at once while Alice's five wait.
		const other = await h.rt.invoke(BOB, sendText(ALICE_CHAT, 'hi'), {
			label: 'send_message',
			timeoutMs: 60_000,
		})
		const elsewhere = await h.rt
			.invoke(ALICE, sendText(777000, 'hi'), { label: 'send_message', timeoutMs: 60_000 })
			.catch((e: unknown) => e)
		expect(other._).toBe('message')
		expect(h.clock.now()).toBe(0)
		expect(elsewhere).not.toBeInstanceOf(TdError)
		await h.runUntil(() => outcomes.length === 15)
		expect(h.clock.now()).toBe(5000)
		h.close()
	})

	it('a 429 from Telegram pauses that class of that account: cooling_down, refused past the bound, then active', async () => {
		const h = await harness({
			governor: LIMIT,
			emulator: { limits: {}, delaySeconds: 2 },
			users: [[ALICE, '9996611111']],
		})
		await h.client(ALICE).invoke({
			_: 'emulatorFailNext',
			method: 'sendMessage',
			code: 429,
			message: 'Too Many Requests: retry after 50',
		} as never)
		const first = await h.rt
			.invoke(ALICE, sendText(BOB_CHAT, 'a'), { label: 'send_message', timeoutMs: 60_000 })
			.catch((e: unknown) => e)
		expect((first as TdError).message).toBe('Too Many Requests: retry after 50')
		const statuses = () => h.events.flatMap((e) => (e.type === 'userbot_status' ? [e.status] : []))
		expect(statuses().at(-1)).toBe('cooling_down')
		// Within the bound (30 s) nothing fits: refused at once, with the pause's own end, and not sent.
		const second = await h.rt
			.invoke(ALICE, sendText(BOB_CHAT, 'b'), { label: 'send_message', timeoutMs: 60_000 })
			.catch((e: unknown) => e)
		expect(second).toBeInstanceOf(FloodRefusedTd)
		expect((second as FloodRefusedTd).retryAfter).toBe(50)
		// Another class of the account is not paused.
		expect((await h.rt.invoke(ALICE, { _: 'getMe' }, { label: 'send_message' }))._).toBe('user')
		h.clock.advance(30_000)
		const third = h.rt.invoke(ALICE, sendText(BOB_CHAT, 'c'), { label: 'send_message', timeoutMs: 60_000 })
		await h.runUntil(() => statuses().at(-1) === 'active')
		expect(h.clock.now()).toBe(50_000)
		expect((await third)._).toBe('message')
		h.close()
	})
})
