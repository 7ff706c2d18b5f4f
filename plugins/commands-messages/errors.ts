/**
 * The messages group's wire strings. The first block is docs/protocol.md#error-strings word for word; the
 * second fills the gaps that table leaves (docs/tdlib-mapping.md#messages recommends `chat_id is required`
 * and the like for the commands where the table is silent) and the media rules of
 * docs/protocol.md#media-in-a-command.
 */
import { MAX_WAIT_SECONDS } from 'userbot-gateway/plugin'

/** TDLib's own per-call limit on message ids (`forwardMessages`: "Too many messages to forward"). */
export const MAX_MESSAGE_IDS = 100
/**
 * forward_message targets. Each is at least one TDLib request, made one after another (never all at
 * once) until the command's deadline; 100 chats is already more than Telegram's flood limits let an
 * account forward to in one go, and bounds a frame's work at 100 (or, with `new_caption`,
 * MAX_CAPTIONED_COPIES) requests.
 */
export const MAX_TO_CHAT_IDS = 100
/** set_reaction items, one `addMessageReaction` each; Premium accounts hold at most a few reactions. */
export const MAX_REACTIONS = 10
/**
 * With `new_caption` every message is copied to every target by its own request: targets × messages
 * is capped as one forwardMessages call is, so a frame never costs more than 100 copies.
 */
export const MAX_CAPTIONED_COPIES = 100

export const MessagesErrors = {
	// docs/protocol.md#error-strings
	CHAT_ID_REQUIRED: 'chat_id is required',
	MEDIA_MUST_BE_OBJECT: 'media must be an object',
	TO_CHAT_IDS_REQUIRED: 'to_chat_ids is required',
	MESSAGE_IDS_REQUIRED: 'message_ids is required',
	TO_CHAT_IDS_EMPTY: 'to_chat_ids must contain at least one chat id',
	MESSAGE_IDS_EMPTY: 'message_ids must contain at least one message id',
	FROM_CHAT_ID_REQUIRED: 'from_chat_id is required',
	CHAT_AND_MESSAGE_ID_REQUIRED: 'chat_id and message_id are required',
	REACTION_REQUIRED: 'reaction is required',
	NO_VALID_REACTION: 'reaction must contain at least one valid reaction item',

	// Where the protocol's error table is silent
	MESSAGE_ID_REQUIRED: 'message_id is required',
	/** Never a path on the server's disk (docs/protocol.md#media-in-a-command). */
	MEDIA_SOURCE: 'media must be a URL, a remote file id or an uploaded file',
	MEDIA_FILE_REQUIRED: 'media file is required',
	UPLOAD_NOT_FOUND: 'uploaded file not found',
	MEDIA_TYPE_UNSUPPORTED:
		'media_type must be one of: photo, video, document, audio, animation, voice, voice_note, video_note, sticker',
	ALBUM_TOO_LARGE: 'media must contain at most 10 items',
	ALBUM_MEDIA_TYPE: 'an album may contain only photo, video, document and audio',
	/** The caps on lists (`MessagesLimits`): one frame, a bounded number of TDLib requests. */
	MESSAGE_IDS_TOO_MANY: `message_ids must contain at most ${MAX_MESSAGE_IDS} message ids`,
	TO_CHAT_IDS_TOO_MANY: `to_chat_ids must contain at most ${MAX_TO_CHAT_IDS} chat ids`,
	REACTION_TOO_MANY: `reaction must contain at most ${MAX_REACTIONS} reaction items`,
	CAPTIONED_COPIES_TOO_MANY: `with new_caption, to_chat_ids × message_ids must be at most ${MAX_CAPTIONED_COPIES}`,
	TOPIC_ID_TYPE: 'topic_id must be a messageTopicThread, messageTopicForum or messageTopicDirectMessages',
	/** parse_mode (parse-mode.ts): TDLib's parser reads a plain string, and the entities are its answer. */
	PARSE_MODE: 'parse_mode must be one of: HTML, MarkdownV2, Markdown',
	PARSE_MODE_TEXT: 'with parse_mode, the text must be a string',
	PARSE_MODE_ENTITIES: "entities can't be used with parse_mode",
	/** edit_message: a message's text or its caption, not both. */
	TEXT_OR_CAPTION: 'text and caption can not be edited together',
	/** unpin_message: one message, or `all` of them. */
	UNPIN_WHAT: 'message_id and all can not be used together',
	/** send_message's recipient (recipient.ts, docs/command-groups.md#reaching-a-person). */
	ONE_RECIPIENT: 'only one of chat_id, phone and username may be given',
	PHONE_INVALID: 'phone must be a phone number',
	USERNAME_INVALID: 'username must be a Telegram username',
	PHONE_NOT_ON_TELEGRAM: 'no Telegram account has this phone number',
	USERNAME_UNKNOWN: 'no chat has this username',
	/** wait_for_message, send_and_wait (message-waits.ts): nothing matched within `timeout_s`. */
	TIMED_OUT: 'timed out',
	TIMEOUT_S_RANGE: `timeout_s must be between 1 and ${MAX_WAIT_SECONDS}`,
} as const
