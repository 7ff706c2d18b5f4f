import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { SEED_CHATS } from '../../../src/emulator'
import { createLoggedInUserbot, type MessagingFixture, type WsClient } from '../../helpers-ws'
import { BOB, createBotFixture, post, resultOf } from './support'

/**
 * The Bot API face's chat methods (docs/bot-api.md#methods) over the emulator, each on the command
 * it maps onto. Bob (1002) is the token's userbot and owns the lounge; Dave (1004), of another
 * company, asks to join it; Carol (1003), Eve (1005) and Alice (1001) are its other people.
 */
const CAROL = 1003
const DAVE = 1004
const EVE = 1005
const LOUNGE = SEED_CHATS.supergroup
let f: MessagingFixture
let bobWs: WsClient
let daveWs: WsClient
let dave: number
let token: string
beforeAll(async () => {
	;({ f, token } = await createBotFixture())
	dave = await createLoggedInUserbot(f.t, f.mallory.companyId, '9996614444')
	daveWs = await f.connect(f.mallory)
	bobWs = await f.connect()
})
afterAll(() => f.stop())

const call = (method: string, body: Record<string, unknown> = {}) => post(f, token, method, body)
const result = <T = unknown>(method: string, body: Record<string, unknown> = {}) =>
	resultOf<T>(f, token, method, body)
const refusal = async (method: string, body: Record<string, unknown>) => {
	const answer = await call(method, body)
	expect([answer.status, answer.body.ok]).toEqual([400, false])
	return answer.body.description
}
const status = async (userId: number) =>
	(await result<{ status: string }>('getChatMember', { chat_id: LOUNGE, user_id: userId })).status

describe('reaching a person on the face', () => {
	it('import_contacts over the WebSocket, then sendMessage and getChat by the user id it answered', async () => {
		const imported = await bobWs.command({
			action: 'import_contacts',
			userbot_id: f.userbotId,
			contacts: [{ phone_number: '+9996625555', first_name: 'Eve' }],
		})
		expect((imported.payload.result as { user_ids: number[] }).user_ids).toEqual([EVE])
		const sent = await result<{ chat: { id: number }; text: string }>('sendMessage', {
			chat_id: EVE,
			text: 'Hi Eve',
		})
		expect(sent).toMatchObject({ chat: { id: EVE, type: 'private' }, text: 'Hi Eve' })
		expect(await result('getChat', { chat_id: EVE })).toMatchObject({
			id: EVE,
			type: 'private',
			first_name: 'Eve',
		})
	})

	it('takes chat_id as @username, for a user and a public chat; an unknown one is "chat not found"', async () => {
		const sent = await result('sendMessage', { chat_id: '@carol', text: 'Hi Carol' })
		expect(sent).toMatchObject({ chat: { id: CAROL, type: 'private' }, text: 'Hi Carol' })
		expect(await result('getChat', { chat_id: '@emulator_lounge' })).toMatchObject({ id: LOUNGE })
		expect(await result('getChatMemberCount', { chat_id: '@emulator_lounge' })).toBe(4)
		expect(await refusal('sendMessage', { chat_id: '@nobody_at_all', text: 'x' })).toBe(
			'Bad Request: chat not found',
		)
		expect(await refusal('getChat', { chat_id: '@nobody_at_all' })).toBe('Bad Request: chat not found')
	})
})

describe('getChat, members and their counts', () => {
	it('getChat answers a ChatFullInfo: a group with its username, permissions and reactions; a user with names and username', async () => {
		const lounge = await result<Record<string, unknown>>('getChat', { chat_id: LOUNGE })
		expect(lounge).toMatchObject({
			id: LOUNGE,
			type: 'supergroup',
			title: 'Emulator Lounge',
			username: 'emulator_lounge',
			permissions: { can_send_messages: true, can_send_photos: true },
		})
		expect(typeof lounge.accent_color_id).toBe('number')
		expect(typeof lounge.max_reaction_count).toBe('number')
		const alice = await result<Record<string, unknown>>('getChat', { chat_id: 1001 })
		expect(alice).toMatchObject({
			id: 1001,
			type: 'private',
			first_name: 'Alice',
			last_name: 'Archer',
			username: 'alice',
		})
		expect(alice.permissions).toBeUndefined()
	})

	it('getChatMember, getChatAdministrators and getChatMemberCount', async () => {
		expect(await result('getChatMember', { chat_id: LOUNGE, user_id: BOB })).toMatchObject({
			status: 'creator',
			user: { id: BOB, is_bot: false, first_name: 'Bob' },
			is_anonymous: false,
		})
		const admin = await result<Record<string, unknown>>('getChatMember', { chat_id: LOUNGE, user_id: 1001 })
		expect(admin).toMatchObject({ status: 'administrator', user: { id: 1001, first_name: 'Alice' } })
		expect(typeof admin.can_delete_messages).toBe('boolean')
		expect(await result('getChatMember', { chat_id: LOUNGE, user_id: CAROL })).toMatchObject({
			status: 'member',
			user: { id: CAROL, first_name: 'Carol' },
		})
		const admins = await result<Array<{ status: string; user: { id: number } }>>('getChatAdministrators', {
			chat_id: LOUNGE,
		})
		expect(admins.map((m) => [m.user.id, m.status]).sort()).toEqual([
			[1001, 'administrator'],
			[BOB, 'creator'],
		])
		expect(await result('getChatMemberCount', { chat_id: LOUNGE })).toBe(4)
		expect(await refusal('getChatMember', { chat_id: LOUNGE })).toBe('Bad Request: user_id is empty')
	})
})

