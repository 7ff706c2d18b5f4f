/**
 * The protocol's commands (docs/protocol.md#the-protocols-commands) and its error table
 * (docs/protocol.md#error-strings) as data, for the catalog's test: each command's required and
 * optional fields as the protocol lists them, frames built from them (the protocol's own example values
 * where it names one: `blockListMain`, `userPrivacySettingShowStatus`, `newChatPrivacySettings`,
 * `supergroupMembersFilterRecent`, and each of its variants), and the strings of the error table.
 * Where docs/command-groups.md records a **Decision:** that departs from the protocol, `decided` says
 * which.
 */

export interface SpecCommand {
	required: readonly string[]
	optional: readonly string[]
	frames: ReadonlyArray<Record<string, unknown>>
	/**
	 * Required by a decision of docs/command-groups.md though the protocol calls it optional (frames carry it).
	 */
	decidedRequired?: readonly string[]
	/**
	 * Required by the protocol, optional or conditional in the schema by a decision of docs/command-groups.md.
	 */
	decidedOptional?: readonly string[]
}

const CHAT = -1000000003001
const MSG = 1048576
const LINK = 'https://t.me/+AbCdEfGhIjKlMnOp'

export const SPEC_COMMANDS: Record<string, SpecCommand> = {
	// Messages
	send_message: {
		required: ['chat_id'],
		// chat_id, or a phone or a username instead (a decision of docs/command-groups.md).
		decidedOptional: ['chat_id'],
		optional: [
			'text',
			'entities',
			'message_thread_id',
			'reply_to',
			'reply_to_message_id',
			'options',
			'reply_markup',
			'media',
			'media_type',
		],
		frames: [
			// A text message: chat_id and text, with optional entities, reply_to, options and reply_markup.
			{ chat_id: CHAT, text: 'Hello' },
			{
				chat_id: CHAT,
				text: 'Hi all',
				entities: [{ '@type': 'textEntity', offset: 0, length: 2, type: { '@type': 'textEntityTypeBold' } }],
				reply_to: { '@type': 'inputMessageReplyToMessage', message_id: MSG },
				options: { '@type': 'messageSendOptions', disable_notification: true },
				reply_markup: { '@type': 'replyMarkupRemoveKeyboard' },
			},
			{ chat_id: CHAT, text: 'In a thread', message_thread_id: MSG, reply_to_message_id: MSG },
			// A media message: chat_id and media (one or several), with optional media_type.
			{ chat_id: CHAT, media: { url: 'https://example.com/report.pdf' } },
			{
				chat_id: CHAT,
				media: [{ url: 'https://example.com/a.jpg' }, { url: 'https://example.com/b.jpg' }],
				media_type: 'photo',
			},
		],
	},
	delete_messages: {
		required: ['chat_id', 'message_ids'],
		optional: ['revoke'],
		frames: [
			{ chat_id: CHAT, message_ids: [MSG] },
			{ chat_id: CHAT, message_ids: [MSG], revoke: false },
		],
	},
	forward_message: {
		required: ['to_chat_ids', 'from_chat_id', 'message_ids'],
		optional: ['send_copy', 'remove_caption', 'new_caption', 'show_caption_above_media'],
		frames: [
			{ to_chat_ids: [1001], from_chat_id: CHAT, message_ids: [MSG] },
			{
				to_chat_ids: [1001, CHAT],
				from_chat_id: CHAT,
				message_ids: [MSG],
				send_copy: true,
				remove_caption: false,
				new_caption: 'Copied',
				show_caption_above_media: false,
			},
		],
	},
	reply_message: {
		required: ['chat_id'],
		optional: ['reply_to_message_id', 'text'],
		frames: [{ chat_id: CHAT, reply_to_message_id: MSG, text: 'Agreed' }],
	},
	edit_message: {
		required: ['chat_id', 'message_id'],
		optional: ['text'],
		frames: [{ chat_id: CHAT, message_id: MSG, text: 'Edited' }],
	},
	pin_message: {
		required: ['chat_id', 'message_id'],
		optional: ['disable_notification', 'only_for_self'],
		frames: [
			{ chat_id: CHAT, message_id: MSG },
			{ chat_id: CHAT, message_id: MSG, disable_notification: false, only_for_self: false },
		],
	},
	unpin_message: {
		required: ['chat_id', 'message_id'],
		optional: [],
		// message_id, or every pinned message with `all: true` (a decision of docs/command-groups.md).
		decidedOptional: ['message_id'],
		frames: [{ chat_id: CHAT, message_id: MSG }],
	},
	set_reaction: {
		required: ['chat_id', 'message_id', 'reaction'],
		optional: ['is_big', 'add_to_recent'],
		frames: [
			// An object, or an array of objects, each carrying an @type discriminator.
			{ chat_id: CHAT, message_id: MSG, reaction: { '@type': 'reactionTypeEmoji', emoji: '👍' } },
			{
				chat_id: CHAT,
				message_id: MSG,
				reaction: [{ '@type': 'reactionTypeEmoji', emoji: '🔥' }],
				is_big: false,
				add_to_recent: true,
			},
		],
	},
	get_default_message_auto_delete_time: { required: [], optional: [], frames: [{}] },
	set_default_message_auto_delete_time: {
		required: [],
		optional: ['message_auto_delete_time'],
		frames: [{}, { message_auto_delete_time: 86400 }],
	},
	set_chat_message_auto_delete_time: {
		required: ['chat_id'],
		optional: ['message_auto_delete_time'],
		frames: [{ chat_id: CHAT }, { chat_id: CHAT, message_auto_delete_time: 604800 }],
	},

	// Sessions and privacy
	get_active_sessions: { required: [], optional: [], frames: [{}] },
	terminate_all_other_sessions: { required: [], optional: [], frames: [{}] },
	terminate_session: { required: ['session_id'], optional: [], frames: [{ session_id: 1234567890 }] },
	set_session_settings: {
		required: ['session_id'],
		optional: ['can_accept_calls', 'can_accept_secret_chats'],
		// At least one of the two flags.
		frames: [
			{ session_id: 1234567890, can_accept_calls: true },
			{ session_id: 1234567890, can_accept_secret_chats: false },
		],
	},
	block_user: {
		required: ['user_id'],
		optional: ['is_blocked', 'block_list'],
		frames: [
			{ user_id: 1004 },
			{ user_id: 1004, is_blocked: true, block_list: 'blockListMain' },
			{ user_id: 1004, block_list: { '@type': 'blockListMain' } },
		],
	},
	unblock_user: { required: ['user_id'], optional: [], frames: [{ user_id: 1004 }] },
	get_blocked_users: {
		required: [],
		optional: ['block_list', 'offset', 'limit'],
		frames: [{}, { block_list: 'blockListMain', offset: 0, limit: 50 }],
	},
	get_privacy_setting: {
		required: ['setting'],
		optional: [],
		frames: [
			{ setting: 'userPrivacySettingShowStatus' },
			{ setting: { '@type': 'userPrivacySettingShowStatus' } },
		],
	},
	get_privacy_settings: {
		required: [],
		optional: ['settings'],
		frames: [
			{},
			{ settings: ['userPrivacySettingShowStatus', 'newChatPrivacySettings'] },
			{ settings: [{ '@type': 'userPrivacySettingShowStatus' }] },
			// A single string is also accepted.
			{ settings: 'userPrivacySettingShowStatus' },
		],
	},
	set_privacy_setting: {
		required: ['setting'],
		optional: [
			'mode',
			'allow_user_ids',
			'restrict_user_ids',
			'allow_chat_ids',
			'restrict_chat_ids',
			'allow_premium_users',
			'rules',
			'allow_new_chats_from_unknown_users',
		],
		frames: [
			// setting, mode and optional allow/restrict ids: user privacy rules.
			{
				setting: 'userPrivacySettingShowStatus',
				mode: 'contacts',
				allow_user_ids: [1001],
				restrict_user_ids: [1004],
				allow_chat_ids: [CHAT],
				restrict_chat_ids: [],
				allow_premium_users: false,
			},
			{ setting: 'userPrivacySettingShowStatus', mode: 'nobody' },
			// setting and rules: raw rules, an object or an array of rule objects.
			{
				setting: 'userPrivacySettingShowStatus',
				rules: {
					'@type': 'userPrivacySettingRules',
					rules: [{ '@type': 'userPrivacySettingRuleAllowContacts' }],
				},
			},
			{ setting: 'userPrivacySettingShowStatus', rules: [{ '@type': 'userPrivacySettingRuleAllowAll' }] },
			// newChatPrivacySettings with allow_new_chats_from_unknown_users.
			{ setting: 'newChatPrivacySettings', allow_new_chats_from_unknown_users: true },
		],
	},

	// Security and two-factor authentication
	get_password_state: { required: [], optional: [], frames: [{}] },
	get_account_ttl: { required: [], optional: [], frames: [{}] },
	request_password_recovery: { required: [], optional: [], frames: [{}] },
	get_transfer_ownership_state: { required: [], optional: [], frames: [{}] },
	set_account_ttl: { required: ['days'], optional: [], frames: [{ days: 30 }, { days: 730 }] },
	check_password_recovery_code: {
		required: ['recovery_code'],
		optional: [],
		frames: [{ recovery_code: '12345' }],
	},
	recover_password: {
		required: ['recovery_code'],
		optional: ['new_password', 'new_hint'],
		frames: [{ recovery_code: '12345', new_password: 'a new secret', new_hint: 'the usual' }],
	},
	verify_2fa_password: { required: ['password'], optional: [], frames: [{ password: 'secret-2fa' }] },
	change_2fa_password: {
		required: ['current_password'],
		optional: ['new_password', 'new_hint', 'set_recovery_email_address', 'new_recovery_email_address'],
		frames: [
			{ current_password: 'secret-2fa', new_password: 'another secret', new_hint: 'the other one' },
			{
				current_password: 'secret-2fa',
				new_password: 'another secret',
				set_recovery_email_address: true,
				new_recovery_email_address: 'me@example.com',
			},
		],
	},
	disable_2fa_password: {
		required: ['current_password'],
		optional: [],
		frames: [{ current_password: 'secret-2fa' }],
	},
	change_2fa_recovery_email: {
		required: ['current_password', 'new_recovery_email_address'],
		optional: [],
		frames: [{ current_password: 'secret-2fa', new_recovery_email_address: 'me@example.com' }],
	},

	// Members
	get_chat_members: {
		required: ['chat_id'],
		optional: ['limit', 'offset', 'query', 'member_filter'],
		frames: [
			{ chat_id: CHAT },
			{ chat_id: CHAT, limit: 50, offset: 0, query: 'bo', member_filter: 'supergroupMembersFilterRecent' },
			{ chat_id: CHAT, member_filter: { '@type': 'supergroupMembersFilterRecent' } },
		],
	},
	get_chat_recent_actions: {
		required: ['chat_id'],
		optional: ['query', 'limit', 'event_filters'],
		frames: [
			{ chat_id: CHAT },
			{
				chat_id: CHAT,
				query: '',
				limit: 50,
				event_filters: { '@type': 'chatEventLogFilters', member_joins: true, member_promotions: true },
			},
		],
	},
	add_chat_member: {
		required: ['chat_id', 'user_id'],
		optional: ['forward_limit'],
		frames: [
			{ chat_id: CHAT, user_id: 1004 },
			{ chat_id: CHAT, user_id: 1004, forward_limit: 0 },
		],
	},
	add_chat_members: {
		required: ['chat_id', 'user_ids'],
		optional: [],
		frames: [{ chat_id: CHAT, user_ids: [1004, 1005] }],
	},
	remove_chat_member: {
		required: ['chat_id', 'user_id'],
		optional: ['revoke_messages'],
		frames: [
			{ chat_id: CHAT, user_id: 1005 },
			{ chat_id: CHAT, user_id: 1005, revoke_messages: false },
		],
	},
	restore_chat_member: {
		required: ['chat_id', 'user_id'],
		optional: [],
		frames: [{ chat_id: CHAT, user_id: 1005 }],
	},

	// Chat administration and invites
	add_chat_administrator: {
		required: ['chat_id', 'user_id'],
		optional: ['custom_title', 'rights', 'is_anonymous', 'can_be_edited'],
		frames: [
			{ chat_id: CHAT, user_id: 1003 },
			{
				chat_id: CHAT,
				user_id: 1003,
				custom_title: 'moderator',
				rights: { '@type': 'chatAdministratorRights', can_pin_messages: true },
				is_anonymous: false,
				can_be_edited: true,
			},
		],
	},
	remove_chat_administrator: {
		required: ['chat_id', 'user_id'],
		optional: [],
		frames: [{ chat_id: CHAT, user_id: 1001 }],
	},
	transfer_chat_ownership: {
		required: ['chat_id', 'user_id', 'password'],
		optional: [],
		frames: [{ chat_id: CHAT, user_id: 1001, password: 'secret-2fa' }],
	},
	get_chat_invite_links: {
		required: ['chat_id', 'creator_user_id'],
		optional: ['is_revoked', 'offset_date', 'offset_invite_link', 'limit'],
		frames: [
			{ chat_id: CHAT, creator_user_id: 1002 },
			{
				chat_id: CHAT,
				creator_user_id: 1002,
				is_revoked: false,
				offset_date: 0,
				offset_invite_link: '',
				limit: 50,
			},
		],
	},
	create_chat_invite_link: {
		required: ['chat_id'],
		optional: ['name', 'expiration_date', 'member_limit', 'creates_join_request'],
		frames: [
			{ chat_id: CHAT },
			{ chat_id: CHAT, name: 'partners', expiration_date: 0, member_limit: 0, creates_join_request: false },
		],
	},
	create_chat_subscription_invite_link: {
		required: ['chat_id'],
		optional: ['name', 'subscription_pricing'],
		decidedRequired: ['subscription_pricing'],
		frames: [{ chat_id: CHAT, name: 'premium', subscription_pricing: { period: 2592000, star_count: 100 } }],
	},
	edit_chat_subscription_invite_link: {
		required: ['chat_id', 'invite_link'],
		optional: ['name'],
		frames: [
			{ chat_id: CHAT, invite_link: LINK },
			{ chat_id: CHAT, invite_link: LINK, name: 'vip' },
		],
	},
	edit_chat_invite_link: {
		required: ['chat_id', 'invite_link'],
		optional: ['name', 'expiration_date', 'member_limit', 'creates_join_request'],
		frames: [
			{ chat_id: CHAT, invite_link: LINK },
			{
				chat_id: CHAT,
				invite_link: LINK,
				name: 'partners',
				expiration_date: 0,
				member_limit: 0,
				creates_join_request: false,
			},
		],
	},
	revoke_chat_invite_link: {
		required: ['chat_id', 'invite_link'],
		optional: [],
		frames: [{ chat_id: CHAT, invite_link: LINK }],
	},
	delete_revoked_chat_invite_link: {
		required: ['chat_id', 'invite_link'],
		optional: [],
		frames: [{ chat_id: CHAT, invite_link: LINK }],
	},
	replace_primary_chat_invite_link: { required: ['chat_id'], optional: [], frames: [{ chat_id: CHAT }] },
	delete_all_revoked_chat_invite_links: {
		required: ['chat_id', 'creator_user_id'],
		optional: [],
		frames: [{ chat_id: CHAT, creator_user_id: 1002 }],
	},
	get_chat_join_requests: {
		required: ['chat_id', 'invite_link'],
		optional: ['query', 'offset_request', 'limit'],
		// invite_link, or every link's requests with an explicit `all: true` (a decision of
		// docs/command-groups.md).
		decidedOptional: ['invite_link'],
		frames: [
			{ chat_id: CHAT, invite_link: LINK },
			{
				chat_id: CHAT,
				invite_link: LINK,
				query: '',
				offset_request: { '@type': 'chatJoinRequest', user_id: 1004, date: 1700000000, bio: '' },
				limit: 50,
			},
		],
	},
	get_chat_invite_link_members: {
		required: ['chat_id', 'invite_link'],
		optional: ['only_with_expired_subscription', 'offset_member', 'limit'],
		frames: [
			{ chat_id: CHAT, invite_link: LINK },
			{
				chat_id: CHAT,
				invite_link: LINK,
				only_with_expired_subscription: false,
				offset_member: {
					'@type': 'chatInviteLinkMember',
					user_id: 1004,
					joined_chat_date: 1700000000,
					via_chat_folder_invite_link: false,
					approver_user_id: 0,
				},
				limit: 50,
			},
		],
	},
	process_chat_join_request: {
		required: ['chat_id', 'user_id'],
		optional: ['approve'],
		frames: [
			{ chat_id: CHAT, user_id: 1004 },
			{ chat_id: CHAT, user_id: 1004, approve: false },
		],
	},
	process_chat_join_requests: {
		required: ['chat_id', 'invite_link'],
		optional: ['approve'],
		// invite_link, or every request of the chat with an explicit `all: true` (a decision of
		// docs/command-groups.md).
		decidedOptional: ['invite_link'],
		frames: [
			{ chat_id: CHAT, invite_link: LINK },
			{ chat_id: CHAT, invite_link: LINK, approve: true },
		],
	},
}

