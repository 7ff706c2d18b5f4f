/**
 * The runner's command groups, by what a person wants to do rather than by the plugin that brings
 * a command. A command no line names (a plugin's own) goes under its plugin's group, said as such.
 */
const TOPICS: [topic: string, names: string[]][] = [
	[
		'Send and change messages',
		[
			'send_message',
			'reply_message',
			'forward_message',
			'edit_message',
			'delete_messages',
			'pin_message',
			'unpin_message',
			'set_reaction',
		],
	],
	[
		'Read chats and messages',
		[
			'get_chats',
			'get_chat',
			'search_chats',
			'get_chat_history',
			'get_message',
			'search_chat_messages',
			'search_messages',
			'view_messages',
			'read_chat',
		],
	],
	['Join and leave chats', ['join_chat', 'leave_chat']],
	[
		'People and contacts',
		[
			'get_me',
			'get_user',
			'get_contacts',
			'search_contacts',
			'import_contacts',
			'remove_contacts',
			'block_user',
			'unblock_user',
			'get_blocked_users',
		],
	],
	[
		'Group members',
		[
			'get_chat_members',
			'get_chat_recent_actions',
			'add_chat_member',
			'add_chat_members',
			'remove_chat_member',
			'restore_chat_member',
		],
	],
	[
		'Group admins and ownership',
		[
			'add_chat_administrator',
			'remove_chat_administrator',
			'transfer_chat_ownership',
			'get_transfer_ownership_state',
		],
	],
	[
		'Messages that delete themselves',
		[
			'get_default_message_auto_delete_time',
			'set_default_message_auto_delete_time',
			'set_chat_message_auto_delete_time',
		],
	],
	[
		'Devices and sessions',
		['get_active_sessions', 'terminate_session', 'terminate_all_other_sessions', 'set_session_settings'],
	],
	['Privacy', ['get_privacy_setting', 'get_privacy_settings', 'set_privacy_setting']],
	[
		'Password and account security',
		[
			'get_password_state',
			'verify_2fa_password',
			'change_2fa_password',
			'disable_2fa_password',
			'change_2fa_recovery_email',
			'check_recovery_email_address_code',
			'resend_recovery_email_address_code',
			'request_password_recovery',
			'check_password_recovery_code',
			'recover_password',
			'get_account_ttl',
			'set_account_ttl',
		],
	],
	[
		'Log-in steps (as the Userbots page takes them)',
		[
			'userbot_submit_phone',
			'userbot_submit_code',
			'userbot_submit_password',
			'userbot_register',
			'userbot_request_qr',
			'userbot_get_state',
		],
	],
	['The userbot card (rename, log out, restart)', ['userbot_rename', 'userbot_log_out', 'userbot_restart']],
]

const BY_NAME = new Map(TOPICS.flatMap(([topic, names]) => names.map((n) => [n, topic] as const)))
const ORDER = TOPICS.map(([topic]) => topic)

/** Invite links by their prefix: there are many of them. */
const topicOf = (name: string, group: string): string => {
	const known = BY_NAME.get(name)
	if (known) return known
	if (/invite_link|join_request/.test(name)) return 'Invite links and join requests'
	return `More commands (${group})`
}

export function groupCommands<T extends { name: string; group: string }>(commands: T[]): [string, T[]][] {
	const groups = new Map<string, T[]>()
	for (const c of commands) {
		const topic = topicOf(c.name, c.group)
		groups.set(topic, [...(groups.get(topic) ?? []), c])
	}
	const rank = (topic: string) => {
		const i = ORDER.indexOf(topic)
		return i === -1 ? (topic.startsWith('Invite') ? 5.5 : ORDER.length + 1) : i
	}
	return [...groups].sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
}

/** `send_message` → "Send message". */
export const commandLabel = (name: string) => {
	const words = name.replaceAll('_', ' ')
	return words.charAt(0).toUpperCase() + words.slice(1)
}
