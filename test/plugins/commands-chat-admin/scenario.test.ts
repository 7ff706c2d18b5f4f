import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type * as Td from 'tdlib-types'
import { TdError } from '../../../src/runtime/telegram/types'
import { createInviteFixture, type InviteFixture, USER } from './invite-fixture'

/**
 * Issue 9's scenario, whole, over the real WebSocket and supervisor: make a supergroup, create a link
 * with a member limit, join requests arrive, approve one and decline one, promote a member, read the
 * recent actions that record all of it. The group is made by Bob's account (the userbot the frames
 * drive) through the runtime; Alice, Dave and Eve are other emulated accounts, logged in as userbots
 * of the same company, who join by link through their own TDLib clients. Everything Bob does after
 * making the group is a WebSocket command.
 */
let x: InviteFixture
beforeAll(async () => {
	x = await createInviteFixture()
})
afterAll(() => x.stop())

const join = (bot: number, invite_link: string) => x.td(bot, { _: 'joinChatByInviteLink', invite_link })
const events = async (chat_id: number, fields: Record<string, unknown> = {}) =>
	(await x.ok<Td.chatEvents>('get_chat_recent_actions', { chat_id, ...fields })).events
const linksByName = async (chat_id: number) => {
	const links = await x.ok<Td.chatInviteLinks>('get_chat_invite_links', {
		chat_id,
		creator_user_id: USER.bob,
	})
	return Object.fromEntries(links.invite_links.map((l) => [l.name, l]))
}
const counters = (l: Td.chatInviteLink | undefined) => ({
	member_limit: l?.member_limit,
	member_count: l?.member_count,
	pending_join_request_count: l?.pending_join_request_count,
})
const sender = (user_id: number): Td.messageSenderUser => ({ _: 'messageSenderUser', user_id })

/** What add_chat_administrator asks for, and the whole rights object TDLib answers for it in a supergroup. */
const ASKED = { can_invite_users: true, can_delete_messages: true }
const GRANTED: Td.chatAdministratorRights = {
	_: 'chatAdministratorRights',
	// TDLib adds the right to manage the chat to any other.
	can_manage_chat: true,
	can_change_info: false,
	can_post_messages: false,
	can_edit_messages: false,
	can_delete_messages: true,
	can_invite_users: true,
	can_restrict_members: false,
	can_pin_messages: false,
	can_manage_topics: false,
	can_promote_members: false,
	can_manage_video_chats: false,
	can_post_stories: false,
	can_edit_stories: false,
	can_delete_stories: false,
	can_manage_direct_messages: false,
	can_manage_tags: false,
	is_anonymous: false,
}
const MEMBER: Td.chatMemberStatusMember = { _: 'chatMemberStatusMember', member_until_date: 0 }