/** The error table (docs/protocol.md#error-strings): the error strings the service produces, by command. */
export const SPEC_ERRORS: ReadonlyArray<readonly [commands: string, error: string]> = [
	['send_message', 'chat_id is required'],
	['send_message', 'media must be an object'],
	['forward_message', 'to_chat_ids is required'],
	['forward_message', 'message_ids is required'],
	['forward_message', 'to_chat_ids must contain at least one chat id'],
	['forward_message', 'message_ids must contain at least one message id'],
	['forward_message', 'from_chat_id is required'],
	['set_reaction', 'chat_id and message_id are required'],
	['set_reaction', 'reaction is required'],
	['set_reaction', 'reaction must contain at least one valid reaction item'],
	['terminate_session', 'session_id is required'],
	['terminate_session', "current session can't be terminated via terminate_session"],
	['set_session_settings', 'session_id is required'],
	['set_session_settings', 'at least one of can_accept_calls or can_accept_secret_chats is required'],
	['block_user', 'user_id is required'],
	['block_user, get_blocked_users', 'block_list must be a library block list type'],
	['get_privacy_setting, set_privacy_setting', 'unsupported privacy setting'],
	['get_privacy_settings', 'failed to get privacy settings'],
	['get_privacy_settings', 'settings must be a list or string'],
	['set_privacy_setting', 'mode must be one of: all, contacts, nobody'],
	['set_account_ttl', 'days is required'],
	['set_account_ttl', 'days must be between 30 and 730'],
	['check_password_recovery_code, recover_password', 'recovery_code is required'],
	['verify_2fa_password', 'password is required'],
	['change_2fa_password, disable_2fa_password, change_2fa_recovery_email', 'current_password is required'],
	['change_2fa_recovery_email', 'new_recovery_email_address is required'],
	['transfer_chat_ownership', 'password is required'],
	['get_chat_members', 'chat_id is required'],
	['get_chat_members', 'supergroup_id is required'],
	['get_chat_members', 'basic_group_id is required'],
	['get_chat_members', 'basic group info api is not configured'],
	['get_chat_members', 'user_id is required for private chat'],
	['get_chat_recent_actions', 'chat_id is required'],
	['get_chat_recent_actions', 'Recent actions are available only for channels and supergroups'],
	['add_chat_member', 'chat_id is required'],
	['add_chat_member', 'user_id is required'],
	['add_chat_members', 'chat_id is required'],
	['add_chat_members', 'user_ids must be a list'],
	['add_chat_members', 'user_ids is required'],
	['add_chat_administrator', 'Adding administrators is supported only for channels/groups'],
	['remove_chat_administrator', 'Removing administrators is supported only for channels/groups'],
	['create_chat_subscription_invite_link', 'subscription_pricing.period is required'],
	['create_chat_subscription_invite_link', 'subscription_pricing.star_count is required'],
	[
		'get_chat_invite_links, create_chat_invite_link, create_chat_subscription_invite_link, edit_chat_subscription_invite_link, edit_chat_invite_link, revoke_chat_invite_link, replace_primary_chat_invite_link, delete_revoked_chat_invite_link, delete_all_revoked_chat_invite_links, get_chat_join_requests, get_chat_invite_link_members, process_chat_join_request, process_chat_join_requests',
		'chat_id is required',
	],
	[
		'edit_chat_subscription_invite_link, edit_chat_invite_link, revoke_chat_invite_link, delete_revoked_chat_invite_link, get_chat_invite_link_members',
		'invite_link is required',
	],
	['process_chat_join_request', 'user_id is required'],
]
