import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { Bot } from 'grammy'
import { SEED_CHATS } from '../../../src/emulator'
import type { MessagingFixture, WsClient } from '../../helpers-ws'
import { ALICE, BOB, catSent, createBotFixture, post, resultOf } from './support'

/**
 * The Bot API face's message methods (docs/bot-api.md#methods) over the emulator: forwards and
 * copies, deletes, pins, reactions, and the user mode's getMessages, searchMessages and
 * searchChatMessages; each on the command it maps onto. Bob (1002) is the token's userbot.
 */
// ALICE: Bob's private chat with Alice in the seed.
const GROUP = SEED_CHATS.supergroup
let f: MessagingFixture
let ws: WsClient
let token: string
beforeAll(async () => {
	;({ f, token } = await createBotFixture({ cat: true }))
	ws = await f.connect()
})
afterAll(() => f.stop())

const call = async (method: string, body: Record<string, unknown>) =>
	(await post(f, token, method, body)).body
type M = Record<string, unknown> & { message_id: number }
const result = <T = M>(method: string, body: Record<string, unknown>) => resultOf<T>(f, token, method, body)
const sent = (text: string, chat = ALICE) => result('sendMessage', { chat_id: chat, text })
/** A message as the command sees it (its TDLib id is the Bot API's × 2^20). */
const tdMessage = async (chat: number, id: number) =>
	(
		await ws.command({
			action: 'get_message',
			userbot_id: f.userbotId,
			chat_id: chat,
			message_id: id * 2 ** 20,
		})
	).payload
const gone = async (chat: number, id: number) => (await tdMessage(chat, id)).error === 'Message not found'

describe('forwards and copies', () => {
	it('forwardMessage forwards one message: a Message with its forward_origin', async () => {
		const m = await sent('to forward')
		const fwd = await result('forwardMessage', {
			chat_id: GROUP,
			from_chat_id: ALICE,
			message_id: m.message_id,
		})
		expect(fwd).toMatchObject({
			chat: { id: GROUP, type: 'supergroup' },
			text: 'to forward',
			forward_origin: { type: 'user', sender_user: { id: BOB } },
		})
		expect(fwd.message_id).not.toBe(m.message_id)
		expect((await call('forwardMessage', { chat_id: GROUP, from_chat_id: ALICE })).description).toBe(
			'Bad Request: message identifier is not specified',
		)
	})

	it('takes @username for chat_id and from_chat_id: forwarded to and copied from a public group by its name', async () => {
		const m = await sent('to the lounge by its name')
		const fwd = await result('forwardMessage', {
			chat_id: '@emulator_lounge',
			from_chat_id: ALICE,
			message_id: m.message_id,
		})
		expect(fwd).toMatchObject({ chat: { id: GROUP }, text: 'to the lounge by its name' })
		const copies = await result<Array<{ message_id: number }>>('copyMessages', {
			chat_id: ALICE,
			from_chat_id: '@emulator_lounge',
			message_ids: [fwd.message_id],
		})
		expect(copies).toHaveLength(1)
		const copy = await tdMessage(ALICE, (copies[0] as { message_id: number }).message_id)
		expect(copy.result).toMatchObject({ content: { text: { text: 'to the lounge by its name' } } })
		const nobody = { chat_id: '@nobody_at_all', from_chat_id: ALICE, message_id: m.message_id }
		expect((await call('forwardMessage', nobody)).description).toBe('Bad Request: chat not found')
	})

	it('forwardMessages and copyMessages answer the MessageIds; a copy has no forward origin', async () => {
		const a = await sent('one')
		const b = await sent('two')
		const ids = await result<Array<{ message_id: number }>>('forwardMessages', {
			chat_id: GROUP,
			from_chat_id: ALICE,
			message_ids: [b.message_id, a.message_id],
		})
		expect(ids).toHaveLength(2)
		const copies = await result<Array<{ message_id: number }>>('copyMessages', {
			chat_id: GROUP,
			from_chat_id: ALICE,
			message_ids: [a.message_id, b.message_id],
		})
		expect(copies).toHaveLength(2)
		const copy = (await tdMessage(GROUP, copies[0]!.message_id)).result as Record<string, unknown>
		expect(copy.forward_info).toBeUndefined()
		expect(copy.content).toMatchObject({ text: { text: 'one' } })
		const forward = (await tdMessage(GROUP, ids[0]!.message_id)).result as Record<string, unknown>
		expect(forward.forward_info).toMatchObject({ origin: { sender_user_id: BOB } })
	})

	it('copyMessage copies a photo with a new caption, parsed by TDLib; refuses a reply it cannot make', async () => {
		const id = await catSent(ws, f.userbotId, 'orig')
		const copy = await result<{ message_id: number }>('copyMessage', {
			chat_id: GROUP,
			from_chat_id: ALICE,
			message_id: id,
			caption: '<b>new</b> caption',
			parse_mode: 'HTML',
		})
		expect(Object.keys(copy)).toEqual(['message_id'])
		const td = (await tdMessage(GROUP, copy.message_id)).result as { content: Record<string, unknown> }
		expect(td.content).toMatchObject({
			_: 'messagePhoto',
			caption: {
				text: 'new caption',
				entities: [{ offset: 0, length: 3, type: { _: 'textEntityTypeBold' } }],
			},
		})
		expect(
			(
				await call('copyMessage', {
					chat_id: GROUP,
					from_chat_id: ALICE,
					message_id: id,
					reply_parameters: { message_id: 1 },
				})
			).description,
		).toBe('Bad Request: a copy can not be sent as a reply yet')
	})
})

