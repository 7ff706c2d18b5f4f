import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type * as Td from 'tdlib-types'
import { SEED_CHATS } from '../../../src/emulator'
import { createInviteFixture, type InviteFixture, USER } from './invite-fixture'

/** The invite-link commands over the real WebSocket, gateway and supervisor, on the emulator. */
let x: InviteFixture
let chat: number
let channel: number
type Link = Td.chatInviteLink
type Links = Td.chatInviteLinks

beforeAll(async () => {
	x = await createInviteFixture()
	chat = await x.newGroup('Invites over the socket')
	channel = await x.newGroup('Paid news', true)
})
afterAll(() => x.stop())

const create = (fields: Record<string, unknown> = {}) =>
	x.ok<Link>('create_chat_invite_link', { chat_id: chat, ...fields })
const read = async (invite_link: string) =>
	(await x.td(x.f.userbotId, { _: 'getChatInviteLink', chat_id: chat, invite_link })) as Link

describe('create_chat_invite_link', () => {
	it('creates a link with the defaults: no name, no expiry, no limit, no approval', async () => {
		const link = await create()
		expect(link).toEqual({
			_: 'chatInviteLink',
			invite_link: expect.stringMatching(/^https:\/\/t\.me\/\+/),
			name: '',
			creator_user_id: USER.bob,
			date: expect.any(Number),
			edit_date: 0,
			expiration_date: 0,
			member_limit: 0,
			member_count: 0,
			expired_member_count: 0,
			pending_join_request_count: 0,
			creates_join_request: false,
			is_primary: false,
			is_revoked: false,
		})
	})

	it('creates a link with its terms', async () => {
		const link = await create({ name: 'guests', expiration_date: 2_000_000_000, member_limit: 2 })
		expect(link).toMatchObject({ name: 'guests', expiration_date: 2_000_000_000, member_limit: 2 })
		const approval = await create({ creates_join_request: true })
		expect(approval.creates_join_request).toBe(true)
	})

	it('answers its strings, and TDLib errors passed through', async () => {
		expect(await x.errorOf('create_chat_invite_link', {})).toBe('chat_id is required')
		expect(await x.errorOf('create_chat_invite_link', { chat_id: chat, member_limit: 2 ** 31 })).toBe(
			'member_limit is out of range',
		)
		expect(await x.errorOf('create_chat_invite_link', { chat_id: chat, expiration_date: 'soon' })).toBe(
			'expiration_date must be an integer',
		)
		expect(await x.errorOf('create_chat_invite_link', { chat_id: chat, name: 7 })).toBe(
			'name must be a string',
		)
		expect(
			await x.errorOf('create_chat_invite_link', {
				chat_id: chat,
				creates_join_request: true,
				member_limit: 3,
			}),
		).toBe("Member limit can't be specified for links requiring administrator approval")
		expect(await x.errorOf('create_chat_invite_link', { chat_id: 424242 })).toBe('Chat not found')
	})

	it("passes a non-administrator's TDLib rights error through", async () => {
		// Eve is an ordinary member of the seeded supergroup.
		expect(await x.errorOf('create_chat_invite_link', { chat_id: SEED_CHATS.supergroup }, x.bots.eve)).toBe(
			'Not enough rights to manage chat invite link',
		)
	})
})

describe('get_chat_invite_links', () => {
	it("lists the creator's active links, the primary one first, or the revoked ones", async () => {
		const links = await x.ok<Links>('get_chat_invite_links', { chat_id: chat, creator_user_id: USER.bob })
		expect(links._).toBe('chatInviteLinks')
		expect(links.invite_links[0]).toMatchObject({ is_primary: true, is_revoked: false })
		expect(links.total_count).toBe(links.invite_links.length)
		expect(links.invite_links.every((l) => !l.is_revoked && l.creator_user_id === USER.bob)).toBe(true)
		const page = await x.ok<Links>('get_chat_invite_links', {
			chat_id: chat,
			creator_user_id: USER.bob,
			offset_date: links.invite_links[1]!.date,
			offset_invite_link: links.invite_links[1]!.invite_link,
			limit: 1,
		})
		expect(page.invite_links.map((l) => l.invite_link)).toEqual([links.invite_links[2]!.invite_link])
		const revoked = await x.ok<Links>('get_chat_invite_links', {
			chat_id: chat,
			creator_user_id: USER.bob,
			is_revoked: true,
		})
		expect(revoked.invite_links.every((l) => l.is_revoked)).toBe(true)
	})

	it('answers its strings, and TDLib errors passed through', async () => {
		expect(await x.errorOf('get_chat_invite_links', { creator_user_id: USER.bob })).toBe(
			'chat_id is required',
		)
		expect(await x.errorOf('get_chat_invite_links', { chat_id: chat })).toBe('creator_user_id is required')
		expect(
			await x.errorOf('get_chat_invite_links', { chat_id: chat, creator_user_id: USER.bob, limit: 0 }),
		).toBe('Parameter limit must be positive')
		// Alice administers the seeded supergroup; only its owner (Bob) sees another admin's links.
		expect(
			await x.errorOf(
				'get_chat_invite_links',
				{ chat_id: SEED_CHATS.supergroup, creator_user_id: USER.bob },
				x.bots.alice,
			),
		).toBe('Not enough rights to manage chat invite link')
	})
})

