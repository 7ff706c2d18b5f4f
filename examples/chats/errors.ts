/** The group's wire strings, word for word: the catalog lists them, the tests check them. */
export const ChatsErrors = {
	CHAT_ID_REQUIRED: 'chat_id is required',
	USERNAME_REQUIRED: 'username is required',
	INVITE_LINK_REQUIRED: 'invite_link is required',
	LIMIT_RANGE: 'limit must be between 1 and 1000',
	CHAT_LIST: 'chat_list must be chatListMain, chatListArchive or a chatListFolder',
} as const

/** TDLib answers at most this many chat ids; a larger limit is refused rather than cut. */
export const MAX_LIMIT = 1000
export const DEFAULT_LIMIT = 100
