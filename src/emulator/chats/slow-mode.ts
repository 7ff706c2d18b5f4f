import type * as Td from 'tdlib-types'
import { canRestrict } from '../members/rights'
import { requireChat } from '../messages/access'
import { fail, type Handlers, OK } from '../session'
import type { ChatRecord } from '../world'

/**
 * A supergroup's slow mode (`setChatSlowModeDelay`) and its full info (`getSupergroupFullInfo`,
 * `updateSupergroupFullInfo`). The delay itself is enforced where the emulated cloud's limits are,
 * per client, on the flood clock (`flood.ts`): a member who is no administrator sends one message
 * per delay, as Telegram allows. TDLib 1.8.65 accepts 0, 5, 10, 30, 60, 300, 900 or 3600 seconds.
 */
const DELAYS = new Set([0, 5, 10, 30, 60, 300, 900, 3600])

export function supergroupFullInfo(chat: ChatRecord, viewerId: number): Td.supergroupFullInfo {
	const admins = [...chat.members.values()].filter((m) => m.role === 'creator' || m.role === 'administrator')
	const restricted = [...chat.members.values()].filter((m) => m.restriction !== undefined)
	return {
		_: 'supergroupFullInfo',
		description: '',
		member_count: chat.members.size,
		administrator_count: admins.length,
		restricted_count: restricted.length,
		banned_count: chat.banned.size,
		linked_chat_id: 0,
		direct_messages_chat_id: 0,
		slow_mode_delay: chat.slowModeDelay ?? 0,
		// Not counted down here: `flood.ts` knows when each client sent last.
		slow_mode_delay_expires_in: 0,
		can_enable_paid_messages: false,
		can_enable_paid_reaction: false,
		can_get_members: chat.kind !== 'channel' || canRestrict(chat, viewerId),
		has_hidden_members: false,
		can_hide_members: false,
		can_set_sticker_set: false,
		can_set_location: false,
		can_get_statistics: false,
		can_get_revenue_statistics: false,
		can_get_star_revenue_statistics: false,
		can_send_gift: false,
		can_toggle_aggressive_anti_spam: false,
		is_all_history_available: true,
		can_have_sponsored_messages: false,
		has_aggressive_anti_spam_enabled: false,
		has_paid_media_allowed: false,
		has_pinned_stories: false,
		gift_count: 0,
		my_boost_count: 0,
		unrestrict_boost_count: 0,
		outgoing_paid_message_star_count: 0,
		sticker_set_id: '0',
		custom_emoji_sticker_set_id: '0',
		guard_bot_user_id: 0,
		bot_commands: [],
		upgraded_from_basic_group_id: 0,
		upgraded_from_max_message_id: 0,
	} as unknown as Td.supergroupFullInfo
}

export const slowModeHandlers: Handlers = {
	getSupergroupFullInfo(s, req) {
		const id = req.supergroup_id ?? 0
		if (id <= 0) fail('Invalid supergroup identifier')
		const chat = s.world.supergroupFor(s.userId, id) ?? fail('Supergroup not found')
		return supergroupFullInfo(chat, s.userId)
	},
	setChatSlowModeDelay(s, req) {
		const chat = requireChat(s, req.chat_id)
		if (chat.kind !== 'supergroup') fail('Chat is not a supergroup')
		const delay = req.slow_mode_delay ?? 0
		if (!DELAYS.has(delay)) fail('Invalid new value for slow mode delay')
		if (!canRestrict(chat, s.userId)) fail('CHAT_ADMIN_REQUIRED')
		const before = chat.slowModeDelay ?? 0
		if (before === delay) return OK
		chat.slowModeDelay = delay
		s.world.logEvent(chat, s.userId, {
			_: 'chatEventSlowModeDelayChanged',
			old_slow_mode_delay: before,
			new_slow_mode_delay: delay,
		})
		s.world.durable()
		// Every member's clients learn it, as TDLib tells a changed full info.
		s.world.notify(chat.members.keys(), (viewerId) => ({
			_: 'updateSupergroupFullInfo',
			supergroup_id: chat.groupId,
			supergroup_full_info: supergroupFullInfo(chat, viewerId),
		}))
		return OK
	},
}
