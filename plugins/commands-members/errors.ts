/**
 * The members group's wire strings. The first block is docs/protocol.md#error-strings word for word (its cell
 * `chat_id is required; user_id is required` is two strings, as docs/tdlib-mapping.md#members reads it); the
 * second fills the gaps that table leaves.
 */

/**
 * add_chat_members: one frame adds at most this many users. Supergroups take them 20 a call (5
 * calls), basic groups one a call (100 calls, one after another); a basic group holds 200 at most.
 */
export const MAX_USER_IDS = 100
/**
 * addChatMembers takes at most 20 users a call in a supergroup (docs/tdlib-mapping.md#members); channels take
 * the same.
 */
export const ADD_CHUNK = 20
/** TDLib clamps a member list's limit to 200 (MAX_GET_CHANNEL_PARTICIPANTS); the service does the same everywhere. */
export const MAX_MEMBERS_LIMIT = 200

export const MembersErrors = {
	// docs/protocol.md#error-strings
	CHAT_ID_REQUIRED: 'chat_id is required',
	USER_ID_REQUIRED: 'user_id is required',
	SUPERGROUP_ID_REQUIRED: 'supergroup_id is required',
	BASIC_GROUP_ID_REQUIRED: 'basic_group_id is required',
	BASIC_GROUP_INFO_UNAVAILABLE: 'basic group info api is not configured',
	PRIVATE_CHAT_USER_ID_REQUIRED: 'user_id is required for private chat',
	RECENT_ACTIONS_CHAT_KIND: 'Recent actions are available only for channels and supergroups',
	USER_IDS_NOT_LIST: 'user_ids must be a list',
	USER_IDS_REQUIRED: 'user_ids is required',

	// Where the protocol's error table is silent
	USER_IDS_NOT_INTEGERS: 'user_ids must be a list of integers',
	USER_IDS_EMPTY: 'user_ids must contain at least one user id',
	USER_IDS_TOO_MANY: `user_ids must contain at most ${MAX_USER_IDS} user ids`,
	/** TDLib's own words for a supergroup; every chat kind answers them alike. */
	LIMIT_NOT_POSITIVE: 'Parameter limit must be positive',
	OFFSET_NEGATIVE: 'Parameter offset must be non-negative',
	/** ban_chat_member, restrict_chat_member. */
	UNTIL_DATE_RANGE: 'until_date must be between 0 and 2147483647',
	PERMISSIONS_REQUIRED: 'permissions is required',
	/** add_chat_member: TDLib's answer listed the user in `failed_to_add_members` (their privacy settings). */
	failedToAdd: (userId: number) => `failed to add user ${userId}`,
	/** remove_chat_member: the kick went through, the deletion of their messages did not. */
	messagesNotDeleted: (reason: string) => `member removed, but their messages were not deleted: ${reason}`,
} as const