describe('scenario: inviting people into a new supergroup', () => {
	it('limits a link, takes requests, approves one, declines another, promotes a member, and logs it', async () => {
		const chat = await x.newGroup('Launch team')

		// Two links; creating a link is not a recent action.
		const limited = await x.ok<Td.chatInviteLink>('create_chat_invite_link', {
			chat_id: chat,
			name: 'one seat',
			member_limit: 1,
		})
		expect(limited).toMatchObject({
			name: 'one seat',
			creator_user_id: USER.bob,
			member_limit: 1,
			member_count: 0,
			creates_join_request: false,
			is_primary: false,
		})
		const approval = await x.ok<Td.chatInviteLink>('create_chat_invite_link', {
			chat_id: chat,
			name: 'ask first',
			creates_join_request: true,
		})
		expect(approval).toMatchObject({ name: 'ask first', member_limit: 0, creates_join_request: true })
		expect(await events(chat)).toEqual([])

		// The limited link takes one member, then no more.
		expect(await join(x.bots.alice, limited.invite_link)).toEqual({
			_: 'chatJoinResultSuccess',
			chat_id: chat,
		})
		const full = await join(x.bots.dave, limited.invite_link).catch((err: unknown) => err)
		expect(full).toBeInstanceOf(TdError)
		expect((full as TdError).message).toBe('USERS_TOO_MUCH')

		// Join requests arrive on the approval link and wait there.
		expect(await join(x.bots.dave, approval.invite_link)).toEqual({ _: 'chatJoinResultRequestSent' })
		expect(await join(x.bots.eve, approval.invite_link)).toEqual({ _: 'chatJoinResultRequestSent' })
		const requests = await x.ok<Td.chatJoinRequests>('get_chat_join_requests', {
			chat_id: chat,
			invite_link: approval.invite_link,
		})
		expect(requests).toEqual({
			_: 'chatJoinRequests',
			total_count: 2,
			requests: [
				{ _: 'chatJoinRequest', user_id: USER.eve, date: expect.any(Number), bio: '' },
				{ _: 'chatJoinRequest', user_id: USER.dave, date: expect.any(Number), bio: '' },
			],
		})
		const waiting = await linksByName(chat)
		expect(counters(waiting['one seat'])).toEqual({
			member_limit: 1,
			member_count: 1,
			pending_join_request_count: 0,
		})
		expect(counters(waiting['ask first'])).toEqual({
			member_limit: 0,
			member_count: 0,
			pending_join_request_count: 2,
		})

		// Approve Dave, decline Eve, promote Alice.
		expect(await x.ok('process_chat_join_request', { chat_id: chat, user_id: USER.dave })).toEqual({
			_: 'ok',
		})
		expect(
			await x.ok('process_chat_join_request', { chat_id: chat, user_id: USER.eve, approve: false }),
		).toEqual({ _: 'ok' })
		expect(
			await x.ok('add_chat_administrator', { chat_id: chat, user_id: USER.alice, rights: ASKED }),
		).toEqual({
			_: 'ok',
		})

		// The recent actions, newest first (TDLib: "in order of decreasing event_id"): the promotion, the
		// approved join, the join by link. The decline and the refused join left nothing.
		const log = await events(chat)
		expect(log.map((e) => [e.action._, e.member_id])).toEqual([
			['chatEventMemberPromoted', sender(USER.bob)],
			['chatEventMemberJoinedByRequest', sender(USER.dave)],
			['chatEventMemberJoinedByInviteLink', sender(USER.alice)],
		])
		const ids = log.map((e) => BigInt(e.id))
		expect(ids[0]! > ids[1]! && ids[1]! > ids[2]!).toBe(true)
		const [promoted, byRequest, byLink] = log as [Td.chatEvent, Td.chatEvent, Td.chatEvent]
		// The link as it stood once Alice had joined: her seat counted.
		expect(byLink.action).toEqual({
			_: 'chatEventMemberJoinedByInviteLink',
			invite_link: { ...limited, member_count: 1 },
			via_chat_folder_invite_link: false,
		})
		expect(byRequest.action).toEqual({
			_: 'chatEventMemberJoinedByRequest',
			approver_user_id: USER.bob,
			invite_link: { ...approval, member_count: 1, pending_join_request_count: expect.any(Number) },
		})
		expect(promoted.action).toEqual({
			_: 'chatEventMemberPromoted',
			user_id: USER.alice,
			old_status: MEMBER,
			new_status: { _: 'chatMemberStatusAdministrator', can_be_edited: true, rights: GRANTED },
		})
		// Each kind of action under its own filter.
		expect((await events(chat, { event_filters: { member_joins: true } })).map((e) => e.id)).toEqual([
			byRequest.id,
			byLink.id,
		])
		expect((await events(chat, { event_filters: { member_promotions: true } })).map((e) => e.id)).toEqual([
			promoted.id,
		])

		// The links' counters once everything is settled.
		const settled = await linksByName(chat)
		expect(counters(settled['one seat'])).toEqual({
			member_limit: 1,
			member_count: 1,
			pending_join_request_count: 0,
		})
		expect(counters(settled['ask first'])).toEqual({
			member_limit: 0,
			member_count: 1,
			pending_join_request_count: 0,
		})
		expect(await x.ok('get_chat_join_requests', { chat_id: chat, all: true })).toEqual({
			_: 'chatJoinRequests',
			total_count: 0,
			requests: [],
		})

		// The member list: Bob owns the group, Alice administers it (promoted by Bob), Dave is in, Eve is not.
		const members = await x.ok<Td.chatMembers>('get_chat_members', { chat_id: chat })
		const byUser = new Map(
			members.members.map((m) => [m.member_id._ === 'messageSenderUser' ? m.member_id.user_id : 0, m]),
		)
		expect(members.total_count).toBe(3)
		expect([...byUser.keys()].sort((a, b) => a - b)).toEqual([USER.alice, USER.bob, USER.dave])
		expect(byUser.get(USER.bob)?.status._).toBe('chatMemberStatusCreator')
		expect(byUser.get(USER.alice)).toEqual({
			_: 'chatMember',
			member_id: sender(USER.alice),
			tag: '',
			inviter_user_id: USER.bob,
			joined_chat_date: expect.any(Number),
			status: { _: 'chatMemberStatusAdministrator', can_be_edited: true, rights: GRANTED },
		})
		const dave = byUser.get(USER.dave)
		expect(dave).toEqual({
			_: 'chatMember',
			member_id: sender(USER.dave),
			tag: '',
			inviter_user_id: 0,
			joined_chat_date: byRequest.date,
			status: MEMBER,
		})
		const admins = await x.ok<Td.chatMembers>('get_chat_members', {
			chat_id: chat,
			member_filter: 'supergroupMembersFilterAdministrators',
		})
		expect(admins.members.map((m) => m.member_id)).toEqual([sender(USER.alice), sender(USER.bob)])

		// Who joined by which link, approved by whom, and when: the same moment as the log and the list.
		const viaLink = await x.ok<Td.chatInviteLinkMembers>('get_chat_invite_link_members', {
			chat_id: chat,
			invite_link: limited.invite_link,
		})
		expect(viaLink.members).toEqual([
			{
				_: 'chatInviteLinkMember',
				user_id: USER.alice,
				joined_chat_date: byLink.date,
				via_chat_folder_invite_link: false,
				approver_user_id: 0,
			},
		])
		const viaApproval = await x.ok<Td.chatInviteLinkMembers>('get_chat_invite_link_members', {
			chat_id: chat,
			invite_link: approval.invite_link,
		})
		expect(viaApproval.members).toEqual([
			{
				_: 'chatInviteLinkMember',
				user_id: USER.dave,
				joined_chat_date: byRequest.date,
				via_chat_folder_invite_link: false,
				approver_user_id: USER.bob,
			},
		])

		expect(await x.isMember(x.bots.alice, chat)).toBe(true)
		expect(await x.isMember(x.bots.dave, chat)).toBe(true)
		expect(await x.isMember(x.bots.eve, chat)).toBe(false)
	})
})
