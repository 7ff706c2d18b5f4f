import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { SEED_CHATS } from '../../../src/emulator'
import { createMessagingFixture, type MessagingFixture, type WsClient } from '../../helpers-ws'

let f: MessagingFixture
let c: WsClient
const ALICE = 1001 // Bob's private chat with Alice: messages 1 (Bob), 2 (Alice), 3 (Bob)
const TELEGRAM = 777000
const M = (serverId: number) => serverId * 2 ** 20

beforeAll(async () => {
	f = await createMessagingFixture()
	c = await f.connect()
})
afterAll(() => f.stop())

const run = (action: string, fields: Record<string, unknown> = {}) =>
	c.command({ action, userbot_id: f.userbotId, ...fields })
const errorOf = async (action: string, fields: Record<string, unknown> = {}) => {
	const reply = await run(action, fields)
	expect(reply.payload.type).toBe(`${action}_error`)
	return reply.payload.error
}
type Msg = {
	id: number
	chat_id: number
	is_pinned: boolean
	content: { text?: { text: string } }
	interaction_info?: unknown
}
/** The id of the chat's last message: it moves on with every message sent there. */
const lastMessageId = async (chat_id: number) =>
	(
		(await f.t.ctx.runtime!.invoke(f.userbotId, { _: 'getChat', chat_id })) as {
			last_message?: { id: number }
		}
	).last_message?.id
const getMessage = (chat_id: number, message_id: number) =>
	f.t.ctx.runtime!.invoke(f.userbotId, { _: 'getMessage', chat_id, message_id }) as Promise<Msg>

describe('delete_messages', () => {
	it('deletes messages', async () => {
		const sent = (await run('send_message', { chat_id: ALICE, text: 'to be deleted' })).payload.result as Msg
		await Bun.sleep(10)
		const final = sent.id - 1 // the emulator's temporary id is one above the final one
		const reply = await run('delete_messages', { chat_id: ALICE, message_ids: [final], revoke: true })
		expect(reply.payload).toMatchObject({ type: 'delete_messages', result: { _: 'ok' } })
		await expect(getMessage(ALICE, final)).rejects.toThrow('Message not found')
	})

	it('answers its validation errors and TDLib errors', async () => {
		expect(await errorOf('delete_messages', { message_ids: [1] })).toBe('chat_id is required')
		expect(await errorOf('delete_messages', { chat_id: ALICE })).toBe('message_ids is required')
		expect(await errorOf('delete_messages', { chat_id: ALICE, message_ids: 'all' })).toBe(
			'message_ids must be a list of integers',
		)
		expect(await errorOf('delete_messages', { chat_id: 424242, message_ids: [M(1)] })).toBe('Chat not found')
		expect(await errorOf('delete_messages', { chat_id: ALICE, message_ids: [-5] })).toBe(
			'Invalid message identifier',
		)
	})
})

