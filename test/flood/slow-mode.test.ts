import { describe, expect, it } from 'bun:test'
import { SEED_CHATS } from '../../src/emulator'
import { harness, sendText } from './harness'

/** The seed's supergroup: Bob owns it, Eve is a member who is no administrator. */
const BOB = 1
const EVE = 2
const LOUNGE = SEED_CHATS.supergroup
const USERS: Array<[number, string]> = [
	[BOB, '9996621234'],
	[EVE, '9996625555'],
]

type Harness = Awaited<ReturnType<typeof harness>>
type Outcome = { i: number; ok: boolean; value: unknown; at: number }

/** Eve sends `n` messages to the lounge at once, as `send_message` would. */
function burst(h: Harness, n: number) {
	const outcomes: Outcome[] = []
	for (let i = 0; i < n; i++)
		h.rt.invoke(EVE, sendText(LOUNGE, `s${i}`), { label: 'send_message', timeoutMs: 120_000 }).then(
			(value) => outcomes.push({ i, ok: true, value, at: h.clock.now() }),
			(value) => outcomes.push({ i, ok: false, value, at: h.clock.now() }),
		)
	return outcomes
}

const failures = (h: Harness) =>
	h.events.flatMap((e) =>
		e.type === 'update' && e.update._ === 'updateMessageSendFailed' && e.userbotId === EVE
			? [(e.update as { error?: { _: string; code: number; message: string } }).error]
			: [],
	)

/** The lounge's texts as Bob reads them, oldest first. */
async function texts(h: Harness): Promise<string[]> {
	const page = () =>
		h.rt.invoke(BOB, {
			_: 'getChatHistory',
			chat_id: LOUNGE,
			from_message_id: 0,
			offset: 0,
			limit: 50,
			only_local: false,
		})
	await page()
	const got = await page()
	return (got.messages ?? [])
		.map((m) => (m?.content as { text?: { text?: string } } | undefined)?.text?.text ?? '')
		.reverse()
}

/** Bob turns the lounge's slow mode on: 10 s between two messages of a member. */
async function slowMode(h: Harness) {
	await h.rt.invoke(BOB, { _: 'setChatSlowModeDelay', chat_id: LOUNGE, slow_mode_delay: 10 })
	await h.settle()
}

