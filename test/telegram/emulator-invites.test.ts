import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type * as Td from 'tdlib-types'
import { SEED_CHATS } from '../../src/emulator'
import { TdError } from '../../src/runtime/telegram/types'
import { login, startRuntime, type TestRuntime } from '../supervisor/helpers'

/**
 * The emulated invites domain through its own TDLib methods, with four accounts in one world:
 * Bob (creator of the chats made here), Alice, Dave and Eve (who join by link).
 */
const BOB = 1
const ALICE = 2
const DAVE = 3
const EVE = 4
const USER = { bob: 1002, alice: 1001, dave: 1004, eve: 1005 }

const tdError = async (p: Promise<unknown>) => {
	try {
		await p
	} catch (err) {
		expect(err).toBeInstanceOf(TdError)
		return { code: (err as TdError).code, message: (err as TdError).message }
	}
	throw new Error('expected a TdError')
}
const message = async (p: Promise<unknown>) => (await tdError(p)).message
const user = (user_id: number): Td.messageSenderUser => ({ _: 'messageSenderUser', user_id })

let t: TestRuntime
const invoke: TestRuntime['rt']['invoke'] = (id, req, opts) => t.rt.invoke(id, req, opts)

beforeAll(async () => {
	t = await startRuntime()
	await login(t.rt, BOB, '9996621234')
	await login(t.rt, ALICE, '9996611111')
	await login(t.rt, DAVE, '9996614444')
	await login(t.rt, EVE, '9996625555')
})
afterAll(() => t.stop())

const newGroup = async (title: string, is_channel = false) =>
	(await invoke(BOB, { _: 'createNewSupergroupChat', title, is_channel, is_forum: false, description: '' }))
		.id
const create = (chat_id: number, fields: Partial<Td.createChatInviteLink> = {}, as = BOB) =>
	invoke(as, {
		_: 'createChatInviteLink',
		chat_id,
		name: '',
		expiration_date: 0,
		member_limit: 0,
		creates_join_request: false,
		...fields,
	})
const join = (as: number, invite_link: string) => invoke(as, { _: 'joinChatByInviteLink', invite_link })
const linkNamed = async (chat_id: number, invite_link: string) =>
	invoke(BOB, { _: 'getChatInviteLink', chat_id, invite_link })

describe('emulator: making a supergroup', () => {
	it('creates a supergroup or channel that only its creator sees', async () => {
		const chat = await invoke(BOB, {
			_: 'createNewSupergroupChat',
			title: ' Fresh group ',
			is_channel: false,
			is_forum: false,
			description: '',
		})
		expect(chat).toMatchObject({ title: 'Fresh group', type: { _: 'chatTypeSupergroup', is_channel: false } })
		expect(chat.last_message?.content._).toBe('messageSupergroupChatCreate')
		const channel = await newGroup('Fresh channel', true)
		expect(channel).not.toBe(chat.id)
		expect((await invoke(BOB, { _: 'getChat', chat_id: channel })).type).toMatchObject({ is_channel: true })
		expect(await message(invoke(ALICE, { _: 'getChat', chat_id: chat.id }))).toBe('Chat not found')
		expect(
			await message(
				invoke(BOB, {
					_: 'createNewSupergroupChat',
					title: '  ',
					is_channel: false,
					is_forum: false,
					description: '',
				}),
			),
		).toBe('Title must be non-empty')
	})
})

