import type * as Td from 'tdlib-types'
import { defaultPermissions, newMember } from '../members/rights'
import { type ChatKind, type ChatRecord, type Role, type UserRecord, World } from '../world'
import { seedReadSide } from './read-side'

/**
 * Deterministic seed data: the same users, chats and messages in every child process. Phones
 * follow Telegram's test-DC convention `99966XYYYY` (code: X five times). Dated from
 * `SEED_AGE_SECONDS` before the world is made, one second apart, in the order they are listed.
 */
export const SEED_USERS: ReadonlyArray<Omit<UserRecord, 'defaultAutoDeleteTime'>> = [
	{ id: 1001, firstName: 'Alice', lastName: 'Archer', username: 'alice', phone: '9996611111' },
	{ id: 1002, firstName: 'Bob', lastName: 'Baker', username: 'bob', phone: '9996621234' },
	{
		id: 1003,
		firstName: 'Carol',
		lastName: 'Clark',
		username: 'carol',
		phone: '9996631111',
		password: { value: 'secret-2fa', hint: 'the usual one' },
	},
	{ id: 1004, firstName: 'Dave', lastName: 'Dunn', username: 'dave', phone: '9996614444' },
	{ id: 1005, firstName: 'Eve', lastName: 'Evans', phone: '9996625555' },
	{ id: 777000, firstName: 'Telegram', lastName: '' },
]

import { SEED_CHATS } from './ids'

export { SEED_CHATS }

const text = (t: string): Td.messageText => ({
	_: 'messageText',
	text: { _: 'formattedText', text: t, entities: [] },
})

interface GroupSeed {
	id: number
	groupId: number
	kind: ChatKind
	title: string
	/** In the order they joined; administrators were promoted by the owner, who comes first. */
	members: Array<[number, Role]>
	messages: Array<[number, string]>
	isForum?: boolean
	/** Members who are no administrators may not add others. */
	adminsInviteOnly?: boolean
}

const GROUPS: GroupSeed[] = [
	{
		id: SEED_CHATS.basicGroup,
		groupId: 2001,
		kind: 'basicGroup',
		title: 'Team Chat',
		adminsInviteOnly: true,
		members: [
			[1001, 'creator'],
			[1002, 'administrator'],
			[1003, 'member'],
			[1004, 'member'],
		],
		messages: [
			[1001, 'Welcome to the team chat'],
			[1002, 'Hi all'],
			[1003, 'Hello!'],
		],
	},
	{
		id: SEED_CHATS.supergroup,
		groupId: 3001,
		kind: 'supergroup',
		title: 'Emulator Lounge',
		members: [
			[1002, 'creator'],
			[1001, 'administrator'],
			[1003, 'member'],
			[1005, 'member'],
		],
		messages: [
			[1002, 'This is the lounge'],
			[1003, 'Nice place'],
			[1001, 'Agreed'],
		],
	},
	{
		id: SEED_CHATS.channel,
		groupId: 3002,
		kind: 'channel',
		title: 'Emulator News',
		members: [
			[1003, 'creator'],
			[1002, 'administrator'],
			[1001, 'member'],
		],
		messages: [
			[1003, 'First post'],
			[1003, 'Second post'],
		],
	},
	{
		id: SEED_CHATS.forum,
		groupId: 3003,
		kind: 'supergroup',
		isForum: true,
		title: 'Emulator Forum',
		members: [
			[1001, 'creator'],
			[1002, 'member'],
		],
		messages: [[1001, 'Forum rules']],
	},
]

const PRIVATE: Array<[number, number, Array<[number, string]>]> = [
	[
		1001,
		1002,
		[
			[1002, 'Hi Alice'],
			[1001, 'Hi Bob'],
			[1002, 'How are you?'],
		],
	],
	[1001, 1003, [[1003, 'Hey Alice, it is Carol']]],
	[1001, 777000, [[777000, 'Login code: 11111. Do not give this code to anyone.']]],
]

/** How long before the world's making its seeded history happened: a few days, in order. */
export const SEED_AGE_SECONDS = 3 * 86_400

export function createSeededWorld(): World {
	const world = new World()
	const made = world.clock
	world.clock = made - SEED_AGE_SECONDS
	for (const u of SEED_USERS) world.users.set(u.id, { ...u, defaultAutoDeleteTime: 0 })
	for (const g of GROUPS) {
		const owner = g.members.find(([, role]) => role === 'creator')?.[0] ?? 0
		const chat: ChatRecord = {
			kind: g.kind,
			id: g.id,
			groupId: g.groupId,
			title: g.title,
			members: new Map(
				g.members.map(([id, role]) => [id, newMember(role, role === 'creator' ? 0 : owner, world.now())]),
			),
			banned: new Map(),
			messages: new Map(),
			lastServerId: 0,
			autoDeleteTime: 0,
			isForum: g.isForum,
			events: [],
		}
		if (g.adminsInviteOnly) chat.permissions = { ...defaultPermissions(true), can_invite_users: false }
		world.groups.set(g.id, chat)
		for (const [sender, t] of g.messages) world.addMessage(chat, sender, text(t))
	}
	for (const [a, b, messages] of PRIVATE) {
		const chat = world.privateChat(a, b, true)!
		for (const [sender, t] of messages) world.addMessage(chat, sender, text(t))
	}
	seedReadSide(world, SEED_CHATS.supergroup)
	// What happens from now on happens today.
	world.clock = Math.max(world.clock, made)
	return world
}