describe('forward_message', () => {
	it('forwards to each target with ids sorted and unique', async () => {
		const reply = await run('forward_message', {
			to_chat_ids: [SEED_CHATS.supergroup, SEED_CHATS.basicGroup],
			from_chat_id: ALICE,
			message_ids: [M(2), M(1), M(2)],
		})
		expect(reply.payload.type).toBe('forward_message')
		const result = reply.payload.result as Array<{ to_chat_id: number; messages: Msg[] }>
		expect(result.map((r) => r.to_chat_id)).toEqual([SEED_CHATS.supergroup, SEED_CHATS.basicGroup])
		for (const r of result) {
			expect(r.messages.map((m) => m.content.text?.text)).toEqual(['Hi Alice', 'Hi Bob'])
			expect(r.messages.every((m) => m.chat_id === r.to_chat_id)).toBe(true)
		}
	})

	it('copies with a new caption through inputMessageForwarded', async () => {
		const photo = await run('send_message', {
			chat_id: ALICE,
			media_type: 'photo',
			media: { file: 'https://example.com/cat.jpg', caption: 'old caption' },
		})
		const photoId = (photo.payload.result as Msg).id - 1 // the final id, one below the temporary one
		const reply = await run('forward_message', {
			to_chat_ids: [SEED_CHATS.supergroup],
			from_chat_id: ALICE,
			message_ids: [photoId, M(1)],
			new_caption: 'fresh caption',
			show_caption_above_media: true,
		})
		expect(reply.payload.type).toBe('forward_message')
		const [target] = reply.payload.result as Array<{
			to_chat_id: number
			messages: Array<Msg & { content: Record<string, unknown>; forward_info?: unknown }>
		}>
		expect(target!.to_chat_id).toBe(SEED_CHATS.supergroup)
		// Sorted: the seed's text message first (kept as it is), then the photo with its new caption.
		expect(target!.messages.map((m) => m.content._)).toEqual(['messageText', 'messagePhoto'])
		expect(target!.messages[1]!.content).toMatchObject({
			caption: { text: 'fresh caption' },
			show_caption_above_media: true,
		})
		expect(
			target!.messages.every((m) => m.forward_info === undefined && m.chat_id === target!.to_chat_id),
		).toBe(true)
		expect(
			await errorOf('forward_message', {
				to_chat_ids: [SEED_CHATS.supergroup],
				from_chat_id: ALICE,
				message_ids: [M(999)],
				new_caption: 'x',
			}),
		).toBe("The message can't be copied")
	})

	it('keeps the original caption when only show_caption_above_media is given (moved, not stripped)', async () => {
		const photo = await run('send_message', {
			chat_id: ALICE,
			media_type: 'photo',
			media: { file: 'https://example.com/dog.jpg', caption: 'the caption stays' },
		})
		const photoId = (photo.payload.result as Msg).id - 1
		const reply = await run('forward_message', {
			to_chat_ids: [SEED_CHATS.supergroup],
			from_chat_id: ALICE,
			message_ids: [M(1), photoId],
			show_caption_above_media: true,
		})
		expect(reply.payload.type).toBe('forward_message')
		const [target] = reply.payload.result as Array<{
			messages: Array<Msg & { content: Record<string, unknown> }>
		}>
		// A text message has no caption to keep; the photo keeps its own, now above the media.
		expect(target!.messages[0]!.content).toMatchObject({ _: 'messageText', text: { text: 'Hi Alice' } })
		expect(target!.messages[1]!.content).toMatchObject({
			_: 'messagePhoto',
			caption: { text: 'the caption stays' },
			show_caption_above_media: true,
		})
	})

	it('reports a partial failure with the per-target results', async () => {
		const reply = await run('forward_message', {
			to_chat_ids: [SEED_CHATS.supergroup, 424242],
			from_chat_id: ALICE,
			message_ids: [M(1)],
		})
		expect(reply.payload).toMatchObject({
			type: 'forward_message_error',
			error: 'Chat to forward messages to not found',
		})
		const result = reply.payload.result as Array<{ to_chat_id: number; messages?: Msg[]; error?: string }>
		expect(result[0]!.messages).toHaveLength(1)
		expect(result[1]).toEqual({ to_chat_id: 424242, error: 'Chat to forward messages to not found' })
	})

	it('refuses more than 100 targets or message ids, before any forward', async () => {
		const base = { to_chat_ids: [SEED_CHATS.supergroup], from_chat_id: ALICE, message_ids: [M(1)] }
		const before = await lastMessageId(ALICE)
		const many: number[] = Array(100_000).fill(ALICE) // within the 1 MiB frame limit
		expect(await errorOf('forward_message', { ...base, to_chat_ids: many })).toBe(
			'to_chat_ids must contain at most 100 chat ids',
		)
		expect(await errorOf('forward_message', { ...base, message_ids: many.slice(0, 101) })).toBe(
			'message_ids must contain at most 100 message ids',
		)
		expect(await lastMessageId(ALICE)).toBe(before)
		expect(await errorOf('delete_messages', { chat_id: ALICE, message_ids: many.slice(0, 101) })).toBe(
			'message_ids must contain at most 100 message ids',
		)
		const item = { '@type': 'reactionTypeEmoji', emoji: '👍' }
		expect(
			await errorOf('set_reaction', { chat_id: ALICE, message_id: M(2), reaction: Array(11).fill(item) }),
		).toBe('reaction must contain at most 10 reaction items')
	})

	it('answers the strings of the error table', async () => {
		const base = { to_chat_ids: [SEED_CHATS.supergroup], from_chat_id: ALICE, message_ids: [M(1)] }
		expect(await errorOf('forward_message', { ...base, to_chat_ids: undefined })).toBe(
			'to_chat_ids is required',
		)
		expect(await errorOf('forward_message', { ...base, message_ids: undefined })).toBe(
			'message_ids is required',
		)
		expect(await errorOf('forward_message', { ...base, to_chat_ids: [] })).toBe(
			'to_chat_ids must contain at least one chat id',
		)
		expect(await errorOf('forward_message', { ...base, message_ids: [] })).toBe(
			'message_ids must contain at least one message id',
		)
		expect(await errorOf('forward_message', { ...base, from_chat_id: undefined })).toBe(
			'from_chat_id is required',
		)
		expect(await errorOf('forward_message', { ...base, from_chat_id: 424242 })).toBe(
			'Chat to forward messages from not found',
		)
	})
})