describe('slow mode', () => {
	it('governor off: a member’s second message within the delay fails as Telegram’s SLOWMODE_WAIT reaches TDLib', async () => {
		const h = await harness({ governor: null, emulator: { limits: {}, delaySeconds: 2 }, users: USERS })
		try {
			await slowMode(h)
			const outcomes = burst(h, 3)
			await h.runUntil(() => outcomes.length === 3)
			await h.settle()
			// Each answered with a pending message at once; two then fail with retry_after, nothing waited out.
			expect(outcomes.every((o) => o.ok && o.at === 0)).toBe(true)
			expect(failures(h)).toEqual([
				{ _: 'error', code: 429, message: 'Too Many Requests: retry after 10' },
				{ _: 'error', code: 429, message: 'Too Many Requests: retry after 10' },
			])
			expect((await texts(h)).filter((t) => t.startsWith('s'))).toEqual(['s0'])
			// The owner is not held to it.
			await h.rt.invoke(BOB, sendText(LOUNGE, 'b0'))
			await h.rt.invoke(BOB, sendText(LOUNGE, 'b1'))
			expect((await texts(h)).slice(-2)).toEqual(['b0', 'b1'])
		} finally {
			h.close()
		}
	})

	it('governor on: it learns the chat’s slow mode and a burst goes out one per delay, in order, with no error', async () => {
		// No configured limit at all: only the chat's slow mode, as Telegram told it, paces.
		const h = await harness({ governor: {}, emulator: { limits: {}, delaySeconds: 2 }, users: USERS })
		try {
			await slowMode(h)
			const outcomes = burst(h, 3)
			await h.runUntil(() => outcomes.length === 3)
			await h.settle()
			expect(outcomes.map((o) => [o.i, o.ok, o.at])).toEqual([
				[0, true, 0],
				[1, true, 10_000],
				[2, true, 20_000],
			])
			expect(failures(h)).toEqual([])
			expect((await texts(h)).filter((t) => t.startsWith('s'))).toEqual(['s0', 's1', 's2'])
		} finally {
			h.close()
		}
	})

	it('governor on: the slow mode read in an answer (getSupergroupFullInfo) paces too, and its end lets them go', async () => {
		const h = await harness({ governor: {}, emulator: { limits: {}, delaySeconds: 2 }, users: USERS })
		try {
			await slowMode(h)
			// Forget what the update told, then learn it again from the answer alone.
			h.rt.governor?.slowMode(EVE, LOUNGE, 0)
			await h.rt.invoke(EVE, { _: 'getSupergroupFullInfo', supergroup_id: 3001 })
			const first = burst(h, 2)
			await h.runUntil(() => first.length === 2)
			expect(first.map((o) => o.at)).toEqual([0, 10_000])
			expect(failures(h)).toEqual([])
			// Slow mode off: told by the update, the next ones go at once.
			await h.rt.invoke(BOB, { _: 'setChatSlowModeDelay', chat_id: LOUNGE, slow_mode_delay: 0 })
			await h.settle()
			const start = h.clock.now()
			const next = burst(h, 2)
			await h.runUntil(() => next.length === 2)
			expect(next.map((o) => o.at - start)).toEqual([0, 0])
		} finally {
			h.close()
		}
	})

	it('governor on: before a first message to a supergroup it knows nothing of, it asks TDLib its slow mode', async () => {
		const h = await harness({
			governor: {},
			emulator: { limits: {}, delaySeconds: 2 },
			users: [[BOB, '9996621234']],
		})
		try {
			await slowMode(h)
			// Eve logs in after the change: no update ever told her client of it.
			await h.rt.startClient(EVE, { encryptionKey: '' })
			await h.rt.invoke(EVE, { _: 'setAuthenticationPhoneNumber', phone_number: '9996625555' })
			await h.rt.invoke(EVE, { _: 'checkAuthenticationCode', code: '22222' })
			expect(
				h.events.some(
					(e) => e.type === 'update' && e.userbotId === EVE && e.update._ === 'updateSupergroupFullInfo',
				),
			).toBe(false)
			const outcomes = burst(h, 3)
			await h.runUntil(() => outcomes.length === 3)
			await h.settle()
			expect(outcomes.map((o) => [o.i, o.ok, o.at])).toEqual([
				[0, true, 0],
				[1, true, 10_000],
				[2, true, 20_000],
			])
			expect(failures(h)).toEqual([])
		} finally {
			h.close()
		}
	})

	it('the emulator refuses slow mode where Telegram does', async () => {
		const h = await harness({ governor: null, emulator: { limits: {}, delaySeconds: 2 }, users: USERS })
		try {
			const set = (id: number, chat_id: number, slow_mode_delay: number) =>
				h.rt.invoke(id, { _: 'setChatSlowModeDelay', chat_id, slow_mode_delay }).then(
					() => 'ok',
					(e: Error) => e.message,
				)
			expect(await set(EVE, LOUNGE, 10)).toBe('CHAT_ADMIN_REQUIRED')
			expect(await set(BOB, LOUNGE, 7)).toBe('Invalid new value for slow mode delay')
			expect(await set(BOB, SEED_CHATS.basicGroup, 10)).toBe('Chat is not a supergroup')
			expect(await set(BOB, LOUNGE, 30)).toBe('ok')
			const info = await h.rt.invoke(EVE, { _: 'getSupergroupFullInfo', supergroup_id: 3001 })
			expect(info.slow_mode_delay).toBe(30)
			const group = await h.rt.invoke(EVE, { _: 'getSupergroup', supergroup_id: 3001 })
			expect(group.is_slow_mode_enabled).toBe(true)
		} finally {
			h.close()
		}
	})
})
