import { describe, expect, it } from 'bun:test'
import { SEED_CHATS } from '../../../src/emulator'
import { LOUNGE_EXTRA_MESSAGES } from '../../../src/emulator/seed/read-side'
import { chatsHarness } from './harness'

/** The chats group's searches, joining and leaving, over the real server: Bob's userbot. */
const { ok, error } = chatsHarness()

interface Found {
	total_count: number
	messages: Array<{ id: number; chat_id: number; sender_id: { user_id?: number }; content: { _: string } }>
}
type Chats = { chats: Array<{ id: number; title: string; type: string }>; total_count: number }

/** Bob is Carol's neighbour in the lounge: she says every fourth line of its chatter. */
const CAROL_CHATTER = LOUNGE_EXTRA_MESSAGES / 4

describe('search_chat_messages', () => {
	it('finds a chat’s messages by words, by sender and by media kind, newest first, and pages', async () => {
		const words = await ok<Found & { next_from_message_id: number }>('search_chat_messages', {
			chat_id: SEED_CHATS.supergroup,
			query: 'chatter',
			limit: 100,
		})
		expect(words.total_count).toBe(LOUNGE_EXTRA_MESSAGES)
		expect(words.messages).toHaveLength(LOUNGE_EXTRA_MESSAGES)
		const ids = words.messages.map((m) => m.id)
		expect(ids).toEqual([...ids].sort((a, b) => b - a))

		const carol = await ok<Found>('search_chat_messages', {
			chat_id: SEED_CHATS.supergroup,
			query: 'chatter',
			sender_id: 1003,
		})
		expect(carol.messages).toHaveLength(CAROL_CHATTER)
		expect(carol.messages.every((m) => m.sender_id.user_id === 1003)).toBe(true)

		// Alice and Bob's chat ends with a photo and a document.
		const photos = await ok<Found>('search_chat_messages', { chat_id: 1001, filter: 'photo' })
		expect(photos.messages.map((m) => m.content._)).toEqual(['messagePhoto'])
		const documents = await ok<Found>('search_chat_messages', { chat_id: 1001, filter: 'document' })
		expect(documents.messages.map((m) => m.content._)).toEqual(['messageDocument'])

		// Pages of 15 from next_from_message_id (excluded, as TDLib's): every message once.
		const paged: number[] = []
		let from = 0
		for (let i = 0; i < 10; i++) {
			const page = await ok<Found & { next_from_message_id: number }>('search_chat_messages', {
				chat_id: SEED_CHATS.supergroup,
				query: 'chatter',
				from_message_id: from,
				limit: 15,
			})
			paged.push(...page.messages.map((m) => m.id))
			if (!page.next_from_message_id) break
			from = page.next_from_message_id
		}
		expect(paged).toEqual(ids)

		expect(await error('search_chat_messages', { chat_id: 1001, filter: 'sticker' })).toBe(
			'filter must be one of photo, video, document, audio, animation, voice_note, photo_and_video',
		)
		expect(await error('search_chat_messages', { chat_id: 1001, sender_id: 0 })).toBe(
			'sender_id must be a user id or a chat id, not 0',
		)
		expect(await error('search_chat_messages', { query: 'x' })).toBe('chat_id is required')
	})
})

describe('search_messages', () => {
	it('searches every chat, by chat type and media kind, and pages by next_offset with no repeat', async () => {
		const seen: number[] = []
		let offset = ''
		for (let i = 0; i < 10; i++) {
			const page = await ok<Found & { next_offset: string }>('search_messages', {
				query: 'chatter',
				offset,
				limit: 15,
			})
			expect(page.total_count).toBe(LOUNGE_EXTRA_MESSAGES)
			seen.push(...page.messages.map((m) => m.id))
			if (!page.next_offset) break
			offset = page.next_offset
		}
		expect(seen).toHaveLength(LOUNGE_EXTRA_MESSAGES)
		expect(new Set(seen).size).toBe(LOUNGE_EXTRA_MESSAGES)

		const privateOnly = await ok<Found>('search_messages', { query: 'chatter', chat_type: 'private' })
		expect(privateOnly.messages).toEqual([])
		const groups = await ok<Found>('search_messages', { query: 'chatter', chat_type: 'group', limit: 5 })
		expect(groups.messages.map((m) => m.chat_id)).toEqual(Array(5).fill(SEED_CHATS.supergroup))
		const docs = await ok<Found>('search_messages', { filter: 'document' })
		expect(docs.messages.map((m) => [m.chat_id, m.content._])).toEqual([[1001, 'messageDocument']])

		expect(await error('search_messages', { chat_type: 'secret' })).toBe(
			'chat_type must be private, group or channel',
		)
		expect(await error('search_messages', { query: 'x', min_date: 2 ** 31 })).toBe(
			'min_date must be between 0 and 2147483647',
		)
		expect(await error('search_messages', { query: 'x', chat_list: 'folder' })).toBe(
			'chat_list must be main or archive',
		)
	})
})

describe('search_chats', () => {
	it('finds the account’s chats by title, of a type, with titles', async () => {
		const found = await ok<Chats>('search_chats', { query: 'emulator' })
		expect(found.chats.map((ch) => ch.title).sort()).toEqual([
			'Emulator Forum',
			'Emulator Lounge',
			'Emulator News',
		])
		const channels = await ok<Chats>('search_chats', { query: 'emulator', type_filter: 'channel' })
		expect(channels.chats.map((ch) => [ch.id, ch.type])).toEqual([[SEED_CHATS.channel, 'chatTypeSupergroup']])
		expect(await error('search_chats', {})).toBe('query is required')
		expect(await error('search_chats', { query: 'x', type_filter: 'group' })).toBe(
			'type_filter must be channel or bot',
		)
	})
})

describe('leave_chat and join_chat', () => {
	it('leaves a public group, finds it again by a public search and joins it by username', async () => {
		expect(await ok('leave_chat', { chat_id: SEED_CHATS.forum })).toEqual({ _: 'ok' })
		const local = await ok<Chats>('search_chats', { query: 'emulator' })
		expect(local.chats.map((ch) => ch.id)).not.toContain(SEED_CHATS.forum)

		const pub = await ok<Chats>('search_chats', { query: 'emulator', public: true })
		expect(pub.chats.map((ch) => [ch.id, ch.title])).toEqual([[SEED_CHATS.forum, 'Emulator Forum']])
		// Fewer than 4 characters: Telegram searches nothing.
		expect((await ok<Chats>('search_chats', { query: 'emu', public: true })).chats).toEqual([])

		const joined = await ok<{ chat_id: number; join_result: unknown }>('join_chat', {
			username: '@emulator_forum',
		})
		expect(joined).toEqual({
			chat_id: SEED_CHATS.forum,
			join_result: { _: 'chatJoinResultSuccess', chat_id: SEED_CHATS.forum },
		})
		const again = await ok<Chats>('search_chats', { query: 'forum' })
		expect(again.chats.map((ch) => ch.id)).toEqual([SEED_CHATS.forum])
		// By id, a chat it is in already: TDLib's answer, nothing changes.
		expect((await ok<{ chat_id: number }>('join_chat', { chat_id: SEED_CHATS.forum })).chat_id).toBe(
			SEED_CHATS.forum,
		)

		expect(await error('join_chat', {})).toBe('chat_id or username is required')
		expect(await error('leave_chat', { chat_id: 1001 })).toBe("Can't leave private chats")
		expect(await error('leave_chat', {})).toBe('chat_id is required')
	})
})