describe('banning, restricting and promoting', () => {
	it('banChatMember bans; unbanChatMember with only_if_banned leaves a member be, and unbans a banned user (left)', async () => {
		expect(await result('banChatMember', { chat_id: LOUNGE, user_id: EVE, revoke_messages: true })).toBe(true)
		expect(await result('getChatMember', { chat_id: LOUNGE, user_id: EVE })).toMatchObject({
			status: 'kicked',
			until_date: 0,
		})
		expect(await result('unbanChatMember', { chat_id: LOUNGE, user_id: CAROL, only_if_banned: true })).toBe(
			true,
		)
		expect(await status(CAROL)).toBe('member')
		expect(await result('unbanChatMember', { chat_id: LOUNGE, user_id: EVE, only_if_banned: true })).toBe(
			true,
		)
		expect(await status(EVE)).toBe('left')
	})

	it('restrictChatMember maps ChatPermissions onto TDLib, promoteChatMember the rights, all false demotes', async () => {
		const restricted = await result('restrictChatMember', {
			chat_id: LOUNGE,
			user_id: CAROL,
			permissions: { can_send_messages: true, can_send_photos: false, can_invite_users: true },
			use_independent_chat_permissions: true,
		})
		expect(restricted).toBe(true)
		expect(await result('getChatMember', { chat_id: LOUNGE, user_id: CAROL })).toMatchObject({
			status: 'restricted',
			is_member: true,
			can_send_messages: true,
			can_send_photos: false,
			can_send_polls: false,
			can_invite_users: true,
			until_date: 0,
		})
		// Without independent permissions, the Bot API's older reading: polls imply text messages.
		await result('restrictChatMember', {
			chat_id: LOUNGE,
			user_id: CAROL,
			permissions: { can_send_polls: true },
		})
		expect(await result('getChatMember', { chat_id: LOUNGE, user_id: CAROL })).toMatchObject({
			status: 'restricted',
			can_send_messages: true,
			can_send_polls: true,
			can_send_photos: false,
		})

		expect(
			await result('promoteChatMember', {
				chat_id: LOUNGE,
				user_id: CAROL,
				can_delete_messages: true,
				can_pin_messages: true,
			}),
		).toBe(true)
		expect(await result('getChatMember', { chat_id: LOUNGE, user_id: CAROL })).toMatchObject({
			status: 'administrator',
			can_delete_messages: true,
			can_pin_messages: true,
			can_promote_members: false,
		})
		expect(
			await result('promoteChatMember', { chat_id: LOUNGE, user_id: CAROL, can_delete_messages: false }),
		).toBe(true)
		expect(await status(CAROL)).toBe('member')
		expect(await refusal('restrictChatMember', { chat_id: LOUNGE, user_id: CAROL })).toBe(
			'Bad Request: permissions are empty',
		)
		expect(
			await refusal('restrictChatMember', {
				chat_id: LOUNGE,
				user_id: CAROL,
				permissions: { can_send_messages: 'no' },
			}),
		).toBe('Bad Request: invalid permissions specified')
	})
})

type Link = { invite_link: string; creator: { id: number; first_name: string }; [k: string]: unknown }

describe('invite links and join requests', () => {
	it('createChatInviteLink, editChatInviteLink and revokeChatInviteLink answer ChatInviteLink objects', async () => {
		const link = await result<Link>('createChatInviteLink', {
			chat_id: LOUNGE,
			name: 'partners',
			member_limit: 5,
		})
		expect(link).toMatchObject({
			name: 'partners',
			member_limit: 5,
			creates_join_request: false,
			is_primary: false,
			is_revoked: false,
			creator: { id: BOB, is_bot: false, first_name: 'Bob' },
		})
		expect(link.invite_link).toStartWith('https://t.me/+')
		const edited = await result<Link>('editChatInviteLink', {
			chat_id: LOUNGE,
			invite_link: link.invite_link,
			name: 'friends',
			expire_date: 2_000_000_000,
		})
		expect(edited).toMatchObject({
			invite_link: link.invite_link,
			name: 'friends',
			expire_date: 2_000_000_000,
		})
		const revoked = await result<Link>('revokeChatInviteLink', {
			chat_id: LOUNGE,
			invite_link: link.invite_link,
		})
		expect(revoked).toMatchObject({ invite_link: link.invite_link, is_revoked: true })
		expect(await refusal('editChatInviteLink', { chat_id: LOUNGE })).toBe('Bad Request: invite link is empty')
	})

	it("declineChatJoinRequest and approveChatJoinRequest answer a request Dave sent by join_chat's invite_link", async () => {
		const link = await result<Link>('createChatInviteLink', { chat_id: LOUNGE, creates_join_request: true })
		expect(link.creates_join_request).toBe(true)
		const ask = async () => {
			const joined = await daveWs.command({
				action: 'join_chat',
				userbot_id: dave,
				invite_link: link.invite_link,
			})
			expect(joined.payload.result).toEqual({ chat_id: 0, join_result: { _: 'chatJoinResultRequestSent' } })
		}
		await ask()
		expect(await result('declineChatJoinRequest', { chat_id: LOUNGE, user_id: DAVE })).toBe(true)
		expect(await status(DAVE)).toBe('left')
		await ask()
		expect(await result('approveChatJoinRequest', { chat_id: LOUNGE, user_id: DAVE })).toBe(true)
		expect(await status(DAVE)).toBe('member')
	})
})

