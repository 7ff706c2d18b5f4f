/**
 * The chat administration and invites group's wire strings. The first block is docs/protocol.md#error-strings
 * word for word; the second fills the gaps that table leaves (`<field> is required`, as
 * docs/tdlib-mapping.md#chat-administration-and-invites recommends).
 */
export const ChatAdminErrors = {
	// docs/protocol.md#error-strings
	CHAT_ID_REQUIRED: 'chat_id is required',
	INVITE_LINK_REQUIRED: 'invite_link is required',
	USER_ID_REQUIRED: 'user_id is required',
	PASSWORD_REQUIRED: 'password is required',
	ADD_ADMIN_CHAT_KIND: 'Adding administrators is supported only for channels/groups',
	REMOVE_ADMIN_CHAT_KIND: 'Removing administrators is supported only for channels/groups',
	PRICING_PERIOD_REQUIRED: 'subscription_pricing.period is required',
	PRICING_STAR_COUNT_REQUIRED: 'subscription_pricing.star_count is required',

	// Where the protocol's error table is silent
	CREATOR_USER_ID_REQUIRED: 'creator_user_id is required',
	/** process_chat_join_requests: every request of the chat (`all: true`) or those of one link, not both. */
	INVITE_LINK_WITH_ALL: 'invite_link and all: true cannot be used together',

	// Administrators (administrators.ts), where the protocol's error table is silent
	PASSWORD_NOT_STRING: 'password must be a string',
	PASSWORD_NOT_TEXT: 'password must be valid Unicode text',
	/**
	 * Rights that grant nothing would make TDLib demote (or add) the user instead
	 * (docs/tdlib-mapping.md#chat-administration-and-invites).
	 */
	RIGHTS_EMPTY: 'rights must grant at least one right that applies to the chat',
	/** A member tag (1.8.65's custom title) is 0-16 characters. */
	CUSTOM_TITLE_TOO_LONG: 'custom_title must be at most 16 characters',
	/** Tags are for basic groups and supergroups: checked before the promotion, so nothing is half done. */
	CUSTOM_TITLE_IN_CHANNEL: 'custom_title can be set in groups only, not in channels',
	/** The promotion went through, setChatMemberTag did not. */
	titleNotSet: (reason: string) => `administrator promoted, but custom_title was not set: ${reason}`,
	NOT_AN_ADMINISTRATOR: 'user is not an administrator of the chat',
	OWNER_NOT_REMOVABLE: "the chat owner can't be removed from administrators",
} as const