describe('emulator: invite links', () => {
	let chat: number
	beforeAll(async () => {
		chat = await newGroup('Links')
	})

	it('makes the primary link on first need and keeps it', async () => {
		const list = { _: 'getChatInviteLinks', chat_id: 0, creator_user_id: USER.bob, limit: 10 } as const
		const first = await invoke(BOB, { ...list, chat_id: chat })
		expect(first.total_count).toBe(1)
		expect(first.invite_links[0]).toMatchObject({
			is_primary: true,
			is_revoked: false,
			creator_user_id: 1002,
		})
		expect(first.invite_links[0]!.invite_link).toMatch(/^https:\/\/t\.me\/\+[A-Za-z0-9_-]{16}$/)
		expect((await invoke(BOB, { ...list, chat_id: chat })).invite_links).toEqual(first.invite_links)
	})

	it('creates links with their terms, cleaned name and TDLib and server errors', async () => {
		const link = await create(chat, {
			name: `\u0007 ${'n'.repeat(40)}`,
			expiration_date: 2_000_000_000,
			member_limit: 5,
		})
		expect(link).toMatchObject({
			_: 'chatInviteLink',
			name: 'n'.repeat(32),
			expiration_date: 2_000_000_000,
			member_limit: 5,
			member_count: 0,
			pending_join_request_count: 0,
			creates_join_request: false,
			is_primary: false,
			is_revoked: false,
		})
		expect(await message(create(chat, { member_limit: 3, creates_join_request: true }))).toBe(
			"Member limit can't be specified for links requiring administrator approval",
		)
		expect(await message(create(chat, { expiration_date: 1_000 }))).toBe('EXPIRE_DATE_INVALID')
		expect(await message(create(chat, { member_limit: 100_000 }))).toBe('USAGE_LIMIT_INVALID')
		expect(await message(create(-42))).toBe('Chat not found')
		expect(await message(create(USER.alice))).toBe("Can't invite members to a private chat")
		// Eve is an ordinary member of the seeded supergroup.
		expect(await message(create(SEED_CHATS.supergroup, {}, EVE))).toBe(
			'Not enough rights to manage chat invite link',
		)
	})

	it('lists by creator and revoked flag, pages, and keeps other creators to the owner', async () => {
		const a = await create(chat, { name: 'a' })
		const b = await create(chat, { name: 'b' })
		const all = await invoke(BOB, {
			_: 'getChatInviteLinks',
			chat_id: chat,
			creator_user_id: 1002,
			limit: 100,
		})
		expect(all.invite_links[0]!.is_primary).toBe(true)
		const names = all.invite_links.map((l) => l.name)
		expect(names.indexOf('b')).toBeLessThan(names.indexOf('a'))
		const next = await invoke(BOB, {
			_: 'getChatInviteLinks',
			chat_id: chat,
			creator_user_id: 1002,
			offset_date: b.date,
			offset_invite_link: b.invite_link,
			limit: 1,
		})
		expect(next.invite_links.map((l) => l.invite_link)).toEqual([a.invite_link])
		expect(next.total_count).toBe(all.total_count)
		expect(
			await message(invoke(BOB, { _: 'getChatInviteLinks', chat_id: chat, creator_user_id: 1002, limit: 0 })),
		).toBe('Parameter limit must be positive')
		expect(
			await message(invoke(BOB, { _: 'getChatInviteLinks', chat_id: chat, creator_user_id: 9, limit: 5 })),
		).toBe('User not found')
		// Alice administers the seeded supergroup, whose owner is Bob.
		expect(
			await message(
				invoke(ALICE, {
					_: 'getChatInviteLinks',
					chat_id: SEED_CHATS.supergroup,
					creator_user_id: 1002,
					limit: 5,
				}),
			),
		).toBe('Not enough rights to manage chat invite link')
		const alices = await create(SEED_CHATS.supergroup, { name: 'alice' }, ALICE)
		const seen = await invoke(BOB, {
			_: 'getChatInviteLinks',
			chat_id: SEED_CHATS.supergroup,
			creator_user_id: 1001,
			limit: 5,
		})
		expect(seen.invite_links.map((l) => l.invite_link)).toEqual([alices.invite_link])
	})

	it('edits every field, and refuses primary, revoked and other admins links', async () => {
		const link = await create(chat, { name: 'old', member_limit: 4 })
		const edited = await invoke(BOB, {
			_: 'editChatInviteLink',
			chat_id: chat,
			invite_link: link.invite_link,
			name: 'new',
			expiration_date: 0,
			member_limit: 0,
			creates_join_request: true,
		})
		expect(edited).toMatchObject({
			name: 'new',
			member_limit: 0,
			creates_join_request: true,
			date: link.date,
		})
		expect(edited.edit_date).toBeGreaterThan(link.date)
		expect(await linkNamed(chat, link.invite_link)).toEqual(edited)
		const primary = await invoke(BOB, { _: 'replacePrimaryChatInviteLink', chat_id: chat })
		const editOf = (invite_link: string, as = BOB, chat_id = chat) =>
			invoke(as, { _: 'editChatInviteLink', chat_id, invite_link, name: 'x' })
		expect(await message(editOf(primary.invite_link))).toBe('CHAT_INVITE_PERMANENT')
		expect(await message(editOf('https://t.me/+unknownHash123'))).toBe('INVITE_HASH_INVALID')
		expect(await message(editOf(''))).toBe('Invite link must be non-empty')
		const bobs = await create(SEED_CHATS.supergroup, { name: 'bob' })
		expect(await message(editOf(bobs.invite_link, ALICE, SEED_CHATS.supergroup))).toBe('CHAT_ADMIN_REQUIRED')
		await invoke(BOB, { _: 'revokeChatInviteLink', chat_id: chat, invite_link: link.invite_link })
		expect(await message(editOf(link.invite_link))).toBe('INVITE_HASH_EXPIRED')
	})

	it('revokes (a primary one gets a successor), deletes revoked links, replaces the primary', async () => {
		const extra = await create(chat, { name: 'extra' })
		const revoked = await invoke(BOB, {
			_: 'revokeChatInviteLink',
			chat_id: chat,
			invite_link: extra.invite_link,
		})
		expect(revoked.total_count).toBe(1)
		expect(revoked.invite_links[0]).toMatchObject({ invite_link: extra.invite_link, is_revoked: true })

		const before = await invoke(BOB, {
			_: 'getChatInviteLinks',
			chat_id: chat,
			creator_user_id: 1002,
			limit: 9,
		})
		const primary = before.invite_links[0]!
		const both = await invoke(BOB, {
			_: 'revokeChatInviteLink',
			chat_id: chat,
			invite_link: primary.invite_link,
		})
		expect(both.invite_links.map((l) => [l.is_primary, l.is_revoked])).toEqual([
			[true, true],
			[true, false],
		])
		expect(both.invite_links[1]!.invite_link).not.toBe(primary.invite_link)

		const replaced = await invoke(BOB, { _: 'replacePrimaryChatInviteLink', chat_id: chat })
		expect(replaced).toMatchObject({ is_primary: true, is_revoked: false })
		expect(replaced.invite_link).not.toBe(both.invite_links[1]!.invite_link)
		const revokedList = await invoke(BOB, {
			_: 'getChatInviteLinks',
			chat_id: chat,
			creator_user_id: 1002,
			is_revoked: true,
			limit: 50,
		})
		expect(revokedList.invite_links.map((l) => l.invite_link)).toEqual(
			expect.arrayContaining([extra.invite_link, primary.invite_link, both.invite_links[1]!.invite_link]),
		)

		const live = await create(chat)
		expect(
			await message(
				invoke(BOB, { _: 'deleteRevokedChatInviteLink', chat_id: chat, invite_link: live.invite_link }),
			),
		).toBe('INVITE_REVOKED_MISSING')
		expect(
			await invoke(BOB, { _: 'deleteRevokedChatInviteLink', chat_id: chat, invite_link: extra.invite_link }),
		).toEqual({ _: 'ok' })
		expect(await message(linkNamed(chat, extra.invite_link))).toBe('INVITE_HASH_INVALID')
		expect(
			await invoke(BOB, { _: 'deleteAllRevokedChatInviteLinks', chat_id: chat, creator_user_id: 1002 }),
		).toEqual({ _: 'ok' })
		const after = await invoke(BOB, {
			_: 'getChatInviteLinks',
			chat_id: chat,
			creator_user_id: 1002,
			is_revoked: true,
			limit: 50,
		})
		expect(after.total_count).toBe(0)
		// The live links stay.
		expect((await linkNamed(chat, live.invite_link)).is_revoked).toBe(false)
	})
})

