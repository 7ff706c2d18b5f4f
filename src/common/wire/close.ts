/**
 * How the server ends a WebSocket: the close code and the reason it gives, word for word
 * (docs/protocol.md#close-codes). A client acts on the code; the reason says which case it was.
 */

/** The server is stopping: sent once the socket's running commands are answered. */
export const CLOSE_GOING_AWAY = 1001
export const REASON_SHUTTING_DOWN = 'server shutting down'

/** The socket's credential was revoked, or expired without being renewed. */
export const CLOSE_POLICY = 1008
export const REASON_REVOKED = 'credentials revoked'
export const REASON_EXPIRED = 'credentials expired'

/**
 * A text frame whose bytes are not UTF-8 (RFC 6455 §8.1): closed by Bun's WebSocket server itself,
 * with its own reason, before the gateway sees the frame. Never sent by the gateway's code.
 */
export const CLOSE_INVALID_UTF8 = 1007
export const REASON_INVALID_UTF8 = 'Received invalid UTF-8'

/** A frame over MAX_FRAME_BYTES. */
export const CLOSE_TOO_BIG = 1009
export const REASON_TOO_BIG = 'message too big'

/** The client does not read its replies: more than its budget waits for it. */
export const CLOSE_SLOW_CONSUMER = 1013
export const REASON_SLOW_CONSUMER = 'reply buffer full: the client does not read its replies'
