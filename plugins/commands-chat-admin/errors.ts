/**
 * The chat administration and invites group's wire strings. The first block is ws-commands §7 word
 * for word; the second fills the gaps §7 leaves (`<field> is required`, as tdlib-mapping §5 recommends).
 */
export const ChatAdminErrors = {
	// ws-commands §7
	CHAT_ID_REQUIRED: 'chat_id is required',
	INVITE_LINK_REQUIRED: 'invite_link is required',
	USER_ID_REQUIRED: 'user_id is required',
	PASSWORD_REQUIRED: 'password is required',
	ADD_ADMIN_CHAT_KIND: 'Adding administrators is supported only for channels/groups',
	REMOVE_ADMIN_CHAT_KIND: 'Removing administrators is supported only for channels/groups',
	PRICING_PERIOD_REQUIRED: 'subscription_pricing.period is required',
	PRICING_STAR_COUNT_REQUIRED: 'subscription_pricing.star_count is required',

	// Where §7 is silent
	CREATOR_USER_ID_REQUIRED: 'creator_user_id is required',
	/** process_chat_join_requests: every request of the chat (`all: true`) or those of one link, not both. */
	INVITE_LINK_WITH_ALL: 'invite_link and all: true cannot be used together',
} as const
