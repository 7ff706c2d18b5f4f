/**
 * The command channel's limits a client meets (docs/protocol.md#limits-and-defaults): past each, the
 * server answers with a refusal or a close, never a crash.
 */

/** A frame over 1 MiB closes the connection with 1009, `message too big`. */
export const MAX_FRAME_BYTES = 1024 * 1024

/** Commands one connection may have running at once; one more is refused at once. */
export const MAX_IN_FLIGHT = 256

/**
 * Frame characters one connection's running commands may hold, together: 8 frames of the largest
 * size. Without it 256 frames of 1 MiB each, kept until their slow answers, would hold 256 MiB per
 * socket; past it a command is refused at once, as one over MAX_IN_FLIGHT is.
 */
export const MAX_IN_FLIGHT_CHARS = 8 * 1024 * 1024

/**
 * Objects and lists nested in one frame, at most. A client's TDLib object may nest 16 deep under its
 * field (src/server/commands/td-objects.ts); nothing a command takes goes further. Deeper frames are refused
 * before anything walks them (a 5,000-level value once overflowed a stack inside a command).
 */
export const MAX_FRAME_DEPTH = 32

/** At most this many kinds in one subscription (TDLib has fewer than 200). */
export const MAX_UPDATE_KINDS = 200

/**
 * The longest a command may wait for Telegram beyond the ordinary allowance (`timeout_s` of
 * wait_for_message and send_and_wait), in seconds.
 */
export const MAX_WAIT_SECONDS = 300