describe('deleting, pinning, reacting', () => {
	it('deleteMessages deletes several; a bad list is refused without the value', async () => {
		const a = await sent('del a')
		const b = await sent('del b')
		expect(
			await call('deleteMessages', { chat_id: ALICE, message_ids: [a.message_id, b.message_id] }),
		).toEqual({
			ok: true,
			result: true,
		})
		expect([await gone(ALICE, a.message_id), await gone(ALICE, b.message_id)]).toEqual([true, true])
		expect((await call('deleteMessages', { chat_id: ALICE, message_ids: [] })).description).toBe(
			'Bad Request: message_ids is empty',
		)
		const bad = await call('deleteMessages', { chat_id: ALICE, message_ids: ['secret'] })
		expect(bad.description).toBe('Bad Request: invalid message_ids specified')
		expect(
			(
				await call('deleteMessages', {
					chat_id: ALICE,
					message_ids: Array.from({ length: 101 }, (_, i) => i + 1),
				})
			).description,
		).toBe('Bad Request: too many message_ids specified')
	})

	it('pinChatMessage, unpinChatMessage and unpinAllChatMessages', async () => {
		const a = await sent('pin a')
		const b = await sent('pin b')
		const pinned = async (id: number) =>
			((await tdMessage(ALICE, id)).result as { is_pinned: boolean }).is_pinned
		for (const m of [a, b])
			expect(
				await call('pinChatMessage', {
					chat_id: ALICE,
					message_id: m.message_id,
					disable_notification: true,
				}),
			).toEqual({
				ok: true,
				result: true,
			})
		expect([await pinned(a.message_id), await pinned(b.message_id)]).toEqual([true, true])
		expect(await call('unpinChatMessage', { chat_id: ALICE, message_id: a.message_id })).toEqual({
			ok: true,
			result: true,
		})
		expect([await pinned(a.message_id), await pinned(b.message_id)]).toEqual([false, true])
		expect(await call('unpinAllChatMessages', { chat_id: ALICE })).toEqual({ ok: true, result: true })
		expect(await pinned(b.message_id)).toBe(false)
		expect((await call('unpinChatMessage', { chat_id: ALICE })).description).toBe(
			'Bad Request: message_id is required: the most recent pinned message is not looked up',
		)
	})

	it("setMessageReaction sets the account's reactions: replaces them, and an empty list removes them", async () => {
		const m = await sent('react to me')
		const reactions = async () => {
			const td = (await tdMessage(ALICE, m.message_id)).result as {
				interaction_info?: {
					reactions: { reactions: Array<{ type: { emoji: string }; is_chosen: boolean }> }
				}
			}
			return (td.interaction_info?.reactions.reactions ?? [])
				.filter((r) => r.is_chosen)
				.map((r) => r.type.emoji)
		}
		const set = (reaction: unknown) =>
			call('setMessageReaction', { chat_id: ALICE, message_id: m.message_id, reaction, is_big: true })
		expect(await set([{ type: 'emoji', emoji: '👍' }])).toEqual({ ok: true, result: true })
		expect(await reactions()).toEqual(['👍'])
		expect(await set([{ type: 'emoji', emoji: '🔥' }])).toEqual({ ok: true, result: true })
		expect(await reactions()).toEqual(['🔥'])
		expect(await set([])).toEqual({ ok: true, result: true })
		expect(await reactions()).toEqual([])
		expect((await set([{ type: 'paid' }])).description).toBe('Bad Request: invalid reaction specified')
	})
})

