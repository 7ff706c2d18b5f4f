import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import type * as Td from 'tdlib-types'
import { SEED_CHATS } from '../../src/emulator'
import { createSeededWorld } from '../../src/emulator/seed'
import { TdError } from '../../src/runtime/telegram/types'
import { login, startRuntime, type TestRuntime } from '../supervisor/helpers'

// Userbots of this runtime and the seed accounts they log in to.
const BOB = 1 // 1002: owner of the Lounge, administrator of Team Chat and of the News channel
const ALICE = 2 // 1001: owner of Team Chat, administrator of the Lounge, member of the channel
const DAVE = 3 // 1004: a member of Team Chat, where only administrators add members
const U = { alice: 1001, bob: 1002, carol: 1003, dave: 1004, eve: 1005 } // Eve refuses group invites

const user = (user_id: number): Td.messageSenderUser => ({ _: 'messageSenderUser', user_id })

async function tdError(p: Promise<unknown>): Promise<string> {
	try {
		await p
	} catch (err) {
		expect(err).toBeInstanceOf(TdError)
		return (err as TdError).message
	}
	throw new Error('expected a TdError')
}

let t: TestRuntime
const invoke: TestRuntime['rt']['invoke'] = (id, req, opts) => t.rt.invoke(id, req, opts)
const memberIds = (m: Td.chatMembers) =>
	m.members.map((x) => (x.member_id._ === 'messageSenderUser' ? x.member_id.user_id : 0))
const statusOf = async (who: number, chat_id: number, userId: number) =>
	(await invoke(who, { _: 'getChatMember', chat_id, member_id: user(userId) })).status

/** A fresh supergroup (or channel) of `owner`'s, with `members` added. */
async function supergroup(owner: number, members: number[] = [], is_channel = false) {
	const chat = await invoke(owner, { _: 'createNewSupergroupChat', title: 'Fresh', is_channel })
	if (members.length) await invoke(owner, { _: 'addChatMembers', chat_id: chat.id, user_ids: members })
	return chat.id
}

beforeAll(async () => {
	t = await startRuntime()
	await login(t.rt, BOB, '9996621234')
	await login(t.rt, ALICE, '9996611111')
	await login(t.rt, DAVE, '9996614444')
})
afterAll(() => t.stop())

