import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type * as Td from 'tdlib-types'
import { SEED_CHATS } from '../../src/emulator'
import type { TdRequest } from '../../src/runtime/telegram/types'
import { bareInteger, createMessagingFixture, type MessagingFixture, type WsClient } from '../helpers-ws'

/**
 * Every kind of int64 a command takes, sent as a JSON integer (as a Python or Go client writes it) and
 * as a string of digits, over the real WebSocket, gateway, supervisor and emulator: each keeps its
 * exact value. The requests that reach the runtime are recorded on their way to the supervisor.
 */
let f: MessagingFixture
let c: WsClient
const sent: TdRequest[] = []
const TWO_53 = 2n ** 53n
const M = (serverId: number) => serverId * 2 ** 20

beforeAll(async () => {
	f = await createMessagingFixture()
	c = await f.connect()
	const runtime = f.t.ctx.runtime!
	const invoke = runtime.invoke.bind(runtime)
	runtime.invoke = ((userbotId, request, opts) => {
		sent.push(request)
		return invoke(userbotId, request, opts)
	}) as typeof runtime.invoke
})
afterAll(() => f.stop())

const run = async (action: string, fields: Record<string, unknown>) =>
	(await c.command({ action, userbot_id: f.userbotId, ...fields })).payload
/** The requests of one command, by method. */
async function requestsOf(action: string, fields: Record<string, unknown>, method: string) {
	sent.length = 0
	const payload = await run(action, fields)
	return { payload, requests: sent.filter((r) => r._ === method) }
}
const sessions = async () =>
	((await run('get_active_sessions', {})).result as Td.sessions).sessions.filter((s) => !s.is_current)

describe('int64 fields sent as JSON integers', () => {
	it('session ids: terminate_session and set_session_settings act on the very session named', async () => {
		const [first, second] = await sessions()
		expect(BigInt(first!.id) > TWO_53 && BigInt(second!.id) > TWO_53).toBe(true)
		// The digits as a bare JSON integer: today's refusal ("must be sent as a string") is gone.
		expect(
			await run('set_session_settings', { session_id: bareInteger(first!.id), can_accept_calls: false }),
		).toMatchObject({ type: 'set_session_settings', result: { _: 'ok' } })
		expect((await sessions()).find((s) => s.id === first!.id)).toMatchObject({ can_accept_calls: false })
		expect(await run('terminate_session', { session_id: bareInteger(second!.id) })).toMatchObject({
			type: 'terminate_session',
			result: { _: 'ok' },
		})
		const left = (await sessions()).map((s) => s.id)
		expect(left).toContain(first!.id)
		expect(left).not.toContain(second!.id)
		// Past the int64 range, an integer still: said so.
		expect(await run('terminate_session', { session_id: bareInteger('9223372036854775808') })).toMatchObject({
			error: 'session_id must be a 64-bit integer',
		})
	})

	it('event ids: get_chat_recent_actions sends from_event_id digit for digit', async () => {
		for (const id of [bareInteger('9223372036854775807'), '9223372036854775807']) {
			const { payload, requests } = await requestsOf(
				'get_chat_recent_actions',
				{ chat_id: SEED_CHATS.supergroup, from_event_id: id },
				'getChatEventLog',
			)
			expect(payload.type).toBe('get_chat_recent_actions')
			expect(requests).toMatchObject([{ from_event_id: '9223372036854775807' }])
		}
	})

	it('int64 fields inside TDLib objects: a custom emoji id reaches TDLib whole', async () => {
		const { payload, requests } = await requestsOf(
			'set_reaction',
			{
				chat_id: SEED_CHATS.supergroup,
				message_id: M(1),
				reaction: { '@type': 'reactionTypeCustomEmoji', custom_emoji_id: bareInteger('5368324170671202286') },
			},
			'addMessageReaction',
		)
		expect(requests).toMatchObject([
			{ reaction_type: { _: 'reactionTypeCustomEmoji', custom_emoji_id: '5368324170671202286' } },
		])
		// The emulator knows no custom emoji: TDLib's answer, to the request that carried the right id.
		expect(payload).toMatchObject({
			type: 'set_reaction_error',
			error: "The reaction isn't available for the message",
		})
	})

	it('chat ids of supergroups, message ids and user ids: a JSON integer and a string name the same', async () => {
		for (const form of [
			{ chat_id: SEED_CHATS.supergroup, message_id: M(2) },
			{ chat_id: String(SEED_CHATS.supergroup), message_id: String(M(2)) },
			{ chat_id: bareInteger(String(SEED_CHATS.supergroup)), message_id: bareInteger(String(M(2))) },
		]) {
			const { payload, requests } = await requestsOf('pin_message', form, 'pinChatMessage')
			expect(payload.type).toBe('pin_message')
			expect(requests).toMatchObject([{ chat_id: -1000000003001, message_id: M(2) }])
		}
		for (const user_id of [1005, '1005', bareInteger('1005')]) {
			const { payload, requests } = await requestsOf('block_user', { user_id }, 'setMessageSenderBlockList')
			expect(payload.type).toBe('block_user')
			expect(requests).toMatchObject([{ sender_id: { _: 'messageSenderUser', user_id: 1005 } }])
		}
	})

	it('an int53 id past 2^53 is out of range, not "no integer", and nothing is sent', async () => {
		for (const [field, frame] of [
			['chat_id', { chat_id: bareInteger('-1009007199254740993'), message_id: M(2) }],
			['message_id', { chat_id: SEED_CHATS.supergroup, message_id: bareInteger('9007199254740993') }],
		] as const) {
			const { payload } = await requestsOf('pin_message', frame, 'pinChatMessage')
			expect(payload).toMatchObject({ type: 'pin_message_error', error: `${field} is out of range` })
			expect(sent).toEqual([])
		}
		const { payload } = await requestsOf('block_user', { user_id: bareInteger('12345678901234567890') }, '-')
		expect(payload).toMatchObject({ error: 'user_id is out of range' })
		expect(sent).toEqual([])
	})

	it('a JSON integer past 2^53 is no string: a text field refuses it', async () => {
		const payload = await run('send_message', { chat_id: 1001, text: bareInteger('12345678901234567890') })
		expect(payload).toMatchObject({
			type: 'send_message_error',
			error: 'text must be a string or a formattedText object',
		})
		const password = await run('verify_2fa_password', { password: bareInteger('12345678901234567890') })
		expect(password).toMatchObject({ error: 'password must be a string' })
	})
})
