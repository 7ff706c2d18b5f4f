import { describe, expect, it } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type * as Td from 'tdlib-types'
import { createEmulatorBackend, emulatorRequest, SEED_CHATS } from '../../src/emulator'
import { BadGraphError, decodeGraph, encodeGraph, NotPlainDataError } from '../../src/emulator/cloud/codec'
import { decodeWorld, encodeWorld } from '../../src/emulator/cloud/world-state'
import { createSeededWorld } from '../../src/emulator/seed'
import { World } from '../../src/emulator/world'
import type { BackendClient, TdRequest } from '../../src/runtime/telegram/types'

const roundTrip = (v: unknown) => decodeGraph(JSON.parse(JSON.stringify(encodeGraph(v))))

describe('the emulated cloud codec', () => {
	it('keeps Maps, Sets, arrays, objects and every primitive, -0, NaN, undefined and bigints included', () => {
		const value = {
			map: new Map<unknown, unknown>([
				[1, 'one'],
				['k', { deep: [1, 2, new Set([3, 'x'])] }],
			]),
			numbers: [0, -0, 1.5, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 2 ** 60],
			nothing: undefined,
			none: null,
			flag: false,
			big: 123456789012345678901234567890n,
			text: 'ünïcödé 👍',
		}
		const back = roundTrip(value) as typeof value
		expect(back).toEqual(value)
		expect(Object.is(back.numbers[1], -0)).toBe(true)
		expect('nothing' in back).toBe(true)
		expect(back.map.get('k')).toEqual({ deep: [1, 2, new Set([3, 'x'])] })
	})

	it('keeps shared records shared and cycles whole', () => {
		const chat = { id: -1, members: new Map<number, unknown>() }
		const link = { chat, self: undefined as unknown }
		link.self = link
		const value = { groups: new Map([[-1, chat]]), links: [link], byName: { lounge: chat } }
		const back = roundTrip(value) as typeof value
		const again = back.groups.get(-1)
		expect(back.links[0]!.chat).toBe(again!)
		expect(back.byName.lounge).toBe(again!)
		expect(back.links[0]!.self).toBe(back.links[0])
	})

	it('keeps a key named __proto__ a key', () => {
		const value = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}')
		const back = roundTrip(value) as Record<string, unknown>
		expect(Object.getPrototypeOf(back)).toBe(Object.prototype)
		expect(Object.keys(back)).toEqual(['__proto__', 'a'])
		expect(({} as Record<string, unknown>).polluted).toBeUndefined()
	})

	it('refuses what is not plain data, naming where it is', () => {
		class Live {}
		const cases: Array<[unknown, string]> = [
			[{ sessions: { own: new WeakMap() } }, '.sessions.own is a WeakMap'],
			[{ list: [1, () => 2] }, '.list[1] is a function'],
			[{ byId: new Map([[7, { client: new Live() }]]) }, '.byId.get(7).client is a Live'],
			[{ when: Promise.resolve() }, '.when is a Promise'],
		]
		for (const [value, where] of cases) {
			expect(() => encodeGraph(value)).toThrow(NotPlainDataError)
			expect(() => encodeGraph(value)).toThrow(where)
		}
	})

	it('refuses a damaged table instead of building half a value', () => {
		const bad: unknown[] = [
			null,
			{ nodes: 'x', root: 1 },
			{ nodes: [['q']], root: { r: 0 } },
			{ nodes: [['o', 'a']], root: { r: 0 } },
			{ nodes: [['a', { r: 5 }]], root: { r: 0 } },
			{ nodes: [['o', 1, 2]], root: { r: 0 } },
			{ nodes: [], root: { z: 1 } },
			{ nodes: [], root: { b: '12x' } },
		]
		for (const graph of bad) expect(() => decodeGraph(graph)).toThrow(BadGraphError)
	})
})

/** A logged-in client of `world` (in memory), as a unit test of the emulator makes one. */
async function logIn(world: World, dir: string, id: number, phone: string): Promise<BackendClient> {
	const databaseDirectory = join(dir, String(id))
	mkdirSync(databaseDirectory, { recursive: true })
	const client = createEmulatorBackend(world).createClient(id, {
		databaseDirectory,
		filesDirectory: databaseDirectory,
		encryptionKey: '',
	})
	await client.invoke({ _: 'setAuthenticationPhoneNumber', phone_number: phone })
	await client.invoke({ _: 'checkAuthenticationCode', code: phone.charAt(5).repeat(5) })
	return client
}

const call = <T>(c: BackendClient, request: Record<string, unknown>) =>
	c.invoke(request as unknown as TdRequest) as Promise<T>