describe('emulator members: reading', () => {
	it('reports each status, can_be_edited as the viewer sees it', async () => {
		expect(await statusOf(BOB, SEED_CHATS.supergroup, U.bob)).toEqual({
			_: 'chatMemberStatusCreator',
			is_anonymous: false,
			is_member: true,
		})
		const admin = await invoke(BOB, {
			_: 'getChatMember',
			chat_id: SEED_CHATS.supergroup,
			member_id: user(U.alice),
		})
		expect(admin).toMatchObject({
			_: 'chatMember',
			member_id: user(U.alice),
			inviter_user_id: U.bob,
			status: { _: 'chatMemberStatusAdministrator', can_be_edited: true, rights: { can_invite_users: true } },
		})
		expect(admin.joined_chat_date).toBeGreaterThan(0)
		// Alice did not promote herself: she cannot edit her own rights.
		expect(await statusOf(ALICE, SEED_CHATS.supergroup, U.alice)).toMatchObject({ can_be_edited: false })
		expect(await statusOf(BOB, SEED_CHATS.supergroup, U.carol)).toEqual({
			_: 'chatMemberStatusMember',
			member_until_date: 0,
		})
		expect(await statusOf(BOB, SEED_CHATS.supergroup, U.dave)).toEqual({ _: 'chatMemberStatusLeft' })
		expect(await statusOf(BOB, U.alice, U.alice)).toMatchObject({ _: 'chatMemberStatusMember' })
		expect(await tdError(statusOf(BOB, U.alice, U.carol))).toBe('Member not found')
		expect(await tdError(statusOf(BOB, SEED_CHATS.supergroup, 999))).toBe('Member not found')
		expect(await tdError(statusOf(ALICE, SEED_CHATS.channel, U.bob))).toBe('Member list is inaccessible')
	})

	it('lists supergroup members by filter, newest first, and checks limit and offset as TDLib does', async () => {
		const list = (filter?: Td.SupergroupMembersFilter$Input, offset = 0, limit = 50) =>
			invoke(BOB, { _: 'getSupergroupMembers', supergroup_id: 3001, filter, offset, limit })
		const recent = await list()
		expect(memberIds(recent)).toEqual([U.eve, U.carol, U.alice, U.bob])
		expect(recent.total_count).toBe(4)
		expect(memberIds(await list(undefined, 1, 2))).toEqual([U.carol, U.alice])
		expect(memberIds(await list({ _: 'supergroupMembersFilterAdministrators' }))).toEqual([U.alice, U.bob])
		expect(memberIds(await list({ _: 'supergroupMembersFilterSearch', query: 'car' }))).toEqual([U.carol])
		expect(memberIds(await list({ _: 'supergroupMembersFilterContacts' }))).toEqual([])
		expect(await tdError(list(undefined, 0, 0))).toBe('Parameter limit must be positive')
		expect(await tdError(list(undefined, -1))).toBe('Parameter offset must be non-negative')
		expect(
			await tdError(invoke(BOB, { _: 'getSupergroupMembers', supergroup_id: 9, offset: 0, limit: 5 })),
		).toBe('Supergroup not found')
		// Who is banned is for administrators to know.
		const forum = { _: 'getSupergroupMembers', supergroup_id: 3003, offset: 0, limit: 5 } as const
		expect(await tdError(invoke(BOB, { ...forum, filter: { _: 'supergroupMembersFilterBanned' } }))).toBe(
			'CHAT_ADMIN_REQUIRED',
		)
	})

	it('gives a basic group full info with its members in the order they joined', async () => {
		const info = await invoke(ALICE, { _: 'getBasicGroupFullInfo', basic_group_id: 2001 })
		expect(info.creator_user_id).toBe(U.alice)
		expect(info.members.map((m) => m.member_id)).toEqual([U.alice, U.bob, U.carol, U.dave].map(user))
		expect(info.members.map((m) => m.status._)).toEqual([
			'chatMemberStatusCreator',
			'chatMemberStatusAdministrator',
			'chatMemberStatusMember',
			'chatMemberStatusMember',
		])
		expect(await tdError(invoke(ALICE, { _: 'getBasicGroupFullInfo', basic_group_id: 3001 }))).toBe(
			'Group not found',
		)
	})

	it('searches a chat of any kind by filter and name', async () => {
		const search = (chat_id: number, query: string, filter?: Td.ChatMembersFilter$Input) =>
			invoke(ALICE, { _: 'searchChatMembers', chat_id, query, limit: 10, filter })
		expect(
			memberIds(await search(SEED_CHATS.basicGroup, '', { _: 'chatMembersFilterAdministrators' })),
		).toEqual([U.bob, U.alice])
		expect(memberIds(await search(SEED_CHATS.basicGroup, 'da'))).toEqual([U.dave])
		expect((await search(SEED_CHATS.basicGroup, '', { _: 'chatMembersFilterBanned' })).total_count).toBe(0)
		expect(memberIds(await search(U.bob, 'bob'))).toEqual([U.bob])
		expect(
			await tdError(invoke(ALICE, { _: 'searchChatMembers', chat_id: SEED_CHATS.basicGroup, limit: -1 })),
		).toBe('Parameter limit must be non-negative')
	})
})