describe('emulator: joining by link', () => {
	let chat: number
	beforeAll(async () => {
		chat = await newGroup('Joining')
	})

	it('joins at once, counts the member, and refuses past the member limit', async () => {
		const link = await create(chat, { member_limit: 1 })
		expect(await join(ALICE, link.invite_link)).toEqual({ _: 'chatJoinResultSuccess', chat_id: chat })
		expect((await invoke(ALICE, { _: 'getChat', chat_id: chat })).title).toBe('Joining')
		expect(await linkNamed(chat, link.invite_link)).toMatchObject({ member_count: 1, member_limit: 1 })
		expect(await message(join(DAVE, link.invite_link))).toBe('USERS_TOO_MUCH')
		expect(await message(join(ALICE, link.invite_link))).toBe('USER_ALREADY_PARTICIPANT')
		const members = await invoke(BOB, {
			_: 'getChatInviteLinkMembers',
			chat_id: chat,
			invite_link: link.invite_link,
			only_with_expired_subscription: false,
			limit: 10,
		})
		expect(members).toEqual({
			_: 'chatInviteLinkMembers',
			total_count: 1,
			members: [
				{
					_: 'chatInviteLinkMember',
					user_id: 1001,
					joined_chat_date: expect.any(Number),
					via_chat_folder_invite_link: false,
					approver_user_id: 0,
				},
			],
		})
	})

	it('refuses malformed, unknown, revoked and expired links with TDLib and server errors', async () => {
		expect(await message(join(DAVE, 'not a link'))).toBe('Wrong invite link')
		expect(await message(join(DAVE, 'https://t.me/+doesNotExist00'))).toBe('INVITE_HASH_INVALID')
		const revoked = await create(chat)
		await invoke(BOB, { _: 'revokeChatInviteLink', chat_id: chat, invite_link: revoked.invite_link })
		expect(await tdError(join(DAVE, revoked.invite_link))).toEqual({
			code: 406,
			message: 'INVITE_HASH_EXPIRED',
		})
		// The emulated clock moves one second per event: a link expiring two seconds after another one
		// was made has expired by the time anyone uses it.
		const clock = await create(chat)
		const soon = await create(chat, { expiration_date: clock.date + 2 })
		await create(chat)
		expect(await message(join(DAVE, soon.invite_link))).toBe('INVITE_HASH_EXPIRED')
		// The other accepted forms of a link name the same one.
		const open = await create(chat)
		const hash = open.invite_link.slice('https://t.me/+'.length)
		expect(await join(DAVE, `tg://join?invite=${hash}`)).toMatchObject({ _: 'chatJoinResultSuccess' })
		const info = await invoke(DAVE, {
			_: 'checkChatInviteLink',
			invite_link: `https://t.me/joinchat/${hash}`,
		})
		expect(info).toMatchObject({
			_: 'chatInviteLinkInfo',
			chat_id: chat,
			type: { _: 'inviteLinkChatTypeSupergroup' },
			title: 'Joining',
			creates_join_request: false,
		})
	})
})