describe('reply_message', () => {
	it('replies to a message', async () => {
		const reply = await run('reply_message', { chat_id: ALICE, reply_to_message_id: M(2), text: 'replying' })
		const msg = reply.payload.result as Msg & { reply_to?: { message_id: number } }
		expect(msg.content.text?.text).toBe('replying')
		expect(msg.reply_to).toMatchObject({ message_id: M(2) })
	})

	it('answers chat_id is required and TDLib errors', async () => {
		expect(await errorOf('reply_message', { text: 'x' })).toBe('chat_id is required')
		expect(await errorOf('reply_message', { chat_id: 424242, text: 'x' })).toBe('Chat not found')
		expect(await errorOf('reply_message', { chat_id: ALICE, text: '' })).toBe('Text must be non-empty')
	})
})

describe('edit_message', () => {
	it('edits the text of an own message', async () => {
		const reply = await run('edit_message', { chat_id: ALICE, message_id: M(1), text: 'Hi Alice (edited)' })
		expect((reply.payload.result as Msg).content.text?.text).toBe('Hi Alice (edited)')
		expect((await getMessage(ALICE, M(1))).content.text?.text).toBe('Hi Alice (edited)')
	})

	it('answers its validation errors and TDLib errors', async () => {
		expect(await errorOf('edit_message', { message_id: M(1), text: 'x' })).toBe('chat_id is required')
		expect(await errorOf('edit_message', { chat_id: ALICE, text: 'x' })).toBe('message_id is required')
		expect(await errorOf('edit_message', { chat_id: ALICE, message_id: M(2), text: 'x' })).toBe(
			"Message can't be edited",
		)
		expect(await errorOf('edit_message', { chat_id: 424242, message_id: M(1), text: 'x' })).toBe(
			'Chat not found',
		)
	})
})

describe('pin_message and unpin_message', () => {
	it('pins and unpins', async () => {
		expect((await run('pin_message', { chat_id: ALICE, message_id: M(2) })).payload).toMatchObject({
			type: 'pin_message',
			result: { _: 'ok' },
		})
		expect((await getMessage(ALICE, M(2))).is_pinned).toBe(true)
		expect((await run('unpin_message', { chat_id: ALICE, message_id: M(2) })).payload.result).toEqual({
			_: 'ok',
		})
		expect((await getMessage(ALICE, M(2))).is_pinned).toBe(false)
	})

	it('answers their validation errors and TDLib errors', async () => {
		expect(await errorOf('pin_message', { message_id: M(1) })).toBe('chat_id is required')
		expect(await errorOf('pin_message', { chat_id: ALICE })).toBe('message_id is required')
		expect(
			await errorOf('pin_message', { chat_id: SEED_CHATS.basicGroup, message_id: M(1), only_for_self: true }),
		).toBe("Messages can't be pinned only for self in the chat")
		expect(await errorOf('pin_message', { chat_id: 424242, message_id: M(1) })).toBe('Chat not found')
		expect(await errorOf('unpin_message', { message_id: M(1) })).toBe('chat_id is required')
		expect(await errorOf('unpin_message', { chat_id: ALICE })).toBe('message_id is required')
		expect(await errorOf('unpin_message', { chat_id: ALICE, message_id: M(99) })).toBe('Message not found')
	})
})