describe('edit_chat_invite_link', () => {
	it("gives the fields it is not given the spec's defaults, as TDLib does", async () => {
		const link = await create({ name: 'before', expiration_date: 2_000_000_000, member_limit: 5 })
		const renamed = await x.ok<Link>('edit_chat_invite_link', {
			chat_id: chat,
			invite_link: link.invite_link,
			name: 'after',
		})
		// expiration_date 0, member_limit 0, creates_join_request false (docs/commands.md#commands-chat-admin).
		expect(renamed).toMatchObject({
			name: 'after',
			expiration_date: 0,
			member_limit: 0,
			creates_join_request: false,
		})
		const asking = await x.ok<Link>('edit_chat_invite_link', {
			chat_id: chat,
			invite_link: link.invite_link,
			creates_join_request: true,
		})
		expect(asking).toMatchObject({
			name: '',
			expiration_date: 0,
			member_limit: 0,
			creates_join_request: true,
		})
		expect(await read(link.invite_link)).toEqual(asking)
	})

	it('with keep_unspecified: true changes only the fields it is given (the others are read first)', async () => {
		const link = await create({ name: 'before', expiration_date: 2_000_000_000, member_limit: 5 })
		const keep = { keep_unspecified: true }
		const renamed = await x.ok<Link>('edit_chat_invite_link', {
			chat_id: chat,
			invite_link: link.invite_link,
			name: 'after',
			...keep,
		})
		expect(renamed).toMatchObject({
			name: 'after',
			expiration_date: 2_000_000_000,
			member_limit: 5,
			creates_join_request: false,
		})
		expect(renamed.edit_date).toBeGreaterThan(0)
		// Asking for approval drops the limit (TDLib allows none with approval); the expiry stays.
		const approval = await x.ok<Link>('edit_chat_invite_link', {
			chat_id: chat,
			invite_link: link.invite_link,
			creates_join_request: true,
			...keep,
		})
		expect(approval).toMatchObject({
			name: 'after',
			expiration_date: 2_000_000_000,
			member_limit: 0,
			creates_join_request: true,
		})
		// Setting a limit stops asking for approval.
		const limited = await x.ok<Link>('edit_chat_invite_link', {
			chat_id: chat,
			invite_link: link.invite_link,
			member_limit: 3,
			...keep,
		})
		expect(limited).toMatchObject({ member_limit: 3, creates_join_request: false, name: 'after' })
		// Explicit zero values do reset.
		const cleared = await x.ok<Link>('edit_chat_invite_link', {
			chat_id: chat,
			invite_link: link.invite_link,
			name: '',
			expiration_date: 0,
			member_limit: 0,
			creates_join_request: false,
		})
		expect(cleared).toMatchObject({
			name: '',
			expiration_date: 0,
			member_limit: 0,
			creates_join_request: false,
		})
		expect(await read(link.invite_link)).toEqual(cleared)
	})

	it('answers its strings, and TDLib errors passed through', async () => {
		expect(await x.errorOf('edit_chat_invite_link', { invite_link: 'x' })).toBe('chat_id is required')
		expect(await x.errorOf('edit_chat_invite_link', { chat_id: chat })).toBe('invite_link is required')
		expect(await x.errorOf('edit_chat_invite_link', { chat_id: chat, invite_link: '' })).toBe(
			'invite_link is required',
		)
		expect(await x.errorOf('edit_chat_invite_link', { chat_id: chat, invite_link: 5 })).toBe(
			'invite_link must be a string',
		)
		expect(
			await x.errorOf('edit_chat_invite_link', { chat_id: chat, invite_link: 'x', keep_unspecified: 'yes' }),
		).toBe('keep_unspecified must be a boolean')
		expect(
			await x.errorOf('edit_chat_invite_link', {
				chat_id: chat,
				invite_link: 'https://t.me/+nothing',
				name: 'n',
			}),
		).toBe('INVITE_HASH_INVALID')
		const primary = await x.ok<Link>('replace_primary_chat_invite_link', { chat_id: chat })
		expect(
			await x.errorOf('edit_chat_invite_link', {
				chat_id: chat,
				invite_link: primary.invite_link,
				name: 'n',
				expiration_date: 0,
				member_limit: 0,
				creates_join_request: false,
			}),
		).toBe('CHAT_INVITE_PERMANENT')
	})
})

