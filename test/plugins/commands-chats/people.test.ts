import { describe, expect, it } from 'bun:test'
import { SEED_CHATS } from '../../../src/emulator'
import { chatsHarness } from './harness'

/** Reading (view_messages, read_chat) and the contacts commands, over the real server: Bob's userbot. */
const { ok, error } = chatsHarness()

const SHIFT = 2 ** 20
type ChatState = { unread_count: number; last_read_inbox_message_id: number }
type Users = { users: Array<{ id: number; first_name: string }>; total_count: number; next_offset?: number }

describe('view_messages and read_chat', () => {
	it('mark a chat’s messages read: one message, then the whole chat', async () => {
		// Carol's two posts in the news channel are unread for Bob.
		const chat = SEED_CHATS.channel
		expect((await ok<ChatState>('get_chat', { chat_id: chat })).unread_count).toBe(2)
		expect(await ok('view_messages', { chat_id: chat, message_ids: [SHIFT] })).toEqual({ _: 'ok' })
		const one = await ok<ChatState>('get_chat', { chat_id: chat })
		expect([one.unread_count, one.last_read_inbox_message_id]).toEqual([1, SHIFT])

		expect(await ok('read_chat', { chat_id: chat })).toEqual({
			chat_id: chat,
			unread_count: 0,
			last_read_inbox_message_id: 2 * SHIFT,
		})
		expect((await ok<ChatState>('get_chat', { chat_id: chat })).unread_count).toBe(0)
		// Read already: nothing to do, the same answer.
		expect(await ok('read_chat', { chat_id: chat })).toEqual({
			chat_id: chat,
			unread_count: 0,
			last_read_inbox_message_id: 2 * SHIFT,
		})

		expect(await error('view_messages', { chat_id: chat, message_ids: [] })).toBe(
			'message_ids must not be empty',
		)
		expect(await error('view_messages', { chat_id: chat })).toBe('message_ids is required')
		expect(await error('read_chat', {})).toBe('chat_id is required')
	})
})

describe('contacts', () => {
	it('lists, imports, finds and removes contacts, as users with names', async () => {
		const start = await ok<Users>('get_contacts')
		expect(start.users.map((u) => [u.id, u.first_name])).toEqual([[1001, 'Alice']])
		expect(start.total_count).toBe(1)

		const imported = await ok<{ user_ids: number[] }>('import_contacts', {
			contacts: [
				{ phone_number: '+999 663 1111', first_name: 'Carol', last_name: 'Clark' },
				{ '@type': 'importedContact', phone_number: '+15550000000', first_name: 'Nobody' },
			],
		})
		expect(imported.user_ids).toEqual([1003, 0])

		const all = await ok<Users>('get_contacts', { limit: 1 })
		expect(all.users.map((u) => u.id)).toEqual([1001])
		expect([all.total_count, all.next_offset]).toEqual([2, 1])
		const second = await ok<Users>('get_contacts', { offset: 1, limit: 1 })
		expect([second.users.map((u) => u.id), second.next_offset]).toEqual([[1003], 0])

		const found = await ok<Users>('search_contacts', { query: 'car' })
		expect(found.users.map((u) => [u.id, u.first_name])).toEqual([[1003, 'Carol']])
		expect((await ok<Users>('search_contacts', {})).users.map((u) => u.id)).toEqual([1001, 1003])

		expect(await ok('remove_contacts', { user_ids: [1003] })).toEqual({ _: 'ok' })
		expect((await ok<Users>('get_contacts')).users.map((u) => u.id)).toEqual([1001])

		expect(await error('import_contacts', {})).toBe('contacts is required')
		expect(await error('import_contacts', { contacts: [] })).toBe('contacts must not be empty')
		expect(await error('import_contacts', { contacts: [{ phone_number: '+1555' }] })).toBe(
			'each of contacts needs a phone_number and a first_name',
		)
		const many = Array.from({ length: 101 }, () => ({ phone_number: '+1555', first_name: 'X' }))
		expect(await error('import_contacts', { contacts: many })).toBe(
			'contacts must contain at most 100 contacts',
		)
		expect(await error('import_contacts', { contacts: [{ phone_number: 5, first_name: 'X' }] })).toBe(
			'contacts[0].phone_number must be a string',
		)
		expect(await error('remove_contacts', { user_ids: [] })).toBe('user_ids must not be empty')
		expect(await error('search_contacts', { limit: 0 })).toBe('limit must be between 1 and 100')
	})
})
