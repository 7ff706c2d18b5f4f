import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type * as Td from 'tdlib-types'
import { SEED_CHATS } from '../../../src/emulator'
import { createInviteFixture, type InviteFixture, USER } from './invite-fixture'

/**
 * Join requests and link members over the real WebSocket: other accounts of the same world ask to
 * join through TDLib's joinChatByInviteLink; Bob's userbot answers them with the commands.
 */
let x: InviteFixture
type Link = Td.chatInviteLink
type Requests = Td.chatJoinRequests
type Members = Td.chatInviteLinkMembers

beforeAll(async () => {
	x = await createInviteFixture()
})
afterAll(() => x.stop())

const join = (bot: number, invite_link: string) => x.td(bot, { _: 'joinChatByInviteLink', invite_link })
const approvalLink = (chat_id: number, name: string) =>
	x.ok<Link>('create_chat_invite_link', { chat_id, name, creates_join_request: true })
const pending = async (chat_id: number) =>
	(await x.ok<Requests>('get_chat_join_requests', { chat_id, all: true })).requests.map((r) => r.user_id)

describe('get_chat_join_requests', () => {
	let chat: number
	let first: Link
	beforeAll(async () => {
		chat = await x.newGroup('Requests to read')
		first = await approvalLink(chat, 'first')
		const second = await approvalLink(chat, 'second')
		await join(x.bots.eve, first.invite_link)
		await join(x.bots.dave, first.invite_link)
		await join(x.bots.alice, second.invite_link)
	})

	it('requires invite_link (as the protocol does), and lists every request of the chat with all: true, newest first', async () => {
		for (const frame of [{}, { invite_link: '' }, { invite_link: null }, { all: false }])
			expect(await x.errorOf('get_chat_join_requests', { chat_id: chat, ...frame })).toBe(
				'invite_link is required',
			)
		expect(
			await x.errorOf('get_chat_join_requests', { chat_id: chat, invite_link: first.invite_link, all: true }),
		).toBe('invite_link and all: true cannot be used together')
		const all = await x.ok<Requests>('get_chat_join_requests', { chat_id: chat, all: true })
		expect(all).toEqual({
			_: 'chatJoinRequests',
			total_count: 3,
			requests: [USER.alice, USER.dave, USER.eve].map((user_id) => ({
				_: 'chatJoinRequest',
				user_id,
				date: expect.any(Number),
				bio: '',
			})),
		})
	})

	it("lists one link's requests, by name, from an offset", async () => {
		const byLink = await x.ok<Requests>('get_chat_join_requests', {
			chat_id: chat,
			invite_link: first.invite_link,
		})
		expect(byLink.requests.map((r) => r.user_id)).toEqual([USER.dave, USER.eve])
		const byName = await x.ok<Requests>('get_chat_join_requests', { chat_id: chat, all: true, query: 'eve' })
		expect(byName.requests.map((r) => r.user_id)).toEqual([USER.eve])
		const [newest] = (await x.ok<Requests>('get_chat_join_requests', { chat_id: chat, all: true })).requests
		const next = await x.ok<Requests>('get_chat_join_requests', {
			chat_id: chat,
			all: true,
			offset_request: { '@type': 'chatJoinRequest', user_id: newest!.user_id, date: newest!.date },
			limit: 1,
		})
		expect(next.requests.map((r) => r.user_id)).toEqual([USER.dave])
	})

	it('answers its strings, the validator on offset_request, and TDLib errors passed through', async () => {
		expect(await x.errorOf('get_chat_join_requests', {})).toBe('chat_id is required')
		expect(await x.errorOf('get_chat_join_requests', { chat_id: chat, all: true, offset_request: 5 })).toBe(
			'offset_request must be an object',
		)
		expect(
			await x.errorOf('get_chat_join_requests', {
				chat_id: chat,
				all: true,
				offset_request: { '@type': 'chatJoinRequest', user_id: 'me' },
			}),
		).toBe('offset_request.user_id must be an integer')
		expect(
			await x.errorOf('get_chat_join_requests', {
				chat_id: chat,
				all: true,
				offset_request: { '@type': 'chatInviteLinkMember', user_id: 1 },
			}),
		).toBe('offset_request: chatInviteLinkMember is not allowed here')
		expect(await x.errorOf('get_chat_join_requests', { chat_id: chat, all: true, limit: -1 })).toBe(
			'Parameter limit must be positive',
		)
		expect(
			await x.errorOf('get_chat_join_requests', { chat_id: SEED_CHATS.supergroup, all: true }, x.bots.eve),
		).toBe('Not enough rights to manage chat join requests')
	})
})

describe('process_chat_join_request', () => {
	let chat: number
	beforeAll(async () => {
		chat = await x.newGroup('One by one')
		const link = await approvalLink(chat, 'door')
		await join(x.bots.dave, link.invite_link)
		await join(x.bots.eve, link.invite_link)
	})

	it('approves by default, and declines with approve: false', async () => {
		expect(await x.ok('process_chat_join_request', { chat_id: chat, user_id: USER.dave })).toEqual({
			_: 'ok',
		})
		expect(await x.isMember(x.bots.dave, chat)).toBe(true)
		expect(
			await x.ok('process_chat_join_request', { chat_id: chat, user_id: USER.eve, approve: false }),
		).toEqual({ _: 'ok' })
		expect(await x.isMember(x.bots.eve, chat)).toBe(false)
		expect(await pending(chat)).toEqual([])
	})

	it('answers its strings, and TDLib errors passed through', async () => {
		expect(await x.errorOf('process_chat_join_request', { user_id: USER.eve })).toBe('chat_id is required')
		expect(await x.errorOf('process_chat_join_request', { chat_id: chat })).toBe('user_id is required')
		expect(
			await x.errorOf('process_chat_join_request', { chat_id: chat, user_id: USER.eve, approve: 'yes' }),
		).toBe('approve must be a boolean')
		expect(await x.errorOf('process_chat_join_request', { chat_id: chat, user_id: USER.eve })).toBe(
			'HIDE_REQUESTER_MISSING',
		)
	})
})

