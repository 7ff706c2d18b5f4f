import { describe, expect, it } from 'bun:test'
import { SEED_CHATS } from '../../../src/emulator'
import { chatsHarness } from './harness'

/** get_chat's full_info and username, send_chat_action, join_chat by invite link: Bob's userbot. */
const { ok, error } = chatsHarness()

type Chat = { id: number; full_info?: Record<string, unknown>; user?: Record<string, unknown> } & Record<
	string,
	unknown
>

describe('get_chat', () => {
	it("with full_info: a user's profile and the user, a supergroup's full info and the supergroup", async () => {
		const alice = await ok<Chat>('get_chat', { chat_id: 1001, full_info: true })
		expect(alice).toMatchObject({
			id: 1001,
			full_info: { _: 'userFullInfo' },
			user: { _: 'user', id: 1001, first_name: 'Alice' },
		})
		const lounge = await ok<Chat>('get_chat', { chat_id: SEED_CHATS.supergroup, full_info: true })
		expect(lounge).toMatchObject({
			full_info: { _: 'supergroupFullInfo', member_count: 4 },
			supergroup: { _: 'supergroup', usernames: { active_usernames: ['emulator_lounge'] } },
		})
		const team = await ok<Chat>('get_chat', { chat_id: SEED_CHATS.basicGroup, full_info: true })
		expect(team.full_info).toMatchObject({ _: 'basicGroupFullInfo' })
		expect((await ok<Chat>('get_chat', { chat_id: 1001 })).full_info).toBeUndefined()
	})

	it('by username: a user or a public chat; none, both, or a name nobody holds are refused', async () => {
		expect((await ok<Chat>('get_chat', { username: '@dave' })).id).toBe(1004)
		expect((await ok<Chat>('get_chat', { username: 'emulator_news' })).id).toBe(SEED_CHATS.channel)
		expect(await error('get_chat', { username: 'nobody_at_all' })).toBe('no chat has this username')
		expect(await error('get_chat', { chat_id: 1001, username: 'alice' })).toBe(
			'only one of chat_id and username may be given',
		)
		expect(await error('get_chat', {})).toBe('chat_id is required')
	})
})

describe('send_chat_action', () => {
	it("sends TDLib's chatAction for each Bot API name, and refuses others", async () => {
		for (const chat_action of ['typing', 'upload_document', 'choose_sticker', 'cancel'])
			expect(await ok('send_chat_action', { chat_id: 1001, chat_action })).toEqual({ _: 'ok' })
		expect(await error('send_chat_action', { chat_id: 1001, chat_action: 'dancing' })).toStartWith(
			'chat_action must be one of typing, upload_photo',
		)
		expect(await error('send_chat_action', { chat_id: 1001 })).toBe('chat_action is required')
	})
})

describe('join_chat by invite link', () => {
	it("joins through a link of the chat's, and takes one way of naming the chat only", async () => {
		const team = SEED_CHATS.basicGroup
		const { invite_link } = await ok<{ invite_link: string }>('create_chat_invite_link', { chat_id: team })
		expect(await ok('leave_chat', { chat_id: team })).toEqual({ _: 'ok' })
		expect(await ok('join_chat', { invite_link })).toEqual({
			chat_id: team,
			join_result: { _: 'chatJoinResultSuccess', chat_id: team },
		})
		expect(await error('join_chat', { invite_link })).toBe('USER_ALREADY_PARTICIPANT')
		expect(await error('join_chat', { chat_id: team, invite_link })).toBe(
			'only one of chat_id, username and invite_link may be given',
		)
	})
})

describe('get_chats', () => {
	it('says which supergroups are channels', async () => {
		const { chats } = await ok<{ chats: Array<{ id: number; is_channel?: boolean }> }>('get_chats', {
			limit: 100,
		})
		expect(chats.find((c) => c.id === SEED_CHATS.channel)?.is_channel).toBe(true)
		expect(chats.find((c) => c.id === SEED_CHATS.supergroup)?.is_channel).toBe(false)
		expect(chats.find((c) => c.id === 1001)?.is_channel).toBeUndefined()
	})
})

describe('get_user_profile_photos', () => {
	it("answers TDLib's chatPhotos of a user, a page of them; checks offset and limit", async () => {
		type Photos = {
			total_count: number
			photos: Array<{ sizes: Array<{ width: number; photo: { remote: { id: string; unique_id: string } } }> }>
		}
		const carol = await ok<Photos>('get_user_profile_photos', { user_id: 1003 })
		expect(carol.total_count).toBe(1)
		expect(carol.photos[0]?.sizes[0]).toMatchObject({
			width: 4,
			photo: { remote: { id: expect.any(String) } },
		})
		expect(carol.photos[0]?.sizes[0]?.photo.remote.id).not.toBe('')
		expect((await ok<Photos>('get_user_profile_photos', { user_id: 1003, offset: 1 })).photos).toEqual([])
		expect(await ok('get_user_profile_photos', { user_id: 1001 })).toEqual({
			_: 'chatPhotos',
			total_count: 0,
			photos: [],
		})
		expect(await error('get_user_profile_photos', { user_id: 1003, offset: -1 })).toBe(
			'offset must be non-negative',
		)
		expect(await error('get_user_profile_photos', { user_id: 1003, limit: 0 })).toBe(
			'limit must be between 1 and 100',
		)
		expect(await error('get_user_profile_photos', {})).toBe('user_id is required')
		expect(await error('get_user_profile_photos', { user_id: 4242424242 })).toBe('User not found')
	})
})