describe('emulator: join requests', () => {
	let chat: number
	let link: Td.chatInviteLink
	let other: Td.chatInviteLink
	const requestsOf = (fields: Partial<Td.getChatJoinRequests> = {}) =>
		invoke(BOB, { _: 'getChatJoinRequests', chat_id: chat, invite_link: '', query: '', limit: 50, ...fields })
	const isMember = async (as: number) =>
		invoke(as, { _: 'getChat', chat_id: chat }).then(
			() => true,
			() => false,
		)

	beforeAll(async () => {
		chat = await newGroup('Requests')
		link = await create(chat, { creates_join_request: true, name: 'approval' })
		other = await create(chat, { creates_join_request: true, name: 'other' })
	})

	it('files a request (once) instead of joining, counted on its link', async () => {
		expect(await join(EVE, link.invite_link)).toEqual({ _: 'chatJoinResultRequestSent' })
		expect(await join(EVE, link.invite_link)).toEqual({ _: 'chatJoinResultRequestSent' })
		expect(await join(DAVE, link.invite_link)).toEqual({ _: 'chatJoinResultRequestSent' })
		expect(await join(ALICE, other.invite_link)).toEqual({ _: 'chatJoinResultRequestSent' })
		expect(await isMember(EVE)).toBe(false)
		const info = await invoke(EVE, { _: 'checkChatInviteLink', invite_link: link.invite_link })
		expect(info).toMatchObject({ chat_id: 0, creates_join_request: true, title: 'Requests' })
		expect(await linkNamed(chat, link.invite_link)).toMatchObject({ pending_join_request_count: 2 })
		expect(await linkNamed(chat, other.invite_link)).toMatchObject({ pending_join_request_count: 1 })
	})

	it('lists requests of the chat or of one link, newest first, by name and page', async () => {
		const all = await requestsOf()
		expect(all.total_count).toBe(3)
		expect(all.requests.map((r) => r.user_id)).toEqual([1001, 1004, 1005])
		expect(all.requests[0]).toEqual({
			_: 'chatJoinRequest',
			user_id: 1001,
			date: expect.any(Number),
			bio: '',
		})
		expect((await requestsOf({ invite_link: link.invite_link })).requests.map((r) => r.user_id)).toEqual([
			1004, 1005,
		])
		expect((await requestsOf({ query: 'dav' })).requests.map((r) => r.user_id)).toEqual([1004])
		const second = await requestsOf({
			offset_request: all.requests[0],
			limit: 1,
		})
		expect(second.requests.map((r) => r.user_id)).toEqual([1004])
		expect(await message(requestsOf({ limit: 0 }))).toBe('Parameter limit must be positive')
		expect(
			await message(
				invoke(EVE, { _: 'getChatJoinRequests', chat_id: SEED_CHATS.supergroup, invite_link: '', limit: 5 }),
			),
		).toBe('Not enough rights to manage chat join requests')
		expect(
			await message(
				invoke(BOB, { _: 'getChatJoinRequests', chat_id: USER.alice, invite_link: '', limit: 5 }),
			),
		).toBe("The chat can't have join requests")
	})

	it('approves one and declines another; the approver is on record', async () => {
		const process = (user_id: number, approve: boolean) =>
			invoke(BOB, { _: 'processChatJoinRequest', chat_id: chat, user_id, approve })
		expect(await process(USER.dave, true)).toEqual({ _: 'ok' })
		expect(await process(USER.eve, false)).toEqual({ _: 'ok' })
		expect(await isMember(DAVE)).toBe(true)
		expect(await isMember(EVE)).toBe(false)
		expect(await message(process(USER.eve, true))).toBe('HIDE_REQUESTER_MISSING')
		expect(await linkNamed(chat, link.invite_link)).toMatchObject({
			member_count: 1,
			pending_join_request_count: 0,
		})
		const members = await invoke(BOB, {
			_: 'getChatInviteLinkMembers',
			chat_id: chat,
			invite_link: link.invite_link,
			limit: 5,
		})
		expect(members.members).toEqual([
			{
				_: 'chatInviteLinkMember',
				user_id: 1004,
				joined_chat_date: expect.any(Number),
				via_chat_folder_invite_link: false,
				approver_user_id: 1002,
			},
		])
	})

	it('processes the requests of one link only, or with an empty link all of them', async () => {
		expect(await join(EVE, link.invite_link)).toEqual({ _: 'chatJoinResultRequestSent' })
		const bulk = (invite_link: string) =>
			invoke(BOB, { _: 'processChatJoinRequests', chat_id: chat, invite_link, approve: true })
		expect(await bulk(link.invite_link)).toEqual({ _: 'ok' })
		expect(await isMember(EVE)).toBe(true)
		expect(await isMember(ALICE)).toBe(false)
		expect(await bulk('')).toEqual({ _: 'ok' })
		expect(await isMember(ALICE)).toBe(true)
		expect((await requestsOf()).total_count).toBe(0)
	})

	it('pages link members and refuses what TDLib refuses', async () => {
		const members = (fields: Partial<Td.getChatInviteLinkMembers>) =>
			invoke(BOB, {
				_: 'getChatInviteLinkMembers',
				chat_id: chat,
				invite_link: link.invite_link,
				limit: 5,
				...fields,
			})
		const all = await members({})
		expect(all.members.map((m) => m.user_id)).toEqual([1005, 1004])
		const rest = await members({ offset_member: all.members[0], limit: 1 })
		expect(rest.members.map((m) => m.user_id)).toEqual([1004])
		expect((await members({ only_with_expired_subscription: true })).total_count).toBe(0)
		expect(await message(members({ limit: 0 }))).toBe('Parameter limit must be positive')
		expect(await message(members({ invite_link: '' }))).toBe('Invite link must be non-empty')
		expect(await message(members({ invite_link: 'https://t.me/+nope' }))).toBe('INVITE_HASH_INVALID')
	})
})