describe('a world through the state file', () => {
	it('comes back the same after every domain has kept something in it', async () => {
		const world = createSeededWorld()
		const dir = mkdtempSync(join(tmpdir(), 'ubg-world-'))
		try {
			const alice = await logIn(world, dir, 1, '9996611111')
			const bob = await logIn(world, dir, 2, '9996621234')
			// A sign-up, and every domain's state: sessions, privacy, blocks, 2FA and its mail, invites
			// and their members, members added, messages with reactions, public chats.
			const newcomer = createEmulatorBackend(world).createClient(3, {
				databaseDirectory: join(dir, '3'),
				filesDirectory: join(dir, '3'),
				encryptionKey: '',
			})
			mkdirSync(join(dir, '3'))
			await call(newcomer, { _: 'setAuthenticationPhoneNumber', phone_number: '9996617001' })
			await call(newcomer, { _: 'checkAuthenticationCode', code: '11111' })
			await call(newcomer, {
				_: 'registerUser',
				first_name: 'New',
				last_name: '',
				disable_notification: false,
			})
			await call(alice, { _: 'getActiveSessions' })
			await call(alice, {
				_: 'setUserPrivacySettingRules',
				setting: { _: 'userPrivacySettingShowStatus' },
				rules: { _: 'userPrivacySettingRules', rules: [{ _: 'userPrivacySettingRuleRestrictAll' }] },
			})
			await call(alice, {
				_: 'setMessageSenderBlockList',
				sender_id: { _: 'messageSenderUser', user_id: 1004 },
				block_list: { _: 'blockListMain' },
			})
			await call(bob, {
				_: 'setPassword',
				old_password: '',
				new_password: 'kept',
				new_hint: 'h',
				set_recovery_email_address: true,
				new_recovery_email_address: 'bob@example.com',
			})
			await call(bob, emulatorRequest({ _: 'emulatorSetSessionAge', seconds: 60 }))
			const link = await call<Td.chatInviteLink>(bob, {
				_: 'createChatInviteLink',
				chat_id: SEED_CHATS.supergroup,
				name: 'kept',
				expiration_date: 0,
				member_limit: 0,
				creates_join_request: false,
			})
			await call(newcomer, { _: 'joinChatByInviteLink', invite_link: link.invite_link })
			await call(alice, {
				_: 'addChatMember',
				chat_id: SEED_CHATS.basicGroup,
				user_id: 1005,
				forward_limit: 0,
			})
			await call(alice, {
				_: 'sendMessage',
				chat_id: 1002,
				input_message_content: {
					_: 'inputMessageText',
					text: { _: 'formattedText', text: 'kept', entities: [] },
				},
			})
			await call(alice, {
				_: 'addMessageReaction',
				chat_id: 1002,
				// The seed's last message of Alice and Bob's chat.
				message_id: 3 * 2 ** 20,
				reaction_type: { _: 'reactionTypeEmoji', emoji: '👍' },
				is_big: false,
				update_recent_reactions: false,
			})
			await call(alice, { _: 'searchPublicChat', username: 'emulator_news' })

			const text = encodeWorld(world)
			const back = decodeWorld(text)
			expect(encodeWorld(back)).toBe(text)
			expect(back.clock).toBe(world.clock)
			expect([...back.authorizations.keys()]).toEqual([...world.authorizations.keys()])
			// Shared records stay shared: the invite link's chat is the world's group.
			const invites = back.store('invites', () => ({ links: new Map() })) as {
				links: Map<string, { chat: unknown }>
			}
			for (const l of invites.links.values()) expect(l.chat).toBe(back.groups.get(SEED_CHATS.supergroup))
		} finally {
			rmSync(dir, { recursive: true, force: true })
		}
	})

	it('refuses a store that holds a live object, when it is made', () => {
		const world = new World()
		expect(() => world.store('bad', () => ({ clients: new WeakMap() }))).toThrow('WeakMap')
	})

	it('keeps what a new world holds for a field the file lacks, and refuses one of another kind', () => {
		const text = encodeWorld(createSeededWorld())
		const parsed = JSON.parse(text)
		const fields = decodeGraph(parsed.world) as Record<string, unknown>
		delete fields.nextFileId
		expect(decodeWorld(JSON.stringify({ ...parsed, world: encodeGraph(fields) })).nextFileId).toBe(1)
		fields.users = [1, 2]
		expect(() => decodeWorld(JSON.stringify({ ...parsed, world: encodeGraph(fields) }))).toThrow(
			BadGraphError,
		)
		expect(() => decodeWorld('{"format":"other"}')).toThrow(BadGraphError)
	})
})
