/**
 * The chats group's wire strings, in the fields helpers' style (`chat_id is required`); TDLib's
 * own failures pass through with TDLib's words.
 */

/** TDLib returns at most 100 messages a call (MAX_GET_HISTORY); the command asks no more. */
export const MAX_HISTORY_LIMIT = 100
/** get_chat_history asks TDLib at most this many times per command: a partial batch costs one more. */
export const MAX_HISTORY_CALLS = 10
/** get_chats assembles at most this many chats a page (one getChat each). */
export const MAX_CHATS_LIMIT = 100
export const DEFAULT_CHATS_LIMIT = 20
/** get_user_profile_photos: at most 100 a page, as the Bot API's getUserProfilePhotos. */
export const MAX_PROFILE_PHOTOS = 100

export const ChatsErrors = {
	CHAT_ID_REQUIRED: 'chat_id is required',
	USER_ID_REQUIRED: 'user_id is required',
	MESSAGE_ID_REQUIRED: 'message_id is required',
	MESSAGE_IDS_REQUIRED: 'message_ids is required',
	HISTORY_LIMIT_RANGE: `limit must be between 1 and ${MAX_HISTORY_LIMIT}`,
	CHATS_LIMIT_RANGE: `limit must be between 1 and ${MAX_CHATS_LIMIT}`,
	OFFSET_RANGE: 'offset must be between -99 and 0',
	OFFSET_NEGATIVE: 'offset must be non-negative',
	PHOTOS_LIMIT_RANGE: `limit must be between 1 and ${MAX_PROFILE_PHOTOS}`,
	CHAT_LIST: 'chat_list must be main, archive or a folder id',
	FILTER: 'filter must be one of photo, video, document, audio, animation, voice_note, photo_and_video',
	QUERY_REQUIRED: 'query is required',
	TYPE_FILTER: 'type_filter must be channel or bot',
	SEARCH_CHAT_LIST: 'chat_list must be main or archive',
	CHAT_TYPE: 'chat_type must be private, group or channel',
	SENDER_ID: 'sender_id must be a user id or a chat id, not 0',
	MIN_DATE_RANGE: 'min_date must be between 0 and 2147483647',
	MAX_DATE_RANGE: 'max_date must be between 0 and 2147483647',
	CHAT_ID_OR_USERNAME: 'chat_id or username is required',
	ACTION_REQUIRED: 'chat_action is required',
	ACTION_UNKNOWN:
		'chat_action must be one of typing, upload_photo, record_video, upload_video, record_voice, upload_voice, upload_document, choose_sticker, find_location, record_video_note, upload_video_note, cancel',
	USERNAME_UNKNOWN: 'no chat has this username',
	ONE_CHAT: 'only one of chat_id and username may be given',
	ONE_CHAT_TO_JOIN: 'only one of chat_id, username and invite_link may be given',
	MESSAGE_IDS_EMPTY: 'message_ids must not be empty',
	USER_IDS_REQUIRED: 'user_ids is required',
	USER_IDS_EMPTY: 'user_ids must not be empty',
	CONTACTS_REQUIRED: 'contacts is required',
	CONTACTS_EMPTY: 'contacts must not be empty',
	CONTACT_FIELDS: 'each of contacts needs a phone_number and a first_name',
} as const
