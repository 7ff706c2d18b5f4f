import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type { RequestEvent } from '../../../src/runtime/supervisor/types'
import {
	createLoggedInUserbot,
	createMessagingFixture,
	type MessagingFixture,
	type WsClient,
} from '../../helpers-ws'

/**
 * The one resolver (docs/command-groups.md#reaching-a-person), tried on every command that declares
 * it: each is sent, with its catalog example, to the user id of an account the userbot has never
 * had a chat with, and the resolver must open that private chat (`createPrivateChat`) for it, under
 * the command's own label, whatever the command answers next (many commands make no sense in a
 * private chat: they answer their own error after the chat is known).
 */
let f: MessagingFixture
let ws: WsClient
const seen: RequestEvent[] = []

beforeAll(async () => {
	f = await createMessagingFixture()
	f.t.ctx.runtime?.onRequest((event) => seen.push(event))
	ws = await f.connect()
})
afterAll(() => f.stop())

/** A new account, and its Telegram user id: nobody's chat yet. */
async function stranger(n: number): Promise<number> {
	const userbotId = await createLoggedInUserbot(f.t, f.mallory.companyId, `999663${String(5000 + n)}`)
	const own = await f.connect(f.mallory)
	const me = await own.command({ action: 'get_me', userbot_id: userbotId })
	own.close()
	const id = (me.payload.result as { id?: unknown } | undefined)?.id
	if (typeof id !== 'number') throw new Error(`get_me of a new account: ${JSON.stringify(me.payload)}`)
	return id
}

describe('the resolver on every command that declares it', () => {
	it('opens the private chat of a user id the account does not know yet, for each of them', async () => {
		const declaring = [...f.t.commands.values()]
			.map((e) => e.command)
			.filter((c) => c.methods.includes('createPrivateChat') && c.name !== 'send_message')
		expect(declaring.length).toBeGreaterThan(30)
		const missed: string[] = []
		for (const [i, command] of declaring.entries()) {
			const userId = await stranger(i)
			const before = seen.length
			const example = command.examples?.find((e) => 'chat_id' in e) ?? command.examples?.[0] ?? {}
			// The chat the command acts on: `chat_id`, or where forward_message sends (`to_chat_ids`).
			const target = 'to_chat_ids' in example ? { to_chat_ids: [userId] } : { chat_id: userId }
			const reply = await ws.command({ ...example, action: command.name, userbot_id: f.userbotId, ...target })
			expect(String(reply.payload.type).startsWith(command.name)).toBe(true)
			const opened = seen
				.slice(before)
				.some((e) => e.label === command.name && e.request._ === 'createPrivateChat')
			if (!opened) missed.push(`${command.name}: ${JSON.stringify(reply.payload).slice(0, 160)}`)
		}
		expect(missed).toEqual([])
	}, 120_000)
})