describe('process_chat_join_requests', () => {
	let chat: number
	let door: Link
	let side: Link
	beforeAll(async () => {
		chat = await x.newGroup('In bulk')
		door = await approvalLink(chat, 'door')
		side = await approvalLink(chat, 'side')
		await join(x.bots.dave, door.invite_link)
		await join(x.bots.eve, door.invite_link)
		await join(x.bots.alice, side.invite_link)
	})

	it('refuses a frame without a link, and lets nobody in', async () => {
		expect(await x.errorOf('process_chat_join_requests', { chat_id: chat })).toBe('invite_link is required')
		expect(await x.errorOf('process_chat_join_requests', { chat_id: chat, invite_link: '' })).toBe(
			'invite_link is required',
		)
		expect(await x.errorOf('process_chat_join_requests', { chat_id: chat, all: false })).toBe(
			'invite_link is required',
		)
		expect(
			await x.errorOf('process_chat_join_requests', {
				chat_id: chat,
				all: true,
				invite_link: door.invite_link,
			}),
		).toBe('invite_link and all: true cannot be used together')
		expect(await x.errorOf('process_chat_join_requests', { chat_id: chat, all: 'yes' })).toBe(
			'all must be a boolean',
		)
		expect(await x.errorOf('process_chat_join_requests', { invite_link: door.invite_link })).toBe(
			'chat_id is required',
		)
		expect(await pending(chat)).toEqual([USER.alice, USER.eve, USER.dave])
	})

	it("approves one link's requests, by default", async () => {
		expect(
			await x.ok('process_chat_join_requests', { chat_id: chat, invite_link: door.invite_link }),
		).toEqual({
			_: 'ok',
		})
		expect(await x.isMember(x.bots.dave, chat)).toBe(true)
		expect(await x.isMember(x.bots.eve, chat)).toBe(true)
		expect(await pending(chat)).toEqual([USER.alice])
	})

	it('declines every request of the chat with all: true', async () => {
		expect(await x.ok('process_chat_join_requests', { chat_id: chat, all: true, approve: false })).toEqual({
			_: 'ok',
		})
		expect(await x.isMember(x.bots.alice, chat)).toBe(false)
		expect(await pending(chat)).toEqual([])
	})

	it('passes a TDLib rights error through', async () => {
		expect(
			await x.errorOf(
				'process_chat_join_requests',
				{ chat_id: SEED_CHATS.supergroup, all: true },
				x.bots.eve,
			),
		).toBe('Not enough rights to manage chat join requests')
	})
})

describe('get_chat_invite_link_members', () => {
	let chat: number
	let link: Link
	beforeAll(async () => {
		chat = await x.newGroup('Who came in')
		link = await x.ok<Link>('create_chat_invite_link', { chat_id: chat, name: 'open' })
		await join(x.bots.dave, link.invite_link)
		await join(x.bots.eve, link.invite_link)
	})

	it('lists who joined by the link, newest first, from an offset', async () => {
		const all = await x.ok<Members>('get_chat_invite_link_members', {
			chat_id: chat,
			invite_link: link.invite_link,
		})
		expect(all).toEqual({
			_: 'chatInviteLinkMembers',
			total_count: 2,
			members: [USER.eve, USER.dave].map((user_id) => ({
				_: 'chatInviteLinkMember',
				user_id,
				joined_chat_date: expect.any(Number),
				via_chat_folder_invite_link: false,
				approver_user_id: 0,
			})),
		})
		const next = await x.ok<Members>('get_chat_invite_link_members', {
			chat_id: chat,
			invite_link: link.invite_link,
			offset_member: all.members[0],
			limit: 1,
		})
		expect(next.members.map((m) => m.user_id)).toEqual([USER.dave])
		const expired = await x.ok<Members>('get_chat_invite_link_members', {
			chat_id: chat,
			invite_link: link.invite_link,
			only_with_expired_subscription: true,
		})
		expect(expired.total_count).toBe(0)
	})

	it('answers its strings, the validator on offset_member, and TDLib errors passed through', async () => {
		expect(await x.errorOf('get_chat_invite_link_members', { invite_link: link.invite_link })).toBe(
			'chat_id is required',
		)
		expect(await x.errorOf('get_chat_invite_link_members', { chat_id: chat })).toBe('invite_link is required')
		expect(
			await x.errorOf('get_chat_invite_link_members', {
				chat_id: chat,
				invite_link: link.invite_link,
				offset_member: { '@type': 'chatInviteLinkMember', joined_chat_date: 2 ** 40 },
			}),
		).toBe('offset_member.joined_chat_date is out of range')
		expect(
			await x.errorOf('get_chat_invite_link_members', {
				chat_id: chat,
				invite_link: link.invite_link,
				offset_member: [],
			}),
		).toBe('offset_member must be an object')
		expect(
			await x.errorOf('get_chat_invite_link_members', { chat_id: chat, invite_link: 'https://t.me/+gone' }),
		).toBe('INVITE_HASH_INVALID')
		expect(
			await x.errorOf(
				'get_chat_invite_link_members',
				{ chat_id: chat, invite_link: link.invite_link },
				x.bots.eve,
			),
		).toBe('Not enough rights to manage chat invite link')
	})
})
