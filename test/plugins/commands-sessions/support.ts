import { expect } from 'bun:test'
import type * as Td from 'tdlib-types'
import { userbot } from '../../../db/schema'
import { type EmulatorRequest, emulatorRequest } from '../../../src/emulator'
import type { TestInstance } from '../../helpers'
import type { MessagingFixture, WsClient } from '../../helpers-ws'

/** Sends `action` for the fixture's userbot (or `userbotId`) and returns the reply's payload. */
export function runner(f: MessagingFixture, c: WsClient) {
	const run = async (action: string, fields: Record<string, unknown> = {}, userbotId = f.userbotId) =>
		(await c.command({ action, userbot_id: userbotId, ...fields })).payload
	const ok = async (action: string, fields: Record<string, unknown> = {}, userbotId = f.userbotId) => {
		const payload = await run(action, fields, userbotId)
		expect(payload).toMatchObject({ type: action })
		return payload.result
	}
	const errorOf = async (action: string, fields: Record<string, unknown> = {}, userbotId = f.userbotId) => {
		const payload = await run(action, fields, userbotId)
		expect(payload.type).toBe(`${action}_error`)
		return payload.error
	}
	return { run, ok, errorOf }
}

/** An emulator-only request straight to the userbot's client (fault injection). */
export const emulate = (t: TestInstance, userbotId: number, request: EmulatorRequest) =>
	t.ctx.runtime!.invoke(userbotId, emulatorRequest(request))

/**
 * A userbot of the company logged in to an account the emulator registers now (a new test phone):
 * an account minutes old, whose session Telegram counts as fresh.
 */
export async function createNewAccountUserbot(t: TestInstance, companyId: number, phone: string) {
	const runtime = t.ctx.runtime!
	const [row] = await t.ctx.db
		.insert(userbot)
		.values({ companyId, name: 'new', encryptionKey: Buffer.from('test-key-0123456789').toString('base64') })
		.returning({ id: userbot.id })
	const id = row!.id
	await runtime.startClient(id, { encryptionKey: Buffer.from(`key-${id}`).toString('base64') })
	await runtime.invoke(id, { _: 'setAuthenticationPhoneNumber', phone_number: phone })
	await runtime.invoke(id, { _: 'checkAuthenticationCode', code: phone.charAt(5).repeat(5) })
	await runtime.invoke(id, {
		_: 'registerUser',
		first_name: 'Newcomer',
		last_name: '',
		disable_notification: true,
	})
	const until = Date.now() + 5000
	while (runtime.authorizationState(id) !== 'authorizationStateReady') {
		if (Date.now() > until) throw new Error(`userbot ${id}: ${runtime.authorizationState(id)}`)
		await Bun.sleep(5)
	}
	return id
}

export type Sessions = Td.sessions
