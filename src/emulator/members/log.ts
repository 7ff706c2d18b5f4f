import type * as Td from 'tdlib-types'
import { requireChat } from '../messages/access'
import { fail, type Handlers } from '../session'
import type { ChatEventRecord } from '../world'
import { matchesQuery } from './list'
import { isAdmin } from './rights'

/** The chat event log (`getChatEventLog`): supergroups and channels, administrators only, last 48 hours. */

type Filter = Exclude<keyof Td.chatEventLogFilters$Input, '_'>

/** Which filter of `chatEventLogFilters` lets an action through (the server's admin-log event flags). */
const FILTER_OF: Partial<Record<Td.ChatEventAction['_'], Filter>> = {
	chatEventMessageEdited: 'message_edits',
	chatEventMessageDeleted: 'message_deletions',
	chatEventMessagePinned: 'message_pins',
	chatEventMessageUnpinned: 'message_pins',
	chatEventMemberJoined: 'member_joins',
	chatEventMemberJoinedByInviteLink: 'member_joins',
	chatEventMemberJoinedByRequest: 'member_joins',
	chatEventMemberLeft: 'member_leaves',
	chatEventMemberInvited: 'member_invites',
	chatEventMemberPromoted: 'member_promotions',
	chatEventMemberRestricted: 'member_restrictions',
	chatEventMemberTagChanged: 'member_tag_changes',
	chatEventMemberSubscriptionExtended: 'subscription_extensions',
	chatEventInviteLinkEdited: 'invite_link_changes',
	chatEventInviteLinkRevoked: 'invite_link_changes',
	chatEventInviteLinkDeleted: 'invite_link_changes',
	chatEventTitleChanged: 'info_changes',
	chatEventDescriptionChanged: 'info_changes',
	chatEventPhotoChanged: 'info_changes',
	chatEventUsernameChanged: 'info_changes',
	chatEventActiveUsernamesChanged: 'info_changes',
}

/** The filter an action falls under: video chats and forum topics by name, other settings by default. */
function filterOf(action: Td.ChatEventAction['_']): Filter {
	const known = FILTER_OF[action]
	if (known) return known
	if (action.startsWith('chatEventVideoChat')) return 'video_chat_changes'
	if (action.startsWith('chatEventForumTopic') || action === 'chatEventIsForumToggled') return 'forum_changes'
	return 'setting_changes'
}

/** The log keeps 48 hours of events. */
const LOG_WINDOW = 48 * 3600
/** The server returns at most 100 events a call. */
const MAX_EVENTS = 100

const eventObject = (e: ChatEventRecord): Td.chatEvent => ({
	_: 'chatEvent',
	id: String(e.id),
	date: e.date,
	member_id: { _: 'messageSenderUser', user_id: e.userId },
	action: e.action,
})

export const eventLogHandlers: Handlers = {
	getChatEventLog(s, req) {
		const chat = requireChat(s, req.chat_id)
		if (chat.kind !== 'supergroup' && chat.kind !== 'channel') fail('Chat is not a supergroup chat')
		if (!isAdmin(chat, s.userId)) fail('Not enough rights to get event log')
		const filters = req.filters
		const users = new Set(req.user_ids ?? [])
		for (const id of users) if (!s.world.users.has(id)) fail('User not found')
		const from = Number(req.from_event_id ?? 0)
		const query = req.query ?? ''
		const limit = Math.min(Math.max(req.limit ?? 0, 1), MAX_EVENTS)
		const since = s.world.clock - LOG_WINDOW
		const events = chat.events
			.filter(
				(e) =>
					e.date >= since &&
					(from === 0 || e.id < from) &&
					(users.size === 0 || users.has(e.userId)) &&
					(!filters || filters[filterOf(e.action._)] === true) &&
					matchesQuery(s.world, e.userId, query),
			)
			.reverse()
			.slice(0, limit)
		return { _: 'chatEvents', events: events.map(eventObject) }
	},
}
