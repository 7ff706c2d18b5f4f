import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type * as Td from 'tdlib-types'
import { SEED_CHATS } from '../../src/emulator'
import { LOUNGE_EXTRA_MESSAGES, SEED_PHOTO_PNG } from '../../src/emulator/seed/read-side'
import { TdError } from '../../src/runtime/telegram/types'
import { login, startRuntime, type TestRuntime } from '../supervisor/helpers'

/** The emulator's read side, through a real supervisor child: histories, searches, people, files. */

const ALICE = 1
const BOB = 2
const CAROL = 3
const DAVE = 4
const SHIFT = 2 ** 20
/** The lounge's messages: three first ones and the chatter the read side's seed adds. */
const LOUNGE_SIZE = 3 + LOUNGE_EXTRA_MESSAGES

const tdError = async (p: Promise<unknown>) => {
	try {
		await p
	} catch (err) {
		expect(err).toBeInstanceOf(TdError)
		return (err as TdError).message
	}
	throw new Error('expected a TdError')
}

describe('emulator read side', () => {
	let t: TestRuntime
	let dir: string
	beforeAll(async () => {
		t = await startRuntime()
		dir = mkdtempSync(join(tmpdir(), 'ubg-read-side-'))
		await login(t.rt, ALICE, '9996611111')
		await login(t.rt, BOB, '9996621234')
		await login(t.rt, CAROL, '9996631111').catch(() => undefined)
		await login(t.rt, DAVE, '9996614444')
	})
	afterAll(async () => {
		await t.stop()
		rmSync(dir, { recursive: true, force: true })
	})
	const invoke: TestRuntime['rt']['invoke'] = (id, req, opts) => t.rt.invoke(id, req, opts)

	it('lists the seeded chats with titles, unread counts and the lounge photo', async () => {
		const chats = await invoke(ALICE, { _: 'getChats', chat_list: { _: 'chatListMain' }, limit: 50 })
		const titles = await Promise.all(
			chats.chat_ids.map(async (id) => (await invoke(ALICE, { _: 'getChat', chat_id: id })).title),
		)
		expect(titles).toEqual(
			expect.arrayContaining(['Bob Baker', 'Team Chat', 'Emulator Lounge', 'Emulator News']),
		)
		// Bob wrote three messages after Alice's last one (a text, a photo, a document).
		const bob = await invoke(ALICE, { _: 'getChat', chat_id: 1002 })
		expect(bob.unread_count).toBe(3)
		expect(bob.last_message?.content._).toBe('messageDocument')
		const lounge = await invoke(ALICE, { _: 'getChat', chat_id: SEED_CHATS.supergroup })
		expect(lounge.photo?.small.id).toBeGreaterThan(0)
		expect(await invoke(ALICE, { _: 'getChats', chat_list: { _: 'chatListArchive' }, limit: 10 })).toEqual({
			_: 'chats',
			total_count: 0,
			chat_ids: [],
		})
		expect(
			await tdError(
				invoke(ALICE, { _: 'getChats', chat_list: { _: 'chatListFolder', chat_folder_id: 9 }, limit: 1 }),
			),
		).toBe('Chat list not found')
	})

	it('answers the first history request with the last message alone, then pages back to the first', async () => {
		const chat_id = SEED_CHATS.supergroup
		const first = await invoke(BOB, {
			_: 'getChatHistory',
			chat_id,
			from_message_id: 0,
			offset: 0,
			limit: 20,
		})
		expect(first.messages).toHaveLength(1)
		expect(first.total_count).toBe(1)
		const seen: number[] = [first.messages[0]!.id]
		let from = seen[0]!
		for (let i = 0; i < 10; i++) {
			const page = await invoke(BOB, {
				_: 'getChatHistory',
				chat_id,
				from_message_id: from,
				offset: 0,
				limit: 20,
			})
			// from_message_id itself comes back first: the pages overlap by one.
			expect(page.messages[0]!.id).toBe(from)
			const older = page.messages.slice(1).map((m) => m!.id)
			if (older.length === 0) break
			seen.push(...older)
			from = older.at(-1)!
		}
		expect(seen).toHaveLength(LOUNGE_SIZE)
		expect(seen).toEqual([...seen].sort((a, b) => b - a))
		expect(seen.at(-1)).toBe(SHIFT)
		expect(new Set(seen).size).toBe(seen.length)
		// A negative offset adds newer messages; past 100 the limit is cut to 100.
		const around = await invoke(BOB, {
			_: 'getChatHistory',
			chat_id,
			from_message_id: 10 * SHIFT,
			offset: -2,
			limit: 5,
		})
		expect(around.messages.map((m) => m!.id / SHIFT)).toEqual([12, 11, 10, 9, 8])
		const all = await invoke(BOB, { _: 'getChatHistory', chat_id, from_message_id: 0, offset: 0, limit: 500 })
		expect(all.messages).toHaveLength(LOUNGE_SIZE)
	})

	it('checks history parameters in TDLib’s order and words', async () => {
		const ask = (req: Partial<Td.getChatHistory>) =>
			tdError(invoke(ALICE, { _: 'getChatHistory', chat_id: 424242, limit: 10, ...req }))
		expect(await ask({ limit: 0 })).toBe('Parameter limit must be positive')
		expect(await ask({ offset: 1 })).toBe('Parameter offset must be non-positive')
		expect(await ask({ offset: -100, limit: 100 })).toBe('Parameter offset must be greater than -100')
		expect(await ask({ offset: -11 })).toBe('Parameter offset must be greater than or equal to -limit')
		expect(await ask({ from_message_id: 3 })).toBe('Invalid value of parameter from_message_id specified')
		expect(await ask({})).toBe('Chat not found')
	})

	it('searches one chat by words, sender and media kind, with total_count and next_from_message_id', async () => {
		const chat_id = SEED_CHATS.supergroup
		const search = (req: Partial<Td.searchChatMessages>) =>
			invoke(ALICE, {
				_: 'searchChatMessages',
				chat_id,
				query: '',
				from_message_id: 0,
				offset: 0,
				limit: 10,
				...req,
			})
		const chatter = await search({ query: 'chatter' })
		expect(chatter.total_count).toBe(LOUNGE_EXTRA_MESSAGES)
		expect(chatter.messages).toHaveLength(10)
		const next = await search({ query: 'chatter', from_message_id: chatter.next_from_message_id })
		expect(next.messages[0]!.id).toBeLessThan(chatter.messages.at(-1)!.id)
		const fromBob = await search({ sender_id: { _: 'messageSenderUser', user_id: 1002 }, limit: 100 })
		expect(
			fromBob.messages.every((m) => m.sender_id._ === 'messageSenderUser' && m.sender_id.user_id === 1002),
		).toBe(true)
		expect(fromBob.next_from_message_id).toBe(0)
		const photos = await invoke(ALICE, {
			_: 'searchChatMessages',
			chat_id: 1002,
			query: '',
			limit: 10,
			filter: { _: 'searchMessagesFilterPhoto' },
		})
		expect(photos.messages.map((m) => m.content._)).toEqual(['messagePhoto'])
		expect(await tdError(search({ limit: 5, offset: -5 }))).toBe(
			'Parameter limit must be greater than -offset',
		)
	})

	it('searches every chat, newest first, paging by next_offset without repeats', async () => {
		const ids: string[] = []
		let offset = ''
		for (let i = 0; i < 20; i++) {
			const found = await invoke(ALICE, { _: 'searchMessages', query: 'lounge', offset, limit: 7 })
			expect(found.total_count).toBe(LOUNGE_EXTRA_MESSAGES + 1)
			ids.push(...found.messages.map((m) => `${m.chat_id}:${m.id}`))
			offset = found.next_offset
			if (!offset) break
		}
		expect(ids).toHaveLength(LOUNGE_EXTRA_MESSAGES + 1)
		expect(new Set(ids).size).toBe(ids.length)
		expect((await invoke(ALICE, { _: 'searchMessages', query: '', offset: '', limit: 5 })).total_count).toBe(
			0,
		)
	})

	it('marks messages read: the unread count falls to what is newer', async () => {
		const bob = await invoke(ALICE, { _: 'getChat', chat_id: 1002 })
		await invoke(ALICE, { _: 'viewMessages', chat_id: 1002, message_ids: [3 * SHIFT], force_read: true })
		expect((await invoke(ALICE, { _: 'getChat', chat_id: 1002 })).unread_count).toBe(2)
		await invoke(ALICE, {
			_: 'viewMessages',
			chat_id: 1002,
			message_ids: [bob.last_message!.id],
			force_read: true,
		})
		const read = await invoke(ALICE, { _: 'getChat', chat_id: 1002 })
		expect(read.unread_count).toBe(0)
		expect(read.last_read_inbox_message_id).toBe(bob.last_message!.id)
		expect(await tdError(invoke(ALICE, { _: 'viewMessages', chat_id: 1002, message_ids: [-1] }))).toBe(
			'Invalid message identifier',
		)
	})

	it('gives a user’s full info: bio and groups in common', async () => {
		const full = await invoke(ALICE, { _: 'getUserFullInfo', user_id: 1002 })
		expect(full.bio?.text).toBe('Bakes bread and bots')
		expect(full.group_in_common_count).toBe(4)
		expect(await tdError(invoke(ALICE, { _: 'getUserFullInfo', user_id: 99 }))).toBe('User not found')
	})

	it('keeps contacts: lists, imports by phone, searches and removes', async () => {
		expect((await invoke(ALICE, { _: 'getContacts' })).user_ids).toEqual([1002, 1003])
		expect((await invoke(ALICE, { _: 'getUser', user_id: 1002 })).is_mutual_contact).toBe(true)
		const imported = await invoke(ALICE, {
			_: 'importContacts',
			contacts: [
				{ _: 'importedContact', phone_number: '+999 661 4444', first_name: 'David', last_name: 'D' },
				{ _: 'importedContact', phone_number: '1234', first_name: 'Nobody', last_name: '' },
			],
		})
		expect(imported).toEqual({ _: 'importedContacts', user_ids: [1004, 0], importer_count: [0, 0] })
		expect((await invoke(ALICE, { _: 'searchContacts', query: 'dav', limit: 10 })).user_ids).toEqual([1004])
		await invoke(ALICE, { _: 'removeContacts', user_ids: [1004] })
		expect((await invoke(ALICE, { _: 'getContacts' })).user_ids).toEqual([1002, 1003])
	})

	it('finds known chats locally and public ones by a long enough query; joins and leaves', async () => {
		expect((await invoke(ALICE, { _: 'searchChats', query: 'lounge', limit: 10 })).chat_ids).toEqual([
			SEED_CHATS.supergroup,
		])
		// Dave is in no public group: he finds them all, and users with a username.
		const found = await invoke(DAVE, { _: 'searchPublicChats', query: 'emulator' })
		expect(found.chat_ids).toEqual(
			expect.arrayContaining([SEED_CHATS.supergroup, SEED_CHATS.channel, SEED_CHATS.forum]),
		)
		expect((await invoke(DAVE, { _: 'searchPublicChats', query: 'emu' })).chat_ids).toEqual([])
		expect((await invoke(DAVE, { _: 'searchPublicChats', query: 'alice' })).chat_ids).toEqual([1001])
		expect(await tdError(invoke(DAVE, { _: 'getChatHistory', chat_id: SEED_CHATS.forum, limit: 1 }))).toBe(
			'Chat not found',
		)
		expect(await invoke(DAVE, { _: 'joinChat', chat_id: SEED_CHATS.forum })).toEqual({
			_: 'chatJoinResultSuccess',
			chat_id: SEED_CHATS.forum,
		})
		expect(
			(await invoke(DAVE, { _: 'getChatHistory', chat_id: SEED_CHATS.forum, limit: 1 })).messages,
		).toHaveLength(1)
		await invoke(DAVE, { _: 'leaveChat', chat_id: SEED_CHATS.forum })
		expect(await tdError(invoke(DAVE, { _: 'getChatHistory', chat_id: SEED_CHATS.forum, limit: 1 }))).toBe(
			'Chat not found',
		)
		expect(await tdError(invoke(DAVE, { _: 'joinChat', chat_id: 1001 }))).toBe("Can't join private chats")
	})

	it('downloads a seeded photo and a sent file byte for byte, only for accounts that have them', async () => {
		const bob = await invoke(ALICE, { _: 'getChat', chat_id: 1002 })
		const history = await invoke(ALICE, { _: 'getChatHistory', chat_id: 1002, limit: 10 })
		// The viewMessages test read this chat's last message only: the first history call holds that alone.
		expect(history.messages).toHaveLength(1)
		const again = await invoke(ALICE, { _: 'getChatHistory', chat_id: 1002, limit: 10 })
		const photo = again.messages.map((m) => m!.content).find((c) => c._ === 'messagePhoto')
		const fileId = photo?._ === 'messagePhoto' ? photo.photo.sizes[0]!.photo.id : 0
		expect(bob.last_message?.content._).toBe('messageDocument')
		expect(photo?._ === 'messagePhoto' && photo.photo.sizes[0]!.photo.local.path).toBe('')
		const file = await invoke(ALICE, { _: 'downloadFile', file_id: fileId, priority: 1, synchronous: true })
		expect(file.local.is_downloading_completed).toBe(true)
		expect(readFileSync(file.local.path)).toEqual(SEED_PHOTO_PNG)
		expect(await tdError(invoke(DAVE, { _: 'downloadFile', file_id: fileId, priority: 1 }))).toBe(
			'Invalid file identifier',
		)
		expect(await tdError(invoke(ALICE, { _: 'downloadFile', file_id: fileId, priority: 0 }))).toBe(
			'Priority must be between 1 and 32',
		)
		await invoke(ALICE, { _: 'deleteFile', file_id: fileId })
		expect((await invoke(ALICE, { _: 'getFile', file_id: fileId })).local.path).toBe('')

		const bytes = crypto.getRandomValues(new Uint8Array(3000))
		const path = join(dir, 'random.bin')
		writeFileSync(path, bytes)
		const sent = await invoke(ALICE, {
			_: 'sendMessage',
			chat_id: 1002,
			input_message_content: {
				_: 'inputMessageDocument',
				document: { _: 'inputDocument', document: { _: 'inputFileLocal', path } },
			},
		})
		const sentId = sent.content._ === 'messageDocument' ? sent.content.document.document.id : 0
		const got = await invoke(BOB, { _: 'downloadFile', file_id: sentId, priority: 1, synchronous: true })
		expect(new Uint8Array(readFileSync(got.local.path))).toEqual(bytes)
	})
})
