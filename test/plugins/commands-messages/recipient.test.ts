import { describe, expect, it } from 'bun:test'
import { chatsHarness } from '../commands-chats/harness'

/**
 * Reaching a person (docs/command-groups.md#reaching-a-person), on the WebSocket, as a new user tries it:
 * Bob's userbot (1002) writes to people it has no chat with yet, by the user id import_contacts
 * answered, by phone and by username; a user id as chat_id opens the chat on the other commands too.
 */
const { ok, error } = chatsHarness()

type Sent = { chat_id: number; content: { text: { text: string } } }
type Users = { users: Array<{ id: number; first_name: string }> }

describe('reaching a person', () => {
	it('import_contacts, then send_message to the user id it answered: the private chat opens', async () => {
		const { user_ids } = await ok<{ user_ids: number[] }>('import_contacts', {
			contacts: [{ phone_number: '+9996631111', first_name: 'Carol' }],
		})
		expect(user_ids).toEqual([1003])
		const sent = await ok<Sent>('send_message', { chat_id: 1003, text: 'Hello Carol', wait_sent: true })
		expect([sent.chat_id, sent.content.text.text]).toEqual([1003, 'Hello Carol'])
		expect(await ok('get_chat', { chat_id: 1003 })).toMatchObject({ id: 1003, title: 'Carol Clark' })
	})

	it('get_chat and get_chat_history of a user id open the chat too', async () => {
		// Dave (1004): Bob never wrote to him nor opened his chat.
		expect(await ok('get_chat_history', { chat_id: 1004, limit: 10 })).toMatchObject({ messages: [] })
		expect(await ok('get_chat', { chat_id: 1004 })).toMatchObject({ id: 1004, title: 'Dave Dunn' })
	})

	it('send_message by phone: a number TDLib does not know is imported as a contact, a contact is found', async () => {
		// Eve (1005) has no username; her number is no contact of Bob's yet.
		const toEve = await ok<Sent>('send_message', { phone: '+999 662 5555', text: 'Hi Eve', wait_sent: true })
		expect(toEve.chat_id).toBe(1005)
		const contacts = await ok<Users>('get_contacts', { limit: 100 })
		expect(contacts.users.map((u) => u.id)).toContain(1005)
		// Alice (1001) is Bob's contact: found by her number (searchUserByPhoneNumber), nothing imported.
		const toAlice = await ok<Sent>('send_message', { phone: '9996611111', text: 'Hi Alice' })
		expect(toAlice.chat_id).toBe(1001)
		const after = await ok<Users>('get_contacts', { limit: 100 })
		expect(after.users.find((u) => u.id === 1001)?.first_name).toBe('Alice')
	})

	it('send_message by username: a user or a public chat', async () => {
		const toDave = await ok<Sent>('send_message', { username: '@dave', text: 'Hi Dave', wait_sent: true })
		expect(toDave.chat_id).toBe(1004)
		const toLounge = await ok<Sent>('send_message', { username: 'emulator_lounge', text: 'Hi all' })
		expect(toLounge.chat_id).toBe(-1000000003001)
	})

	it('says clearly when there is nobody to reach, and refuses more or fewer than one recipient', async () => {
		expect(await error('send_message', { phone: '+1 555 000 0000', text: 'x' })).toBe(
			'no Telegram account has this phone number',
		)
		expect(await error('send_message', { username: 'nobody_at_all', text: 'x' })).toBe(
			'no chat has this username',
		)
		expect(await error('send_message', { chat_id: 1003, phone: '+9996631111', text: 'x' })).toBe(
			'only one of chat_id, phone and username may be given',
		)
		expect(await error('send_message', { text: 'x' })).toBe('chat_id is required')
		expect(await error('send_message', { phone: 'call me', text: 'x' })).toBe('phone must be a phone number')
		expect(await error('send_message', { username: 'no spaces', text: 'x' })).toBe(
			'username must be a Telegram username',
		)
		// A user id nobody has stays a chat nobody knows.
		expect(await error('send_message', { chat_id: 4242424242, text: 'x' })).toBe('Chat not found')
	})
})

describe('one resolver for every command that takes a chat_id', () => {
	it('each such command declares createPrivateChat, so a user id opens the chat on all of them', async () => {
		const groups = await Promise.all([
			import('../../../plugins/commands-chats'),
			import('../../../plugins/commands-messages'),
			import('../../../plugins/commands-members'),
			import('../../../plugins/commands-chat-admin'),
		])
		const commands = groups.flatMap((g) =>
			Object.values(g).flatMap((p) => (p as { commands?: unknown[] }).commands ?? []),
		)
		const takingChatId = (
			commands as Array<{ name: string; input: unknown; methods: readonly string[] }>
		).filter((c) => {
			const s = c.input as { entries?: object; pipe?: Array<{ entries?: object }> }
			const entries = s.entries ?? s.pipe?.findLast((x) => x.entries)?.entries ?? {}
			return 'chat_id' in entries
		})
		expect(takingChatId.length).toBeGreaterThan(30)
		expect(takingChatId.filter((c) => !c.methods.includes('createPrivateChat')).map((c) => c.name)).toEqual(
			[],
		)
	})
})
