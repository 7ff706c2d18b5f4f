import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { builtInPlugins } from 'userbot-gateway'
import {
	type BuiltInCommands,
	type Client,
	CommandFailed,
	type CommandsOf,
	createClient,
} from 'userbot-gateway/client'
import { startTestServer, type TestServer, type TestUser } from 'userbot-gateway/testing'
import { chatsPlugin } from '../index'

/**
 * The example group end to end, as its author would test it: a server on the emulator with the
 * built-in plugins and this one, a userbot logged in as Bob (1002), and the typed client.
 */
type Commands = BuiltInCommands & CommandsOf<typeof chatsPlugin>

let server: TestServer
let user: TestUser
let bob: number
let client: Client<Commands>

beforeAll(async () => {
	server = await startTestServer({ plugins: [...builtInPlugins, chatsPlugin] })
	user = await server.registerUser()
	bob = await server.createUserbot(user, '9996621234')
	client = createClient<Commands>({ url: server.url, token: user.access })
})

afterAll(async () => {
	client?.close()
	await server?.stop()
})

const LOUNGE = -1000000003001

describe('example_get_chats', () => {
	it("lists the account's chats, newest first, with their count", async () => {
		const chats = await client.send('example_get_chats', { userbot_id: bob })
		expect(chats._).toBe('chats')
		// Bob is in the four seeded groups and has a private chat with Alice.
		expect(chats.total_count).toBe(5)
		expect(chats.chat_ids).toContain(LOUNGE)
		expect(chats.chat_ids).toContain(1001)
	})

	it('takes a limit and a chat list by name', async () => {
		const chats = await client.send('example_get_chats', {
			userbot_id: bob,
			limit: 2,
			chat_list: { _: 'chatListMain' },
		})
		expect(chats.chat_ids).toHaveLength(2)
	})

	it('refuses a limit out of range and a chat list that is none, in its own words', async () => {
		for (const limit of [0, 1001]) {
			const refused = client.send('example_get_chats', { userbot_id: bob, limit })
			await expect(refused).rejects.toMatchObject({ error: 'limit must be between 1 and 1000' })
		}
		for (const chat_list of ['chatListNope', { _: 'inputFileLocal', path: '/etc/passwd' }, 7]) {
			const refused = client.send('example_get_chats', { userbot_id: bob, chat_list } as never)
			await expect(refused).rejects.toMatchObject({
				error: 'chat_list must be chatListMain, chatListArchive or a chatListFolder',
			})
		}
	})
})

describe('example_get_chat', () => {
	it('answers the chat as TDLib describes it', async () => {
		const chat = await client.send('example_get_chat', { userbot_id: bob, chat_id: LOUNGE })
		expect(chat).toMatchObject({ _: 'chat', id: LOUNGE, title: 'Emulator Lounge' })
	})

	it('requires chat_id and passes TDLib’s error through', async () => {
		await expect(client.send('example_get_chat', { userbot_id: bob } as never)).rejects.toMatchObject({
			error: 'chat_id is required',
		})
		await expect(client.send('example_get_chat', { userbot_id: bob, chat_id: -42 })).rejects.toMatchObject({
			error: 'Chat not found',
		})
	})
})

describe('search_public_chat', () => {
	it('finds a user by @name and a channel by name, whatever the case', async () => {
		const alice = await client.send('search_public_chat', { userbot_id: bob, username: '@Alice' })
		expect(alice).toMatchObject({ _: 'chat', id: 1001 })
		const news = await client.send('search_public_chat', { userbot_id: bob, username: 'emulator_news' })
		expect(news).toMatchObject({ _: 'chat', title: 'Emulator News' })
	})

	it('answers a name nobody holds with the server’s error, and an empty one with ours', async () => {
		const nobody = client.send('search_public_chat', { userbot_id: bob, username: 'nobody_here' })
		await expect(nobody).rejects.toMatchObject({ error: 'USERNAME_NOT_OCCUPIED' })
		for (const username of ['', null]) {
			const refused = client.send('search_public_chat', { userbot_id: bob, username } as never)
			await expect(refused).rejects.toMatchObject({ error: 'username is required' })
		}
		const notText = client.send('search_public_chat', { userbot_id: bob, username: 5 } as never)
		await expect(notText).rejects.toMatchObject({ error: 'username must be a string' })
	})
})

describe('join_chat_by_invite_link', () => {
	it('joins a group by a link another account made, then the group is one of its chats', async () => {
		// Dave (1004) is in the basic group only; Bob owns the lounge and makes the link.
		const dave = await server.createUserbot(user, '9996614444')
		const link = await client.send('create_chat_invite_link', {
			userbot_id: bob,
			chat_id: LOUNGE,
			name: 'dave',
		})
		const joined = await client.send('join_chat_by_invite_link', {
			userbot_id: dave,
			invite_link: link.invite_link,
		})
		expect(joined).toEqual({ _: 'chatJoinResultSuccess', chat_id: LOUNGE })
		const chats = await client.send('example_get_chats', { userbot_id: dave })
		expect(chats.chat_ids).toContain(LOUNGE)
		// A second time, Telegram says so.
		const again = client.send('join_chat_by_invite_link', { userbot_id: dave, invite_link: link.invite_link })
		await expect(again).rejects.toMatchObject({ error: 'USER_ALREADY_PARTICIPANT' })
	})

	it('requires a link, and passes a malformed one to TDLib, which refuses it', async () => {
		const missing = client.send('join_chat_by_invite_link', { userbot_id: bob } as never)
		await expect(missing).rejects.toBeInstanceOf(CommandFailed)
		await expect(missing).rejects.toMatchObject({ error: 'invite_link is required' })
		const wrong = client.send('join_chat_by_invite_link', { userbot_id: bob, invite_link: 'not a link' })
		await expect(wrong).rejects.toMatchObject({ error: 'Wrong invite link' })
	})
})