describe('emulator members: adding', () => {
	it('adds to a basic group one user at a time, as its rights allow', async () => {
		const group = await invoke(ALICE, { _: 'createNewBasicGroupChat', user_ids: [U.bob], title: 'Trio' })
		const chat_id = group.chat_id
		expect(group.failed_to_add_members.failed_to_add_members).toEqual([])
		expect(await invoke(ALICE, { _: 'addChatMember', chat_id, user_id: U.dave, forward_limit: 10 })).toEqual({
			_: 'failedToAddMembers',
			failed_to_add_members: [],
		})
		expect(
			(await invoke(ALICE, { _: 'getChatMember', chat_id, member_id: user(U.dave) })).inviter_user_id,
		).toBe(U.alice)
		expect(await tdError(invoke(ALICE, { _: 'addChatMember', chat_id, user_id: U.dave }))).toBe(
			'USER_ALREADY_PARTICIPANT',
		)
		expect(await tdError(invoke(ALICE, { _: 'addChatMember', chat_id, user_id: 9 }))).toBe('User not found')
		expect(
			await tdError(invoke(ALICE, { _: 'addChatMember', chat_id, user_id: U.carol, forward_limit: -1 })),
		).toBe("Can't forward negative number of messages")
		expect(await tdError(invoke(ALICE, { _: 'addChatMembers', chat_id, user_ids: [U.carol, U.eve] }))).toBe(
			"Can't add many members at once to a basic group chat",
		)
		// Eve's privacy settings let nobody add her: not an error, a failedToAddMember.
		expect(await invoke(ALICE, { _: 'addChatMembers', chat_id, user_ids: [U.eve] })).toEqual({
			_: 'failedToAddMembers',
			failed_to_add_members: [
				{
					_: 'failedToAddMember',
					user_id: U.eve,
					premium_would_allow_invite: false,
					premium_required_to_send_messages: false,
				},
			],
		})
		expect(await statusOf(ALICE, chat_id, U.eve)).toEqual({ _: 'chatMemberStatusLeft' })
		// Team Chat lets only administrators add members: Dave is none.
		expect(
			await tdError(invoke(DAVE, { _: 'addChatMember', chat_id: SEED_CHATS.basicGroup, user_id: U.eve })),
		).toBe('Not enough rights to invite members to the group chat')
		expect(await tdError(invoke(ALICE, { _: 'addChatMember', chat_id: U.bob, user_id: U.dave }))).toBe(
			"Can't add members to a private chat",
		)
	})

	it('adds many to a supergroup, skipping those already in, refusing a banned user', async () => {
		const chat_id = await supergroup(BOB)
		const added = await invoke(BOB, {
			_: 'addChatMembers',
			chat_id,
			user_ids: [U.alice, U.dave, U.eve, U.bob],
		})
		expect(added.failed_to_add_members.map((f) => f.user_id)).toEqual([U.eve])
		expect(await statusOf(BOB, chat_id, U.dave)).toMatchObject({ _: 'chatMemberStatusMember' })
		expect(await invoke(BOB, { _: 'addChatMembers', chat_id, user_ids: [U.alice] })).toEqual({
			_: 'failedToAddMembers',
			failed_to_add_members: [],
		})
		await invoke(BOB, { _: 'banChatMember', chat_id, member_id: user(U.dave), banned_until_date: 0 })
		expect(await tdError(invoke(BOB, { _: 'addChatMembers', chat_id, user_ids: [U.carol, U.dave] }))).toBe(
			'USER_KICKED',
		)
		expect(await statusOf(BOB, chat_id, U.carol)).toEqual({ _: 'chatMemberStatusLeft' })
		// A plain member of a channel may add nobody.
		const channel = await supergroup(BOB, [U.alice], true)
		expect(await tdError(invoke(ALICE, { _: 'addChatMember', chat_id: channel, user_id: U.dave }))).toBe(
			'Not enough rights to invite members to the supergroup chat',
		)
	})
})

