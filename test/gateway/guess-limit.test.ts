import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type { RequestEvent } from '../../src/runtime/supervisor/types'
import { getTestInstance, type TestInstance } from '../helpers'
import { type ChatUpdate, connectWs, registerUser, type TestUser, type WsClient } from '../helpers-ws'
import { loginUserbot } from '../plugins/commands-security/support'
import { companyCall } from './company'

/**
 * The commands and log-in steps that check a password or code count each try against one limit per
 * userbot (GUESS_RATE_LIMIT per GUESS_RATE_WINDOW), counted in the same atomic step that checks it:
 * tries sent all at once cannot pass it together. A right guess is given back.
 */
const LIMIT = 3
const TOO_MANY = 'too many password or code attempts, try again later'

let t: TestInstance
let owner: TestUser
let c: WsClient
const seen: RequestEvent[] = []
beforeAll(async () => {
	t = await getTestInstance({ GUESS_RATE_LIMIT: String(LIMIT) })
	t.ctx.runtime?.onRequest((event) => seen.push(event))
	owner = await registerUser(t, `guesser-${Date.now()}@example.com`)
	c = await connectWs(t.url, { bearer: owner.access })
})
afterAll(async () => {
	c.close()
	await t.stop()
})

const send = (frame: Record<string, unknown>) => c.command(frame)
/** A fresh account with a 2FA password (setting it is a try too, right, so given back). */
async function withPassword(password: string) {
	const id = await loginUserbot(t, owner.companyId)
	const set = await send({
		action: 'change_2fa_password',
		userbot_id: id,
		current_password: 'none set yet',
		new_password: password,
	})
	expect(set.payload.error).toBeUndefined()
	return id
}
const errorOf = (reply: ChatUpdate) => reply.payload.error ?? 'ok'

describe('the guess limit', () => {
	it('lets exactly the limit through of wrong passwords sent all at once, then refuses every guessing command', async () => {
		const id = await withPassword('right-Pass-1')
		const other = await withPassword('other-Pass-1')
		const before = seen.length
		// Every write of the app waits while the test holds the write turn: a limit read in one step and
		// written in another would let all ten through, as their reads would all see no try yet.
		let release = () => {}
		let started = () => {}
		const holding = new Promise<void>((resolve) => {
			started = resolve
		})
		const held = t.ctx.db.transaction(async () => {
			started()
			await new Promise<void>((resolve) => {
				release = resolve
			})
		})
		await holding
		const pending = Array.from({ length: 10 }, () =>
			send({ action: 'verify_2fa_password', userbot_id: id, password: 'wrong-Pass-0' }),
		)
		// Answered after a round trip to TDLib: by then the gateway has taken the ten frames before it
		// as far as their counts (the embedded driver answers reads at once).
		expect(errorOf(await send({ action: 'get_password_state', userbot_id: id }))).toBe('ok')
		expect(seen.slice(before).filter((e) => e.request._ === 'getRecoveryEmailAddress')).toEqual([])
		release()
		await held
		const replies = await Promise.all(pending)
		const errors = replies.map(errorOf).sort()
		expect(errors).toEqual([
			...Array.from({ length: LIMIT }, () => 'PASSWORD_HASH_INVALID'),
			...Array.from({ length: 10 - LIMIT }, () => TOO_MANY),
		])
		// Only the counted tries reached TDLib.
		expect(seen.slice(before).filter((e) => e.request._ === 'getRecoveryEmailAddress')).toHaveLength(LIMIT)
		const refused = replies.find((r) => r.payload.error === TOO_MANY)
		const retryAfter = (refused?.payload.result as { retry_after?: number } | undefined)?.retry_after ?? 0
		expect(retryAfter).toBeGreaterThan(0)
		expect(retryAfter).toBeLessThanOrEqual(900)

		// Past the limit even the right password waits, and so does every command that checks one.
		const frames = [
			{ action: 'verify_2fa_password', password: 'right-Pass-1' },
			{ action: 'check_password_recovery_code', recovery_code: '123456' },
			{ action: 'recover_password', recovery_code: '123456', new_password: 'x-Pass-2' },
			{ action: 'change_2fa_password', current_password: 'right-Pass-1', new_password: 'x-Pass-2' },
			{ action: 'disable_2fa_password', current_password: 'right-Pass-1' },
			{
				action: 'change_2fa_recovery_email',
				current_password: 'right-Pass-1',
				new_recovery_email_address: 'a@b.cd',
			},
			{ action: 'transfer_chat_ownership', chat_id: -1000000003001, user_id: 1001, password: 'right-Pass-1' },
			{ action: 'userbot_submit_code', code: '22222' },
			{ action: 'userbot_submit_password', password: 'right-Pass-1' },
		]
		for (const frame of frames) {
			const reply = await send({ ...frame, userbot_id: id })
			expect({ action: frame.action, error: reply.payload.error }).toEqual({
				action: frame.action,
				error: TOO_MANY,
			})
		}
		// Another userbot has its own count; a command that checks nothing is not counted.
		expect(
			errorOf(await send({ action: 'verify_2fa_password', userbot_id: other, password: 'other-Pass-1' })),
		).toBe('ok')
		expect(errorOf(await send({ action: 'get_password_state', userbot_id: id }))).toBe('ok')
	})

	it('gives a right guess back: the owner who knows the password is never locked out', async () => {
		const id = await withPassword('known-Pass-1')
		for (let i = 0; i < LIMIT * 3; i++)
			expect(
				errorOf(await send({ action: 'verify_2fa_password', userbot_id: id, password: 'known-Pass-1' })),
			).toBe('ok')
		// The wrong ones still count.
		for (let i = 0; i < LIMIT; i++)
			expect(
				errorOf(await send({ action: 'verify_2fa_password', userbot_id: id, password: 'nope-Pass-1' })),
			).toBe('PASSWORD_HASH_INVALID')
		expect(
			errorOf(await send({ action: 'verify_2fa_password', userbot_id: id, password: 'known-Pass-1' })),
		).toBe(TOO_MANY)
	})

	it('counts the REST log-in steps on the same limit, answered 429 with Retry-After', async () => {
		const call = companyCall(t)
		const created = await call('POST', '/api/userbots/', owner.access, { name: 'log-in' })
		const { id } = (await created.json()) as { id: number }
		expect(
			(await call('POST', `/api/userbots/${id}/phone/`, owner.access, { phone_number: '9996611111' })).status,
		).toBe(200)
		for (let i = 0; i < LIMIT; i++) {
			const wrong = await call('POST', `/api/userbots/${id}/code/`, owner.access, { code: '00000' })
			expect(wrong.status).toBe(400)
		}
		const throttled = await call('POST', `/api/userbots/${id}/code/`, owner.access, { code: '11111' })
		expect(throttled.status).toBe(429)
		expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0)
		expect(((await throttled.json()) as { code: string }).code).toBe('throttled')
		expect(errorOf(await send({ action: 'userbot_submit_code', userbot_id: id, code: '11111' }))).toBe(
			TOO_MANY,
		)
	})
})