describe('revoke, delete and replace', () => {
	it('revoke_chat_invite_link: a link, or the primary one with its successor', async () => {
		const link = await create({ name: 'to revoke' })
		const one = await x.ok<Links>('revoke_chat_invite_link', { chat_id: chat, invite_link: link.invite_link })
		expect(one).toEqual({
			_: 'chatInviteLinks',
			total_count: 1,
			invite_links: [{ ...link, is_revoked: true }],
		})
		const [primary] = (
			await x.ok<Links>('get_chat_invite_links', { chat_id: chat, creator_user_id: USER.bob })
		).invite_links
		const two = await x.ok<Links>('revoke_chat_invite_link', {
			chat_id: chat,
			invite_link: primary!.invite_link,
		})
		expect(two.total_count).toBe(2)
		expect(two.invite_links[0]).toEqual({ ...primary!, is_revoked: true })
		expect(two.invite_links[1]).toMatchObject({ is_primary: true, is_revoked: false })
		expect(await x.errorOf('revoke_chat_invite_link', { invite_link: link.invite_link })).toBe(
			'chat_id is required',
		)
		expect(await x.errorOf('revoke_chat_invite_link', { chat_id: chat })).toBe('invite_link is required')
	})

	it('delete_revoked_chat_invite_link deletes a revoked link only', async () => {
		const link = await create()
		expect(
			await x.errorOf('delete_revoked_chat_invite_link', { chat_id: chat, invite_link: link.invite_link }),
		).toBe('INVITE_REVOKED_MISSING')
		await x.ok('revoke_chat_invite_link', { chat_id: chat, invite_link: link.invite_link })
		expect(
			await x.ok('delete_revoked_chat_invite_link', { chat_id: chat, invite_link: link.invite_link }),
		).toEqual({ _: 'ok' })
		expect(await x.errorOf('delete_revoked_chat_invite_link', { invite_link: link.invite_link })).toBe(
			'chat_id is required',
		)
		expect(await x.errorOf('delete_revoked_chat_invite_link', { chat_id: chat })).toBe(
			'invite_link is required',
		)
	})

	it('replace_primary_chat_invite_link revokes the primary link and makes a new one', async () => {
		const [old] = (await x.ok<Links>('get_chat_invite_links', { chat_id: chat, creator_user_id: USER.bob }))
			.invite_links
		const fresh = await x.ok<Link>('replace_primary_chat_invite_link', { chat_id: chat })
		expect(fresh).toMatchObject({ is_primary: true, is_revoked: false, creator_user_id: USER.bob })
		expect(fresh.invite_link).not.toBe(old!.invite_link)
		expect((await read(old!.invite_link)).is_revoked).toBe(true)
		expect(await x.errorOf('replace_primary_chat_invite_link', {})).toBe('chat_id is required')
	})

	it('delete_all_revoked_chat_invite_links empties the revoked list of a creator', async () => {
		await x.ok('revoke_chat_invite_link', { chat_id: chat, invite_link: (await create()).invite_link })
		expect(
			await x.ok('delete_all_revoked_chat_invite_links', { chat_id: chat, creator_user_id: USER.bob }),
		).toEqual({ _: 'ok' })
		const revoked = await x.ok<Links>('get_chat_invite_links', {
			chat_id: chat,
			creator_user_id: USER.bob,
			is_revoked: true,
		})
		expect(revoked).toEqual({ _: 'chatInviteLinks', total_count: 0, invite_links: [] })
		expect(await x.errorOf('delete_all_revoked_chat_invite_links', { creator_user_id: USER.bob })).toBe(
			'chat_id is required',
		)
		expect(await x.errorOf('delete_all_revoked_chat_invite_links', { chat_id: chat })).toBe(
			'creator_user_id is required',
		)
	})
})

