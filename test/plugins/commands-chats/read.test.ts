import { describe, expect, it } from 'bun:test'
import { SEED_CHATS } from '../../../src/emulator'
import { LOUNGE_EXTRA_MESSAGES } from '../../../src/emulator/seed/read-side'
import { chatsHarness } from './harness'

/** The chats group over the real server: Bob's userbot reads its seeded chats. */
const { run } = chatsHarness()

describe('get_chats', () => {
	it('lists a fresh userbot’s seeded chats with titles', async () => {
		const reply = await run('get_chats', { limit: 50 })
		expect(reply.payload.type).toBe('get_chats')
		const { chats } = reply.payload.result as { chats: Array<{ id: number; title: string }> }
		expect(chats.map((ch) => ch.title)).toEqual(
			expect.arrayContaining(['Alice Archer', 'Team Chat', 'Emulator Lounge', 'Emulator News']),
		)
		expect((await run('get_chats', { limit: 101 })).payload.error).toBe('limit must be between 1 and 100')
	})
})

describe('get_chat_history', () => {
	it('pages back to the chat’s first message with no gap and no repeat', async () => {
		const ids: number[] = []
		let from = 0
		for (let i = 0; i < 10; i++) {
			const reply = await run('get_chat_history', {
				chat_id: SEED_CHATS.supergroup,
				from_message_id: from,
				limit: 10,
			})
			const { messages, next_from_message_id } = reply.payload.result as {
				messages: Array<{ id: number }>
				next_from_message_id: number
			}
			// TDLib's from_message_id is included: a page after the first starts with the previous oldest.
			ids.push(...messages.map((m) => m.id).filter((id) => id !== from))
			if (!next_from_message_id) break
			from = next_from_message_id
		}
		expect(ids).toHaveLength(3 + LOUNGE_EXTRA_MESSAGES)
		expect(new Set(ids).size).toBe(ids.length)
		expect(ids.at(-1)).toBe(2 ** 20)
		expect((await run('get_chat_history', { chat_id: 1, limit: 101 })).payload.error).toBe(
			'limit must be between 1 and 100',
		)
		expect((await run('get_chat_history', {})).payload.error).toBe('chat_id is required')
	})
})

describe('get_message', () => {
	it('answers the message a history page holds, the same object, and TDLib’s error for an unknown id', async () => {
		const page = await run('get_chat_history', { chat_id: SEED_CHATS.supergroup, limit: 1 })
		const [newest] = (page.payload.result as { messages: Array<{ id: number; chat_id: number }> }).messages
		expect(newest).toBeDefined()
		const reply = await run('get_message', { chat_id: SEED_CHATS.supergroup, message_id: newest!.id })
		expect(reply.payload.type).toBe('get_message')
		expect(reply.payload.result).toEqual(newest)
		const missing = await run('get_message', { chat_id: SEED_CHATS.supergroup, message_id: 999 * 2 ** 20 })
		expect(missing.payload.type).toBe('get_message_error')
		expect((await run('get_message', { chat_id: SEED_CHATS.supergroup })).payload.error).toBe(
			'message_id is required',
		)
	})
})
