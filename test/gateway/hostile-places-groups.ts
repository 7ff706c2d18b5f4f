import { SEED_CHATS } from '../../src/emulator'
import type { Place } from './hostile-places'

/**
 * The places for client objects of the sessions and privacy, members, and chat administration groups
 * (issue 7, item 1): the objects themselves, the lists of them, and values inside them. The security
 * group takes no TDLib object from a client (its fields are strings and integers).
 */

const SHOW_STATUS = 'userPrivacySettingShowStatus'
const PRIVACY_SETTINGS = [SHOW_STATUS, 'userPrivacySettingShowBio'] as const
const RULES = ['userPrivacySettingRuleAllowAll', 'userPrivacySettingRuleRestrictAll'] as const
const supergroup = { chat_id: SEED_CHATS.supergroup }
const ALICE = 1001

export const SESSIONS: Record<string, Place> = {
	'block_user block_list': {
		build: (h) => ({ action: 'block_user', user_id: ALICE, block_list: h }),
		fine: 'blockListStories',
		own: ['blockListMain', 'blockListStories'],
		names: true,
	},
	'get_blocked_users block_list': {
		build: (h) => ({ action: 'get_blocked_users', block_list: h }),
		fine: { '@type': 'blockListMain' },
		own: ['blockListMain', 'blockListStories'],
		names: true,
	},
	'get_privacy_setting setting': {
		build: (h) => ({ action: 'get_privacy_setting', setting: h }),
		fine: { '@type': SHOW_STATUS },
		own: PRIVACY_SETTINGS,
		names: true,
	},
	'get_privacy_setting setting, newChatPrivacySettings with fields': {
		build: (h) => ({
			action: 'get_privacy_setting',
			setting: { '@type': 'newChatPrivacySettings', allow_new_chats_from_unknown_users: h },
		}),
		fine: undefined,
	},
	'get_privacy_settings settings': {
		build: (h) => ({ action: 'get_privacy_settings', settings: h }),
		fine: SHOW_STATUS,
		own: PRIVACY_SETTINGS,
		names: true,
	},
	'get_privacy_settings settings item': {
		build: (h) => ({ action: 'get_privacy_settings', settings: ['userPrivacySettingShowBio', h] }),
		fine: { _: SHOW_STATUS },
		own: PRIVACY_SETTINGS,
		names: true,
	},
	'set_privacy_setting setting': {
		build: (h) => ({ action: 'set_privacy_setting', setting: h, mode: 'contacts' }),
		fine: SHOW_STATUS,
		own: PRIVACY_SETTINGS,
		names: true,
	},
	'set_privacy_setting setting with rules': {
		build: (h) => ({ action: 'set_privacy_setting', setting: h, rules: [{ '@type': RULES[0] }] }),
		fine: { '@type': SHOW_STATUS },
		own: ['newChatPrivacySettings', SHOW_STATUS],
		names: true,
	},
	'set_privacy_setting rules object': {
		build: (h) => ({ action: 'set_privacy_setting', setting: SHOW_STATUS, rules: h }),
		fine: { '@type': 'userPrivacySettingRules', rules: [{ '@type': RULES[0] }] },
		own: ['userPrivacySettingRules'],
	},
	'set_privacy_setting rules object, a rule': {
		build: (h) => ({
			action: 'set_privacy_setting',
			setting: SHOW_STATUS,
			rules: { '@type': 'userPrivacySettingRules', rules: [h] },
		}),
		fine: { '@type': RULES[1] },
		own: RULES,
	},
	'set_privacy_setting rules list': {
		build: (h) => ({
			action: 'set_privacy_setting',
			setting: SHOW_STATUS,
			rules: [{ '@type': RULES[0] }, h],
		}),
		fine: { _: RULES[1] },
		own: RULES,
	},
	'set_privacy_setting rules list, a rule’s user id': {
		build: (h) => ({
			action: 'set_privacy_setting',
			setting: SHOW_STATUS,
			rules: [{ '@type': 'userPrivacySettingRuleAllowUsers', user_ids: [h] }, { '@type': RULES[1] }],
		}),
		fine: ALICE,
	},
}

