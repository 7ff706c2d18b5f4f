import { describe, expect, it } from 'bun:test'
import type { chatInviteLink } from 'tdlib-types'
import * as v from 'valibot'
import { chatAdminCommands } from '../../../plugins/commands-chat-admin'
import { editedTerms } from '../../../plugins/commands-chat-admin/edit-chat-invite-link'
import { type Answer, stubContext } from '../../helpers-stub'

/**
 * The exact TDLib requests the invite-link commands build
 * (docs/tdlib-mapping.md#chat-administration-and-invites), against a stub that records them: the defaults set
 * explicitly, the read before a partial edit, and the requests that are not sent.
 */
const CURRENT: chatInviteLink = {
	_: 'chatInviteLink',
	invite_link: 'https://t.me/+current',
	name: 'current',
	creator_user_id: 1002,
	date: 1,
	edit_date: 0,
	expiration_date: 2_000_000_000,
	member_limit: 7,
	member_count: 0,
	expired_member_count: 0,
	pending_join_request_count: 0,
	creates_join_request: false,
	is_primary: false,
	is_revoked: false,
}

async function requestsOf(name: string, frame: Record<string, unknown>, answer: Answer = () => CURRENT) {
	const command = chatAdminCommands.commands.find((c) => c.name === name)!
	const { ctx, requests } = stubContext(answer)
	// As the gateway sends it: the envelope's keys ride along in the frame.
	const input = v.parse(command.input, { action: name, userbot_id: 1, request_id: 'r', ...frame })
	await command.run(input, ctx)
	return requests
}