describe('emulator: the moment of a join', () => {
	it('is one date in the member list, the link’s members and the event log', async () => {
		const chat = await newGroup('One moment')
		const open = await create(chat)
		const asking = await create(chat, { creates_join_request: true })
		await join(ALICE, open.invite_link)
		await join(DAVE, asking.invite_link)
		await invoke(BOB, { _: 'processChatJoinRequest', chat_id: chat, user_id: USER.dave, approve: true })
		const log = await invoke(BOB, {
			_: 'getChatEventLog',
			chat_id: chat,
			query: '',
			from_event_id: 0,
			limit: 10,
			user_ids: [],
		})
		const dates = async (link: Td.chatInviteLink, userId: number) => {
			const viaLink = await invoke(BOB, {
				_: 'getChatInviteLinkMembers',
				chat_id: chat,
				invite_link: link.invite_link,
				limit: 5,
			})
			const member = await invoke(BOB, { _: 'getChatMember', chat_id: chat, member_id: user(userId) })
			const event = log.events.find(
				(e) => e.member_id._ === 'messageSenderUser' && e.member_id.user_id === userId,
			)
			return [viaLink.members[0]?.joined_chat_date, member.joined_chat_date, event?.date]
		}
		const [alice, dave] = [await dates(open, USER.alice), await dates(asking, USER.dave)]
		expect(alice[0]).toBeGreaterThan(0)
		expect(alice).toEqual([alice[0], alice[0], alice[0]])
		expect(dave).toEqual([dave[0], dave[0], dave[0]])
		// The request was filed before it was approved: the member joined at the approval.
		expect(dave[0]!).toBeGreaterThan(alice[0]!)
	})
})

