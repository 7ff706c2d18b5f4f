import { afterAll, beforeAll, expect } from 'bun:test'
import { createMessagingFixture, type MessagingFixture, type WsClient } from '../../helpers-ws'

/**
 * Bob's userbot over the real server, for the chats group's suites: made before the file's tests,
 * stopped after them. `run` sends a command; `ok` expects its success and gives the result; `error`
 * expects `<action>_error` and gives its string.
 */
export function chatsHarness() {
	let f: MessagingFixture
	let c: WsClient
	beforeAll(async () => {
		f = await createMessagingFixture()
		c = await f.connect()
	})
	afterAll(() => f.stop())
	const run = (action: string, fields: Record<string, unknown> = {}) =>
		c.command({ action, userbot_id: f.userbotId, ...fields })
	const ok = async <T>(action: string, fields: Record<string, unknown> = {}) => {
		const reply = await run(action, fields)
		if (reply.payload.type !== action) throw new Error(`${action}: ${reply.payload.error}`)
		return reply.payload.result as T
	}
	const error = async (action: string, fields: Record<string, unknown>) => {
		const reply = await run(action, fields)
		expect(reply.payload.type).toBe(`${action}_error`)
		return reply.payload.error
	}
	return { run, ok, error }
}