describe('invite links mapping onto TDLib 1.8.65', () => {
	it('sets the protocol defaults explicitly', async () => {
		expect(await requestsOf('get_chat_invite_links', { chat_id: -5, creator_user_id: 9 })).toEqual([
			{
				_: 'getChatInviteLinks',
				chat_id: -5,
				creator_user_id: 9,
				is_revoked: false,
				offset_date: 0,
				offset_invite_link: '',
				limit: 50,
			},
		])
		expect(await requestsOf('create_chat_invite_link', { chat_id: -5 })).toEqual([
			{
				_: 'createChatInviteLink',
				chat_id: -5,
				name: '',
				expiration_date: 0,
				member_limit: 0,
				creates_join_request: false,
			},
		])
		expect(await requestsOf('process_chat_join_request', { chat_id: -5, user_id: 3 })).toEqual([
			{ _: 'processChatJoinRequest', chat_id: -5, user_id: 3, approve: true },
		])
		expect(await requestsOf('get_chat_join_requests', { chat_id: -5, invite_link: 'L' })).toEqual([
			{ _: 'getChatJoinRequests', chat_id: -5, invite_link: 'L', query: '', limit: 50 },
		])
		// The spec's defaults for the fields an edit leaves out, in one request, as TDLib reads them.
		expect(await requestsOf('edit_chat_invite_link', { chat_id: -5, invite_link: 'L', name: 'new' })).toEqual(
			[
				{
					_: 'editChatInviteLink',
					chat_id: -5,
					invite_link: 'L',
					name: 'new',
					expiration_date: 0,
					member_limit: 0,
					creates_join_request: false,
				},
			],
		)
		expect(await requestsOf('get_chat_invite_link_members', { chat_id: -5, invite_link: 'L' })).toEqual([
			{
				_: 'getChatInviteLinkMembers',
				chat_id: -5,
				invite_link: 'L',
				only_with_expired_subscription: false,
				limit: 50,
			},
		])
	})

	it('edit_chat_invite_link with keep_unspecified reads the link first and keeps what the frame leaves out', async () => {
		expect(
			await requestsOf('edit_chat_invite_link', {
				chat_id: -5,
				invite_link: 'L',
				name: 'new',
				keep_unspecified: true,
			}),
		).toEqual([
			{ _: 'getChatInviteLink', chat_id: -5, invite_link: 'L' },
			{
				_: 'editChatInviteLink',
				chat_id: -5,
				invite_link: 'L',
				name: 'new',
				expiration_date: 2_000_000_000,
				member_limit: 7,
				creates_join_request: false,
			},
		])
	})

	it('edit_chat_invite_link with every field is one request, and nothing else from the frame', async () => {
		const full = { name: '', expiration_date: 0, member_limit: 0, creates_join_request: true }
		for (const keep of [{}, { keep_unspecified: true }])
			expect(
				await requestsOf('edit_chat_invite_link', { chat_id: -5, invite_link: 'L', ...full, ...keep }),
			).toEqual([{ _: 'editChatInviteLink', chat_id: -5, invite_link: 'L', ...full }])
	})

	it('edit_chat_subscription_invite_link without a name only reads', async () => {
		expect(await requestsOf('edit_chat_subscription_invite_link', { chat_id: -5, invite_link: 'L' })).toEqual(
			[{ _: 'getChatInviteLink', chat_id: -5, invite_link: 'L' }],
		)
		expect(
			await requestsOf('edit_chat_subscription_invite_link', { chat_id: -5, invite_link: 'L', name: '' }),
		).toEqual([{ _: 'editChatSubscriptionInviteLink', chat_id: -5, invite_link: 'L', name: '' }])
	})

	it('get_chat_join_requests and process_chat_join_requests send an empty link only for all: true', async () => {
		expect(await requestsOf('get_chat_join_requests', { chat_id: -5, all: true })).toEqual([
			{ _: 'getChatJoinRequests', chat_id: -5, invite_link: '', query: '', limit: 50 },
		])
		for (const frame of [{ chat_id: -5 }, { chat_id: -5, invite_link: '' }])
			await expect(requestsOf('get_chat_join_requests', frame)).rejects.toThrow('invite_link is required')
		expect(await requestsOf('process_chat_join_requests', { chat_id: -5, all: true })).toEqual([
			{ _: 'processChatJoinRequests', chat_id: -5, invite_link: '', approve: true },
		])
		expect(
			await requestsOf('process_chat_join_requests', { chat_id: -5, invite_link: 'L', approve: false }),
		).toEqual([{ _: 'processChatJoinRequests', chat_id: -5, invite_link: 'L', approve: false }])
		await expect(requestsOf('process_chat_join_requests', { chat_id: -5 })).rejects.toThrow(
			'invite_link is required',
		)
	})

	it('passes client objects on in tdl form, rebuilt from their checked fields', async () => {
		expect(
			await requestsOf('create_chat_subscription_invite_link', {
				chat_id: -5,
				subscription_pricing: { period: '60', star_count: 5 },
			}),
		).toEqual([
			{
				_: 'createChatSubscriptionInviteLink',
				chat_id: -5,
				name: '',
				subscription_pricing: { _: 'starSubscriptionPricing', period: 60, star_count: 5 },
			},
		])
		const [request] = await requestsOf('get_chat_join_requests', {
			chat_id: -5,
			all: true,
			offset_request: { '@type': 'chatJoinRequest', user_id: 4, date: 9 },
		})
		expect(request!.offset_request).toEqual({ _: 'chatJoinRequest', user_id: 4, date: 9 })
		const [members] = await requestsOf('get_chat_invite_link_members', {
			chat_id: -5,
			invite_link: 'L',
			offset_member: { user_id: 4, joined_chat_date: 9 },
		})
		expect(members!.offset_member).toEqual({ _: 'chatInviteLinkMember', user_id: 4, joined_chat_date: 9 })
	})
})

describe('edit_chat_invite_link terms', () => {
	const approval: chatInviteLink = { ...CURRENT, member_limit: 0, creates_join_request: true }
	const limited = CURRENT

	it('drops the limit when approval is asked for, and approval when a limit is set', () => {
		expect(editedTerms({ creates_join_request: true }, limited)).toMatchObject({
			member_limit: 0,
			creates_join_request: true,
		})
		expect(editedTerms({ member_limit: 3 }, approval)).toMatchObject({
			member_limit: 3,
			creates_join_request: false,
		})
		expect(editedTerms({ member_limit: 0 }, approval)).toMatchObject({
			member_limit: 0,
			creates_join_request: true,
		})
		expect(editedTerms({}, limited)).toEqual({
			name: 'current',
			expiration_date: 2_000_000_000,
			member_limit: 7,
			creates_join_request: false,
		})
	})
})
