/**
 * The error strings the gateway itself writes into a `chat_update` (docs/protocol.md#frames-that-are-no-command),
 * word for word: the envelope checks, the connection's own frames, the limits and the runtime's
 * fixed answers. Written here once, beside the close reasons (close.ts); the gateway, the command
 * catalog, the userbot lifecycle's WebSocket face and the web console import them. Command groups
 * keep their own in their `errors.ts`.
 */
export const GatewayErrors = {
	INVALID_JSON: 'invalid JSON',
	NOT_AN_OBJECT: 'command must be a JSON object',
	ACTION_REQUIRED: 'action is required',
	UNKNOWN_ACTION: 'unknown action',
	USERBOT_ID_REQUIRED: 'userbot_id is required',
	USERBOT_ID_NOT_INTEGER: 'userbot_id must be an integer',
	USERBOT_NOT_FOUND: 'userbot not found',
	USERBOT_NOT_AUTHORIZED: 'userbot is not authorized',
	/** The `authenticate` frame (in-band renewal of a socket's credential). */
	ACCESS_REQUIRED: 'access is required',
	ACCESS_INVALID: 'access token is not valid',
	ACCESS_OTHER_USER: 'access token is for another user',
	/** `subscribe`: the kinds must be TDLib's update names; `after` a sequence number. */
	UPDATES_KINDS: 'updates must be a list of TDLib update names',
	AFTER_NOT_SEQ: 'after must be a whole number (a seq)',
	/** Objects and lists nested deeper than any command takes (MAX_FRAME_DEPTH). */
	TOO_DEEP: 'command is nested too deeply',
	/** More than MAX_IN_FLIGHT commands of one connection unanswered: this one is refused at once. */
	TOO_MANY_IN_FLIGHT: 'too many commands in flight',
	TIMEOUT: 'timeout',
	/** The supervisor died with the command pending; it restarts by itself. */
	RUNTIME_RESTARTED: 'userbot runtime restarted, try again',
	/** No Telegram backend is configured, or the userbot's client is not running (yet: restore at start). */
	RUNTIME_UNAVAILABLE: 'userbot runtime unavailable',
	/**
	 * The userbot's TDLib folder is still held by another process (the shard it moved from has not
	 * let go yet): its new owner starts it as soon as the other lets go (docs/shards.md#one-owner-per-account).
	 */
	RUNTIME_HELD_ELSEWHERE: 'userbot runtime unavailable, try again',
	/**
	 * The command needs an owner-only permission (its `permission`) that the owner has not granted
	 * this member.
	 */
	PERMISSION_DENIED: 'permission denied',
	/**
	 * Past the userbot's limit on tries at its 2FA password or codes (commands that declare
	 * `checksSecret`); `result.retry_after` says in how many seconds the window ends.
	 */
	TOO_MANY_GUESSES: 'too many password or code attempts, try again later',
	/** Anything unexpected: the details go to the log, never to the client. */
	INTERNAL: 'internal error',
	/** TDLib code 406: its message "must not be displayed" (docs/tdlib-mapping.md#conventions). */
	HIDDEN_TDLIB_ERROR: 'request failed',
} as const

/**
 * The `detail` of an HTTP refusal of the upgrade to `/ws` itself (the credential's refusals are the
 * auth core's, in the REST shape).
 */
export const UpgradeRefusals = {
	SHUTTING_DOWN: 'The server is shutting down.',
	NO_SERVER: 'WebSocket needs a running server.',
	NOT_AN_UPGRADE: 'Expected a WebSocket upgrade.',
} as const