describe("the user mode's reading extras", () => {
	it('getMessages answers the messages it finds, in order, leaving out those it does not', async () => {
		const a = await sent('get a')
		const b = await sent('get b')
		const got = await result<M[]>('getMessages', {
			chat_id: ALICE,
			message_ids: [b.message_id, 999_999, a.message_id],
		})
		expect(got.map((m) => [m.message_id, m.text])).toEqual([
			[b.message_id, 'get b'],
			[a.message_id, 'get a'],
		])
	})

	it('searchMessages and searchChatMessages answer Bot API Messages, paged by the ids the Bot API uses', async () => {
		await sent('needle in private')
		await sent('needle in the group', GROUP)
		const all = await result<{ total_count: number; messages: M[]; next_offset: string }>('searchMessages', {
			query: 'needle',
		})
		expect(all.messages.map((m) => m.text).sort()).toEqual(['needle in private', 'needle in the group'])
		expect(typeof all.next_offset).toBe('string')
		const groups = await result<{ messages: M[] }>('searchMessages', {
			query: 'needle',
			chat_filter: 'group',
		})
		expect(groups.messages.map((m) => m.text)).toEqual(['needle in the group'])
		const inChat = await result<{ total_count: number; messages: M[]; next_from_message_id: number }>(
			'searchChatMessages',
			{ chat_id: GROUP, query: 'needle', sender_user_id: BOB, limit: 1 },
		)
		expect(inChat.messages).toHaveLength(1)
		expect(inChat.messages[0]).toMatchObject({ text: 'needle in the group', from: { id: BOB } })
		expect(Number.isSafeInteger(inChat.next_from_message_id) && inChat.next_from_message_id < 2 ** 20).toBe(
			true,
		)
	})
})

describe('grammY, unchanged', () => {
	it('forwards, copies, pins and deletes through Bot.api', async () => {
		const bot = new Bot(token, { client: { apiRoot: f.t.url } })
		const m = await bot.api.sendMessage(ALICE, 'via grammY')
		const fwd = await bot.api.forwardMessage(GROUP, ALICE, m.message_id)
		expect(fwd).toMatchObject({ text: 'via grammY', forward_origin: { type: 'user' } })
		const copy = await bot.api.copyMessage(GROUP, ALICE, m.message_id)
		expect(typeof copy.message_id).toBe('number')
		expect(await bot.api.pinChatMessage(ALICE, m.message_id)).toBe(true)
		expect(await bot.api.unpinAllChatMessages(ALICE)).toBe(true)
		expect(await bot.api.deleteMessages(GROUP, [fwd.message_id, copy.message_id])).toBe(true)
	})
})