describe('emulator: subscription links', () => {
	let channel: number
	const pricing = (period: number, star_count: number) =>
		({ _: 'starSubscriptionPricing', period, star_count }) as const
	const subscribe = (chat_id: number, p: Td.starSubscriptionPricing$Input | undefined) =>
		invoke(BOB, { _: 'createChatSubscriptionInviteLink', chat_id, name: 'paid', subscription_pricing: p })
	beforeAll(async () => {
		channel = await newGroup('Paid channel', true)
	})

	it('creates a channel subscription link; joining it asks for payment', async () => {
		const link = await subscribe(channel, pricing(300, 25))
		expect(link).toMatchObject({
			name: 'paid',
			subscription_pricing: { _: 'starSubscriptionPricing', period: 300, star_count: 25 },
			expired_member_count: 0,
		})
		expect(await message(join(EVE, link.invite_link))).toBe('STARS_PAYMENT_REQUIRED')
		const info = await invoke(EVE, { _: 'checkChatInviteLink', invite_link: link.invite_link })
		expect(info).toMatchObject({
			type: { _: 'inviteLinkChatTypeChannel' },
			subscription_info: { pricing: { period: 300, star_count: 25 } },
		})
		const renamed = await invoke(BOB, {
			_: 'editChatSubscriptionInviteLink',
			chat_id: channel,
			invite_link: link.invite_link,
			name: 'renamed',
		})
		expect(renamed).toMatchObject({ name: 'renamed', subscription_pricing: { period: 300 } })
	})

	it('refuses bad pricing (TDLib), non-channels and periods the server does not offer', async () => {
		expect(await message(subscribe(channel, undefined))).toBe('Invalid subscription pricing specified')
		expect(await message(subscribe(channel, pricing(0, 5)))).toBe('Invalid subscription pricing specified')
		expect(await message(subscribe(channel, pricing(60, 2_000_000_000)))).toBe(
			'Invalid subscription pricing specified',
		)
		expect(await message(subscribe(await newGroup('Not a channel'), pricing(60, 5)))).toBe(
			'PRICING_CHAT_INVALID',
		)
		expect(await message(subscribe(channel, pricing(61, 5)))).toBe('SUBSCRIPTION_PERIOD_INVALID')
	})
})
