import { expect } from 'bun:test'
import { userbot } from '../../../db/schema'
import { type EmulatorRequest, emulatorRequest } from '../../../src/emulator'
import type { TestInstance } from '../../helpers'
import type { WsClient } from '../../helpers-ws'

/** Phones of accounts registered by these tests (test DC 2): none of them is a seed account. */
let nextPhone = 7000

/**
 * Inserts a userbot of the company and logs it in on the emulator: a seed account by its phone (and
 * its 2FA password when it has one), or, without a phone, a brand-new account, registered now, with
 * no password: each test gets a 2FA state no other test touches.
 */
export async function loginUserbot(
	t: TestInstance,
	companyId: number,
	account: { phone?: string; password?: string } = {},
): Promise<number> {
	const runtime = t.ctx.runtime
	if (!runtime) throw new Error('no runtime')
	const [row] = await t.ctx.db
		.insert(userbot)
		.values({ companyId, name: 'security', encryptionKey: Buffer.from('security-key').toString('base64') })
		.returning({ id: userbot.id })
	const id = row!.id
	const phone = account.phone ?? `999662${nextPhone++}`
	await runtime.startClient(id, { encryptionKey: Buffer.from(`key-${id}`).toString('base64') })
	await runtime.invoke(id, { _: 'setAuthenticationPhoneNumber', phone_number: phone })
	await runtime.invoke(id, { _: 'checkAuthenticationCode', code: phone.charAt(5).repeat(5) })
	if (!account.phone) await runtime.invoke(id, { _: 'registerUser', first_name: 'Sec', last_name: 'Test' })
	if (account.password !== undefined)
		await runtime.invoke(id, { _: 'checkAuthenticationPassword', password: account.password })
	const until = Date.now() + 5000
	while (runtime.authorizationState(id) !== 'authorizationStateReady') {
		if (Date.now() > until) throw new Error(`userbot ${id}: ${runtime.authorizationState(id)}`)
		await Bun.sleep(5)
	}
	return id
}

/** What an emulator-only request answers for this userbot (reading the mail, a session's age). */
export const emulator = (t: TestInstance, userbotId: number, req: EmulatorRequest) =>
	t.ctx.runtime!.invoke(userbotId, emulatorRequest(req)) as Promise<unknown>

/** The last code the emulated Telegram mailed to `address`. */
export const readMail = async (t: TestInstance, userbotId: number, address: string) =>
	((await emulator(t, userbotId, { _: 'emulatorReadMail', email_address: address })) as { text: string }).text

/** A code that is not `code` (same length, digits). */
export const otherCode = (code: string) => (code === '000000' ? '111111' : '000000')

/** Commands of one userbot over one socket. */
export function commandsOf(c: WsClient, userbotId: number) {
	const run = (action: string, fields: Record<string, unknown> = {}) =>
		c.command({ action, userbot_id: userbotId, ...fields })
	const ok = async (action: string, fields: Record<string, unknown> = {}) => {
		const reply = await run(action, fields)
		expect(reply.payload).toMatchObject({ type: action })
		expect(reply.payload.error).toBeUndefined()
		return reply.payload.result
	}
	const errorOf = async (action: string, fields: Record<string, unknown> = {}) => {
		const reply = await run(action, fields)
		expect(reply.payload.type).toBe(`${action}_error`)
		return reply.payload.error
	}
	return { run, ok, errorOf }
}
