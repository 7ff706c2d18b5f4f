/**
 * The sessions and privacy group's wire strings. The first block is docs/protocol.md#error-strings word for
 * word; the second fills the gaps that table leaves (`<field> is required`, as
 * docs/tdlib-mapping.md#sessions-and-privacy recommends) and says what this service refuses on its own (ids
 * past int64, TDLib's limits on privacy rules).
 */

/**
 * TDLib's limits on the ids all the rules of one privacy setting may name
 * (docs/tdlib-mapping.md#sessions-and-privacy).
 */
export const MAX_RULE_USER_IDS = 1000
export const MAX_RULE_CHAT_IDS = 20
/**
 * Rules in one `rules` list, and entries in one `settings` list: TDLib has 11 kinds of rule and 15
 * settings, so a longer list is a mistake (each setting is one request; duplicates are read once).
 */
export const MAX_RULES = 100
export const MAX_SETTINGS = 100

export const SessionsErrors = {
	// docs/protocol.md#error-strings
	SESSION_ID_REQUIRED: 'session_id is required',
	CURRENT_SESSION: "current session can't be terminated via terminate_session",
	SESSION_FLAG_REQUIRED: 'at least one of can_accept_calls or can_accept_secret_chats is required',
	USER_ID_REQUIRED: 'user_id is required',
	BLOCK_LIST_TYPE: 'block_list must be a library block list type',
	UNSUPPORTED_PRIVACY_SETTING: 'unsupported privacy setting',
	FAILED_TO_GET_PRIVACY_SETTINGS: 'failed to get privacy settings',
	SETTINGS_TYPE: 'settings must be a list or string',
	MODE: 'mode must be one of: all, contacts, nobody',

	// Where the protocol's error table is silent
	SETTING_REQUIRED: 'setting is required',
	ALLOW_NEW_CHATS_REQUIRED: 'allow_new_chats_from_unknown_users is required',
	SESSION_ID_TYPE: 'session_id must be an integer',
	SESSION_ID_RANGE: 'session_id must be a 64-bit integer',
	/**
	 * Telegram's FRESH_RESET_AUTHORISATION_FORBIDDEN is a code-406 error, which TDLib says must not be
	 * shown as it is (the gateway would answer `request failed`): this says what it means.
	 */
	SESSION_TOO_NEW:
		'FRESH_RESET_AUTHORISATION_FORBIDDEN: a session logged in less than 24 hours ago cannot terminate other sessions',
	SETTINGS_TOO_MANY: `settings must contain at most ${MAX_SETTINGS} settings`,
	RULES_TYPE: 'rules must be a userPrivacySettingRules object or a list of rules',
	RULES_TOO_MANY: `rules must contain at most ${MAX_RULES} rules`,
	RULE_USER_IDS_TOO_MANY: `privacy rules may name at most ${MAX_RULE_USER_IDS} user ids in all`,
	RULE_CHAT_IDS_TOO_MANY: `privacy rules may name at most ${MAX_RULE_CHAT_IDS} chat ids in all`,
} as const