describe('getUserProfilePhotos', () => {
	it('answers UserProfilePhotos whose PhotoSize file ids are TDLib’s remote ids', async () => {
		const photos = await result<{ total_count: number; photos: Array<Array<Record<string, unknown>>> }>(
			'getUserProfilePhotos',
			{ user_id: CAROL },
		)
		expect(photos.total_count).toBe(1)
		const direct = await bobWs.command({
			action: 'get_user_profile_photos',
			userbot_id: f.userbotId,
			user_id: CAROL,
		})
		const td = direct.payload.result as {
			photos: Array<{ sizes: Array<{ photo: { size: number; remote: { id: string; unique_id: string } } }> }>
		}
		const file = td.photos[0]?.sizes[0]?.photo
		expect(photos.photos).toEqual([
			[
				{
					file_id: file?.remote.id,
					file_unique_id: file?.remote.unique_id,
					width: 4,
					height: 4,
					file_size: file?.size,
				},
			],
		])
		expect(await result('getUserProfilePhotos', { user_id: 1001, limit: 5 })).toEqual({
			total_count: 0,
			photos: [],
		})
		expect(await refusal('getUserProfilePhotos', { user_id: CAROL, limit: 0 })).toBe(
			'Bad Request: limit must be between 1 and 100',
		)
	})
})

describe('chat actions, the chat list, search, joining and leaving', () => {
	it('sendChatAction sends the Bot API actions; an unknown one is refused in the Bot API wording', async () => {
		for (const action of ['typing', 'upload_photo', 'record_voice', 'cancel'])
			expect(await result('sendChatAction', { chat_id: 1001, action })).toBe(true)
		expect(await refusal('sendChatAction', { chat_id: 1001, action: 'dancing' })).toBe(
			'Bad Request: wrong parameter action in request',
		)
		expect(await refusal('sendChatAction', { chat_id: 1001 })).toBe('Bad Request: action is empty')
	})

	it('getChats lists Chats, a channel as a channel; searchPublicChats finds public chats', async () => {
		const chats = await result<Array<{ id: number; type: string }>>('getChats', { limit: 100 })
		expect(chats).toContainEqual(expect.objectContaining({ id: 1001, type: 'private' }))
		expect(chats).toContainEqual(expect.objectContaining({ id: SEED_CHATS.channel, type: 'channel' }))
		expect(chats).toContainEqual(expect.objectContaining({ id: LOUNGE, type: 'supergroup' }))
		expect(await result('getChats', { limit: 1 })).toHaveLength(1)
		const found = await result<Array<{ id: number; type: string }>>('searchPublicChats', { query: 'dave' })
		expect(found).toContainEqual(expect.objectContaining({ id: DAVE, type: 'private' }))
		expect(await refusal('searchPublicChats', {})).toBe('Bad Request: query is empty')
	})

	it('joinChat joins by chat id or invite link; leaveChat leaves', async () => {
		// Bob leaves the team's basic group and comes back by a link made before (a member's join by
		// link would be USER_ALREADY_PARTICIPANT); the forum is public, joined by its id.
		const team = SEED_CHATS.basicGroup
		const links = await bobWs.command({
			action: 'create_chat_invite_link',
			userbot_id: f.userbotId,
			chat_id: team,
		})
		const link = (links.payload.result as { invite_link: string }).invite_link
		expect(await result('leaveChat', { chat_id: team })).toBe(true)
		expect(await result('joinChat', { invite_link: link })).toBe(true)
		expect(await result('getChat', { chat_id: team })).toMatchObject({ id: team, type: 'group' })
		expect(await result('leaveChat', { chat_id: SEED_CHATS.forum })).toBe(true)
		expect(await result('joinChat', { chat_id: SEED_CHATS.forum })).toBe(true)
		expect(await result('sendChatAction', { chat_id: SEED_CHATS.forum, action: 'typing' })).toBe(true)
	})
})