describe('subscription links', () => {
	it('create_chat_subscription_invite_link: a priced link of a channel', async () => {
		const link = await x.ok<Link>('create_chat_subscription_invite_link', {
			chat_id: channel,
			name: 'monthly',
			subscription_pricing: { period: 300, star_count: 50 },
		})
		expect(link).toMatchObject({
			name: 'monthly',
			subscription_pricing: { _: 'starSubscriptionPricing', period: 300, star_count: 50 },
			member_limit: 0,
			creates_join_request: false,
		})
		const typed = await x.ok<Link>('create_chat_subscription_invite_link', {
			chat_id: channel,
			subscription_pricing: { '@type': 'starSubscriptionPricing', period: 60, star_count: '7' },
		})
		expect(typed.subscription_pricing).toEqual({ _: 'starSubscriptionPricing', period: 60, star_count: 7 })
	})

	it('create_chat_subscription_invite_link answers the pricing strings and TDLib errors', async () => {
		const create = (fields: Record<string, unknown>) =>
			x.errorOf('create_chat_subscription_invite_link', { chat_id: channel, ...fields })
		expect(await x.errorOf('create_chat_subscription_invite_link', { subscription_pricing: {} })).toBe(
			'chat_id is required',
		)
		expect(await create({})).toBe('subscription_pricing.period is required')
		expect(await create({ subscription_pricing: { star_count: 5 } })).toBe(
			'subscription_pricing.period is required',
		)
		expect(await create({ subscription_pricing: { period: 60 } })).toBe(
			'subscription_pricing.star_count is required',
		)
		expect(await create({ subscription_pricing: 'monthly' })).toBe('subscription_pricing must be an object')
		expect(await create({ subscription_pricing: { period: 'a month', star_count: 5 } })).toBe(
			'subscription_pricing.period must be an integer',
		)
		expect(await create({ subscription_pricing: { period: 60, star_count: 5, discount: 1 } })).toBe(
			'subscription_pricing: unknown field for starSubscriptionPricing',
		)
		expect(
			await create({ subscription_pricing: { '@type': 'chatJoinRequest', period: 60, star_count: 5 } }),
		).toBe('subscription_pricing: chatJoinRequest is not allowed here')
		expect(await create({ subscription_pricing: { period: 0, star_count: 5 } })).toBe(
			'Invalid subscription pricing specified',
		)
		expect(await create({ subscription_pricing: { period: 60, star_count: 5 }, chat_id: chat })).toBe(
			'PRICING_CHAT_INVALID',
		)
	})

	it('edit_chat_subscription_invite_link renames; without a name it edits nothing', async () => {
		const link = await x.ok<Link>('create_chat_subscription_invite_link', {
			chat_id: channel,
			name: 'first',
			subscription_pricing: { period: 60, star_count: 3 },
		})
		const same = await x.ok<Link>('edit_chat_subscription_invite_link', {
			chat_id: channel,
			invite_link: link.invite_link,
		})
		expect(same).toEqual(link)
		const renamed = await x.ok<Link>('edit_chat_subscription_invite_link', {
			chat_id: channel,
			invite_link: link.invite_link,
			name: 'second',
		})
		expect(renamed).toMatchObject({ name: 'second', subscription_pricing: { period: 60, star_count: 3 } })
		expect(renamed.edit_date).toBeGreaterThan(0)
		expect(await x.errorOf('edit_chat_subscription_invite_link', { invite_link: link.invite_link })).toBe(
			'chat_id is required',
		)
		expect(await x.errorOf('edit_chat_subscription_invite_link', { chat_id: channel })).toBe(
			'invite_link is required',
		)
		expect(
			await x.errorOf('edit_chat_subscription_invite_link', {
				chat_id: channel,
				invite_link: 'https://t.me/+missing',
				name: 'x',
			}),
		).toBe('INVITE_HASH_INVALID')
	})
})
