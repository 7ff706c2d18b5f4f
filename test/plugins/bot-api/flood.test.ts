import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { autoRetry } from '@grammyjs/auto-retry'
import { Bot } from 'grammy'
import { ALICE, aliceHistory, type BotFixture, createBotFixture } from './support'

/**
 * A flood limit of the emulated cloud reaching a Bot API library (docs/bot-api.md#requests-and-answers):
 * one message a chat per 5 s (`EMULATOR_FLOOD_LIMITS`), a wait over 1 s not waited out inside the
 * client, and the gateway's governor off (`FLOOD_LIMITS=off`) so that Telegram's own answer comes
 * through. The face answers `429 Too Many Requests: retry after N` with `parameters.retry_after`;
 * grammY's auto-retry plugin (`@grammyjs/auto-retry`, unchanged) waits the N seconds and sends again,
 * and the message goes out once (a refused send takes no moment of the limit, src/emulator/flood.ts).
 */
let fx: BotFixture
beforeAll(async () => {
	fx = await createBotFixture({
		alice: true,
		env: { EMULATOR_FLOOD_LIMITS: 'send_chat=1/5,delay=1', FLOOD_LIMITS: 'off' },
	})
})
afterAll(() => fx.stop())

type Raw = { ok: boolean; error_code?: number; description?: string; parameters?: { retry_after?: number } }

describe("a flood wait and grammY's auto-retry", () => {
	it('the second message within the limit is 429 with retry_after; auto-retry waits it out and it goes once', async () => {
		const bot = new Bot(fx.token, { client: { apiRoot: fx.f.t.url } })
		// What the face answered each call, as the library read it (installed first: under auto-retry).
		const answers: Raw[] = []
		bot.api.config.use(async (prev, method, payload, signal) => {
			const answer = await prev(method, payload, signal)
			if (method === 'sendMessage') answers.push(answer as Raw)
			return answer
		})
		bot.api.config.use(autoRetry({ maxRetryAttempts: 2 }))
		const first = await bot.api.sendMessage(ALICE, 'flood one')
		const second = await bot.api.sendMessage(ALICE, 'flood two')
		expect(second.text).toBe('flood two')
		expect(second.message_id).toBeGreaterThan(first.message_id)
		expect(answers.map((a) => a.ok)).toEqual([true, false, true])
		const refused = answers[1] as Raw
		const wait = refused.parameters?.retry_after as number
		// Past the client's own 1 s, within the limit's 5 s.
		expect(wait).toBeGreaterThanOrEqual(2)
		expect(wait).toBeLessThanOrEqual(5)
		expect(refused).toEqual({
			ok: false,
			error_code: 429,
			description: `Too Many Requests: retry after ${wait}`,
			parameters: { retry_after: wait },
		})
		// Alice has each message once: the refused send delivered nothing, the retry went.
		const texts = (await aliceHistory(fx.aliceWs, fx.alice, 10)).map(
			(m) => (m.content as { text?: { text?: string } }).text?.text,
		)
		expect(texts.filter((t) => t === 'flood one')).toHaveLength(1)
		expect(texts.filter((t) => t === 'flood two')).toHaveLength(1)
	}, 20_000)
})
