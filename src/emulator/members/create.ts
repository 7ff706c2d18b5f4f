import { chatObject } from '../objects'
import { fail, type Handlers, type Session } from '../session'
import type { ChatKind, ChatRecord } from '../world'
import { failedToAdd, invite, requireUser } from './add'
import { newMember } from './rights'

/**
 * New groups, owned by the account that makes them: `createNewSupergroupChat` (a supergroup or a
 * channel) and `createNewBasicGroupChat`. Tests make a fresh group of their own with these.
 */

/** Supergroup and channel chat ids are -100 followed by their supergroup id (TDLib's `ChannelId`). */
const CHANNEL_ID_BASE = 1_000_000_000_000

function newGroup(s: Session, kind: ChatKind, title: string | undefined, autoDeleteTime: number): ChatRecord {
	const name = (title ?? '').trim()
	if (!name) fail('Title must be non-empty')
	const basic = kind === 'basicGroup'
	let groupId = basic ? 2000 : 3000
	for (const c of s.world.groups.values()) {
		if ((c.kind === 'basicGroup') === basic) groupId = Math.max(groupId, c.groupId)
	}
	groupId += 1
	const chat: ChatRecord = {
		kind,
		id: basic ? -groupId : -(CHANNEL_ID_BASE + groupId),
		groupId,
		title: name,
		members: new Map([[s.userId, newMember('creator', 0, s.world.now())]]),
		banned: new Map(),
		messages: new Map(),
		lastServerId: 0,
		autoDeleteTime,
		events: [],
	}
	s.world.groups.set(chat.id, chat)
	return chat
}

export const newGroupHandlers: Handlers = {
	createNewSupergroupChat(s, req) {
		const kind = req.is_channel ? 'channel' : 'supergroup'
		const chat = newGroup(s, kind, req.title, req.message_auto_delete_time ?? 0)
		chat.isForum = kind === 'supergroup' && req.is_forum === true
		// As the cloud does: the group's first message says it was made.
		s.world.addMessage(chat, s.userId, { _: 'messageSupergroupChatCreate', title: chat.title })
		return chatObject(s.world, chat, s.userId)
	},
	createNewBasicGroupChat(s, req) {
		const ids = [...new Set(req.user_ids ?? [])].filter((id) => id !== s.userId)
		for (const id of ids) requireUser(s.world, id)
		const chat = newGroup(s, 'basicGroup', req.title, req.message_auto_delete_time ?? 0)
		const failed = ids.filter((id) => !invite(s, chat, id, false))
		// The group's first message names who is in it: those whose privacy settings let them be added.
		s.world.addMessage(chat, s.userId, {
			_: 'messageBasicGroupChatCreate',
			title: chat.title,
			member_user_ids: [s.userId, ...ids.filter((id) => !failed.includes(id))],
		})
		return { _: 'createdBasicGroupChat', chat_id: chat.id, failed_to_add_members: failedToAdd(failed) }
	},
}