describe('emulator members: statuses', () => {
	it('promotes with the rights that fit the chat, and demotes when no right is left', async () => {
		const chat_id = await supergroup(BOB, [U.alice, U.dave])
		const promote = (who: number, target: number, rights: Td.chatAdministratorRights$Input) =>
			invoke(who, {
				_: 'setChatMemberStatus',
				chat_id,
				member_id: user(target),
				status: { _: 'chatMemberStatusAdministrator', can_be_edited: true, rights },
			})
		await promote(BOB, U.alice, {
			_: 'chatAdministratorRights',
			can_invite_users: true,
			can_promote_members: true,
			can_post_messages: true,
		})
		expect(await statusOf(BOB, chat_id, U.alice)).toMatchObject({
			_: 'chatMemberStatusAdministrator',
			can_be_edited: true,
			// can_manage_chat comes with any right; posting is for channels.
			rights: {
				can_manage_chat: true,
				can_invite_users: true,
				can_promote_members: true,
				can_post_messages: false,
			},
		})
		// Alice may promote, but not beyond her own rights, and not an administrator Bob made.
		expect(
			await tdError(promote(ALICE, U.dave, { _: 'chatAdministratorRights', can_delete_messages: true })),
		).toBe('RIGHT_FORBIDDEN')
		await promote(ALICE, U.dave, { _: 'chatAdministratorRights', can_invite_users: true })
		expect(await statusOf(ALICE, chat_id, U.dave)).toMatchObject({ can_be_edited: true })
		// Bob added Dave, Alice promoted him: an administrator's inviter is who promoted them
		// (TDLib reads channelParticipantAdmin.promoted_by).
		expect(
			(await invoke(BOB, { _: 'getChatMember', chat_id, member_id: user(U.dave) })).inviter_user_id,
		).toBe(U.alice)
		expect(
			await tdError(promote(ALICE, U.bob, { _: 'chatAdministratorRights', can_invite_users: true })),
		).toBe("Can't remove chat owner")
		expect(
			await tdError(promote(ALICE, U.alice, { _: 'chatAdministratorRights', can_invite_users: true })),
		).toBe("Can't promote self")
		// All rights false: TDLib makes a plain member of it.
		await promote(BOB, U.dave, { _: 'chatAdministratorRights' })
		expect(await statusOf(BOB, chat_id, U.dave)).toEqual({
			_: 'chatMemberStatusMember',
			member_until_date: 0,
		})
		// Bob's rights in the seed's channel do not include promoting.
		expect(
			await tdError(
				invoke(BOB, {
					_: 'setChatMemberStatus',
					chat_id: SEED_CHATS.channel,
					member_id: user(U.alice),
					status: {
						_: 'chatMemberStatusAdministrator',
						rights: { _: 'chatAdministratorRights', can_invite_users: true },
					},
				}),
			),
		).toBe('Not enough rights')
	})

	it('kicks without a lasting ban, bans until unbanned, and re-adds on Member', async () => {
		const chat_id = await supergroup(BOB, [U.alice, U.dave, U.carol])
		const set = (target: number, status: Td.ChatMemberStatus$Input, who = BOB) =>
			invoke(who, { _: 'setChatMemberStatus', chat_id, member_id: user(target), status })
		await set(U.dave, { _: 'chatMemberStatusLeft' })
		expect(await statusOf(BOB, chat_id, U.dave)).toEqual({ _: 'chatMemberStatusLeft' })
		await invoke(BOB, { _: 'addChatMember', chat_id, user_id: U.dave })
		expect(await statusOf(BOB, chat_id, U.dave)).toMatchObject({ _: 'chatMemberStatusMember' })

		await set(U.carol, { _: 'chatMemberStatusBanned', banned_until_date: 0 })
		expect(await statusOf(BOB, chat_id, U.carol)).toEqual({
			_: 'chatMemberStatusBanned',
			banned_until_date: 0,
		})
		const chat = await invoke(BOB, { _: 'getChat', chat_id })
		const supergroup_id = chat.type._ === 'chatTypeSupergroup' ? chat.type.supergroup_id : 0
		const banned = await invoke(BOB, {
			_: 'getSupergroupMembers',
			supergroup_id,
			filter: { _: 'supergroupMembersFilterBanned' },
			offset: 0,
			limit: 10,
		})
		expect(memberIds(banned)).toEqual([U.carol])
		// Banned is out: she cannot be added back without an unban.
		expect(await tdError(invoke(BOB, { _: 'addChatMember', chat_id, user_id: U.carol }))).toBe('USER_KICKED')
		await set(U.carol, { _: 'chatMemberStatusMember' })
		expect(await statusOf(BOB, chat_id, U.carol)).toMatchObject({ _: 'chatMemberStatusMember' })

		await set(U.dave, {
			_: 'chatMemberStatusRestricted',
			is_member: true,
			restricted_until_date: 0,
			permissions: { _: 'chatPermissions', can_send_basic_messages: true },
		})
		expect(await statusOf(BOB, chat_id, U.dave)).toMatchObject({
			_: 'chatMemberStatusRestricted',
			is_member: true,
			permissions: { can_send_basic_messages: true, can_invite_users: false },
		})
		// Alice, an administrator without the right to restrict, cannot.
		expect(await tdError(set(U.dave, { _: 'chatMemberStatusLeft' }, ALICE))).toBe(
			'Not enough rights to restrict/unrestrict chat member',
		)
		expect(await tdError(set(U.bob, { _: 'chatMemberStatusLeft' }))).toBe("Can't remove chat owner")
		expect(await tdError(set(999, { _: 'chatMemberStatusLeft' }))).toBe('Member not found')
		expect(
			await tdError(
				invoke(BOB, {
					_: 'setChatMemberStatus',
					chat_id: U.alice,
					member_id: user(U.alice),
					status: { _: 'chatMemberStatusLeft' },
				}),
			),
		).toBe("Chat member status can't be changed in private chats")
	})

	it('fails a re-add that privacy settings refuse with USER_PRIVACY_RESTRICTED, the unban kept', async () => {
		const chat_id = await supergroup(BOB)
		await invoke(BOB, { _: 'banChatMember', chat_id, member_id: user(U.eve), banned_until_date: 0 })
		expect(await statusOf(BOB, chat_id, U.eve)).toMatchObject({ _: 'chatMemberStatusBanned' })
		const err = await t.rt
			.invoke(BOB, {
				_: 'setChatMemberStatus',
				chat_id,
				member_id: user(U.eve),
				status: { _: 'chatMemberStatusMember' },
			})
			.catch((e: TdError) => e)
		expect(err).toMatchObject({ code: 403, message: 'USER_PRIVACY_RESTRICTED' })
		expect(await statusOf(BOB, chat_id, U.eve)).toEqual({ _: 'chatMemberStatusLeft' })
	})

	it('in a basic group, an administrator’s inviter stays who added them', async () => {
		const group = await invoke(ALICE, { _: 'createNewBasicGroupChat', user_ids: [U.bob], title: 'Adders' })
		const chat_id = group.chat_id
		await invoke(BOB, { _: 'addChatMember', chat_id, user_id: U.dave })
		await invoke(ALICE, {
			_: 'setChatMemberStatus',
			chat_id,
			member_id: user(U.dave),
			status: {
				_: 'chatMemberStatusAdministrator',
				rights: { _: 'chatAdministratorRights', can_invite_users: true },
			},
		})
		const dave = await invoke(ALICE, { _: 'getChatMember', chat_id, member_id: user(U.dave) })
		// chatParticipantAdmin carries inviter_id, not who promoted.
		expect(dave).toMatchObject({ inviter_user_id: U.bob, status: { _: 'chatMemberStatusAdministrator' } })
	})

	it('in a basic group: owner rights to promote, no restrictions, a ban is a kick', async () => {
		const set = (who: number, target: number, status: Td.ChatMemberStatus$Input) =>
			invoke(who, {
				_: 'setChatMemberStatus',
				chat_id: SEED_CHATS.basicGroup,
				member_id: user(target),
				status,
			})
		const admin: Td.ChatMemberStatus$Input = {
			_: 'chatMemberStatusAdministrator',
			rights: { _: 'chatAdministratorRights', can_invite_users: true },
		}
		expect(await tdError(set(BOB, U.carol, admin))).toBe('Need owner rights in the group chat')
		expect(await tdError(set(ALICE, U.alice, admin))).toBe("Can't promote or demote self")
		expect(await tdError(set(ALICE, U.carol, { _: 'chatMemberStatusRestricted', is_member: true }))).toBe(
			"Can't restrict users in basic group chats",
		)
		expect(await tdError(set(ALICE, U.carol, { _: 'chatMemberStatusCreator', is_member: true }))).toBe(
			"Can't change owner in basic group chats",
		)

		const group = await invoke(ALICE, {
			_: 'createNewBasicGroupChat',
			user_ids: [U.bob, U.dave],
			title: 'Kick',
		})
		const chat_id = group.chat_id
		await invoke(DAVE, {
			_: 'sendMessage',
			chat_id,
			input_message_content: { _: 'inputMessageText', text: { _: 'formattedText', text: 'bye' } },
		})
		await invoke(ALICE, { _: 'banChatMember', chat_id, member_id: user(U.dave), revoke_messages: true })
		expect(await statusOf(ALICE, chat_id, U.dave)).toEqual({ _: 'chatMemberStatusLeft' })
		// Dave's message went with him; what is left says the group was made and he was removed.
		// As TDLib's, the first answer on a chat not read yet holds its last message alone.
		expect((await invoke(ALICE, { _: 'getChatHistory', chat_id, limit: 10 })).messages).toHaveLength(1)
		const history = await invoke(ALICE, { _: 'getChatHistory', chat_id, limit: 10 })
		expect(history.messages.map((m) => m?.content._)).toEqual([
			'messageChatDeleteMember',
			'messageBasicGroupChatCreate',
		])
		// No ban list: Dave can be added again at once.
		await invoke(ALICE, { _: 'addChatMember', chat_id, user_id: U.dave })
		expect(await tdError(invoke(DAVE, { _: 'banChatMember', chat_id, member_id: user(U.bob) }))).toBe(
			'CHAT_ADMIN_REQUIRED',
		)
		expect(await tdError(invoke(ALICE, { _: 'banChatMember', chat_id, member_id: user(U.carol) }))).toBe(
			'USER_NOT_PARTICIPANT',
		)
		expect(await tdError(invoke(ALICE, { _: 'banChatMember', chat_id: U.bob, member_id: user(U.bob) }))).toBe(
			"Can't ban members in private chats",
		)
	})

	it('deletes a member’s messages in supergroups only, for administrators who may delete', async () => {
		const chat_id = await supergroup(BOB, [U.alice, U.dave])
		const say = (who: number, text: string) =>
			invoke(who, {
				_: 'sendMessage',
				chat_id,
				input_message_content: { _: 'inputMessageText', text: { _: 'formattedText', text } },
			})
		await say(DAVE, 'spam')
		await say(ALICE, 'keep me')
		await say(DAVE, 'more spam')
		const del = (who: number, chat: number, sender: number) =>
			invoke(who, { _: 'deleteChatMessagesBySender', chat_id: chat, sender_id: user(sender) })
		expect(await tdError(del(DAVE, chat_id, U.alice))).toBe(
			'Need delete messages administrator right in the supergroup chat',
		)
		await del(BOB, chat_id, U.dave)
		const last = (await invoke(BOB, { _: 'getChat', chat_id })).last_message
		expect(last?.content).toMatchObject({ text: { text: 'keep me' } })
		expect(await tdError(del(BOB, SEED_CHATS.basicGroup, U.dave))).toBe(
			'All messages from a sender can be deleted only in supergroup chats',
		)
		expect(await tdError(del(BOB, SEED_CHATS.channel, U.alice))).toBe(
			'The method is available only in regular supergroup chats',
		)
		expect(await tdError(del(BOB, chat_id, 999))).toBe('Message sender not found')
	})
})

describe('emulator members: the world’s addMember', () => {
	it('adds once, and never a banned user (a ban outlives invite links)', () => {
		const world = createSeededWorld()
		const chat = world.groups.get(SEED_CHATS.supergroup)!
		expect(world.addMember(chat, U.dave)).toBe(true)
		expect(chat.members.get(U.dave)).toMatchObject({ role: 'member', tag: '' })
		expect(world.addMember(chat, U.dave)).toBe(false)
		chat.banned.set(U.bob + 100, { until: 0, bannedBy: U.bob, date: world.clock })
		world.users.set(U.bob + 100, {
			id: U.bob + 100,
			firstName: 'Mallory',
			lastName: '',
			defaultAutoDeleteTime: 0,
		})
		expect(world.addMember(chat, U.bob + 100)).toBe(false)
		// A ban past its date is lifted.
		chat.banned.set(U.bob + 100, { until: world.clock - 1, bannedBy: U.bob, date: world.clock - 100 })
		expect(world.addMember(chat, U.bob + 100, 'administrator')).toBe(true)
		expect(chat.members.get(U.bob + 100)?.rights?.can_invite_users).toBe(true)
	})
})