export const MEMBERS: Record<string, Place> = {
	'get_chat_members member_filter': {
		build: (h) => ({ action: 'get_chat_members', ...supergroup, member_filter: h }),
		fine: 'supergroupMembersFilterAdministrators',
		own: ['supergroupMembersFilterRecent', 'supergroupMembersFilterAdministrators'],
		names: true,
	},
	'get_chat_members member_filter, nested topic': {
		build: (h) => ({
			action: 'get_chat_members',
			...supergroup,
			member_filter: { '@type': 'supergroupMembersFilterMention', query: '', topic_id: h },
		}),
		fine: { '@type': 'messageTopicThread', message_thread_id: 1048576 },
		own: ['messageTopicThread', 'messageTopicForum'],
	},
	'get_chat_recent_actions event_filters': {
		build: (h) => ({ action: 'get_chat_recent_actions', ...supergroup, event_filters: h }),
		fine: { member_joins: true },
		own: ['chatEventLogFilters'],
	},
	'get_chat_recent_actions event_filters, a filter': {
		build: (h) => ({ action: 'get_chat_recent_actions', ...supergroup, event_filters: { member_joins: h } }),
		fine: true,
	},
}

export const CHAT_ADMIN: Record<string, Place> = {
	'add_chat_administrator rights': {
		build: (h) => ({ action: 'add_chat_administrator', ...supergroup, user_id: ALICE, rights: h }),
		fine: { can_invite_users: true },
		own: ['chatAdministratorRights'],
	},
	'add_chat_administrator rights, a right': {
		build: (h) => ({
			action: 'add_chat_administrator',
			...supergroup,
			user_id: ALICE,
			rights: { '@type': 'chatAdministratorRights', can_invite_users: h },
		}),
		fine: true,
	},
	'create_chat_subscription_invite_link subscription_pricing': {
		build: (h) => ({
			action: 'create_chat_subscription_invite_link',
			chat_id: SEED_CHATS.channel,
			subscription_pricing: h,
		}),
		fine: { period: 2592000, star_count: 10 },
		own: ['starSubscriptionPricing'],
	},
	'create_chat_subscription_invite_link subscription_pricing, period': {
		build: (h) => ({
			action: 'create_chat_subscription_invite_link',
			chat_id: SEED_CHATS.channel,
			subscription_pricing: { period: h, star_count: 10 },
		}),
		fine: 2592000,
	},
	'get_chat_join_requests offset_request': {
		build: (h) => ({
			action: 'get_chat_join_requests',
			...supergroup,
			invite_link: 'https://t.me/+AAAAAAAAAAAAAAAA',
			offset_request: h,
		}),
		fine: { '@type': 'chatJoinRequest', user_id: ALICE, date: 1, bio: '' },
		own: ['chatJoinRequest'],
	},
	'get_chat_join_requests offset_request, bio': {
		build: (h) => ({
			action: 'get_chat_join_requests',
			...supergroup,
			invite_link: 'https://t.me/+AAAAAAAAAAAAAAAA',
			offset_request: { user_id: ALICE, date: 1, bio: h },
		}),
		fine: '',
	},
	'get_chat_invite_link_members offset_member': {
		build: (h) => ({
			action: 'get_chat_invite_link_members',
			...supergroup,
			invite_link: 'https://t.me/+AAAAAAAAAAAAAAAA',
			offset_member: h,
		}),
		fine: { user_id: ALICE, joined_chat_date: 1 },
		own: ['chatInviteLinkMember'],
	},
	'get_chat_invite_link_members offset_member, joined_chat_date': {
		build: (h) => ({
			action: 'get_chat_invite_link_members',
			...supergroup,
			invite_link: 'https://t.me/+AAAAAAAAAAAAAAAA',
			offset_member: { '@type': 'chatInviteLinkMember', user_id: ALICE, joined_chat_date: h },
		}),
		fine: 1,
	},
}