describe('set_reaction', () => {
	it('adds a reaction', async () => {
		const reply = await run('set_reaction', {
			chat_id: ALICE,
			message_id: M(2),
			reaction: { '@type': 'reactionTypeEmoji', emoji: '👍' },
		})
		expect(reply.payload).toMatchObject({ type: 'set_reaction', result: { _: 'ok' } })
		expect(JSON.stringify((await getMessage(ALICE, M(2))).interaction_info)).toContain('👍')
	})

	it('adds each valid item of a list, skipping invalid ones', async () => {
		const reply = await run('set_reaction', {
			chat_id: ALICE,
			message_id: M(3),
			reaction: [{ '@type': 'reactionTypePaid' }, 'nope', { _: 'reactionTypeEmoji', emoji: '🔥' }],
		})
		expect(reply.payload.type).toBe('set_reaction')
		expect(JSON.stringify((await getMessage(ALICE, M(3))).interaction_info)).toContain('🔥')
	})

	it('answers the strings of the error table and TDLib errors', async () => {
		const reaction = { '@type': 'reactionTypeEmoji', emoji: '👍' }
		expect(await errorOf('set_reaction', { message_id: M(1), reaction })).toBe(
			'chat_id and message_id are required',
		)
		expect(await errorOf('set_reaction', { chat_id: ALICE, reaction })).toBe(
			'chat_id and message_id are required',
		)
		expect(await errorOf('set_reaction', { chat_id: ALICE, message_id: M(1) })).toBe('reaction is required')
		expect(
			await errorOf('set_reaction', { chat_id: ALICE, message_id: M(1), reaction: [{ emoji: '👍' }] }),
		).toBe('reaction must contain at least one valid reaction item')
		expect(
			await errorOf('set_reaction', {
				chat_id: ALICE,
				message_id: M(1),
				reaction: { '@type': 'reactionTypeEmoji', emoji: '🦄' },
			}),
		).toBe("The reaction isn't available for the message")
		expect(await errorOf('set_reaction', { chat_id: 424242, message_id: M(1), reaction })).toBe(
			'Chat not found',
		)
	})
})

describe('message auto-delete times', () => {
	it('reads the default time', async () => {
		const reply = await run('get_default_message_auto_delete_time')
		expect(reply.payload).toMatchObject({
			type: 'get_default_message_auto_delete_time',
			result: { _: 'messageAutoDeleteTime', time: 0 },
		})
	})

	it('sets the default time and echoes it', async () => {
		const reply = await run('set_default_message_auto_delete_time', { message_auto_delete_time: 86_400 })
		expect(reply.payload).toMatchObject({ type: 'set_default_message_auto_delete_time', result: 86_400 })
		const read = await run('get_default_message_auto_delete_time')
		expect(read.payload.result).toEqual({ _: 'messageAutoDeleteTime', time: 86_400 })
		expect(await errorOf('set_default_message_auto_delete_time', { message_auto_delete_time: 100 })).toBe(
			'TTL_PERIOD_INVALID',
		)
		expect((await run('set_default_message_auto_delete_time')).payload.result).toBe(0)
	})

	it("sets a chat's time and echoes it", async () => {
		const reply = await run('set_chat_message_auto_delete_time', {
			chat_id: ALICE,
			message_auto_delete_time: 3600,
		})
		expect(reply.payload).toMatchObject({
			type: 'set_chat_message_auto_delete_time',
			result: { chat_id: ALICE, message_auto_delete_time: 3600 },
		})
		expect(await errorOf('set_chat_message_auto_delete_time', { message_auto_delete_time: 5 })).toBe(
			'chat_id is required',
		)
		expect(
			await errorOf('set_chat_message_auto_delete_time', { chat_id: ALICE, message_auto_delete_time: -1 }),
		).toBe("Message auto-delete time can't be negative")
		await f.t.ctx.runtime!.invoke(f.userbotId, { _: 'createPrivateChat', user_id: TELEGRAM, force: true })
		expect(
			await errorOf('set_chat_message_auto_delete_time', { chat_id: TELEGRAM, message_auto_delete_time: 60 }),
		).toBe("Message auto-delete time in the chat can't be changed")
		expect(await errorOf('set_chat_message_auto_delete_time', { chat_id: 424242 })).toBe('Chat not found')
	})
})
