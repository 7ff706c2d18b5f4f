/**
 * The command channel's frames, as a client sees them (docs/protocol.md#envelopes): the wire module's
 * own types (src/common/wire/envelope.ts), not a copy. Browser-safe: nothing here imports the server.
 */

export type {
	ChatUpdate,
	RequestId,
	ResyncEvent,
	ServerMessage,
	UpdateEvent,
} from '../../../../src/common/wire/envelope'

/**
 * A subscription's filter (docs/live-updates.md#filters): only the updates it passes are sent. The
 * server checks it whole (its schema is src/server/updates/filter.ts, which this browser-safe module does
 * not import; test/client/update-filter.test.ts holds the two to one shape).
 */
export interface UpdateFilter {
	chat_ids?: number[]
	sender_ids?: number[]
	outgoing?: boolean
	/** Media kinds: `text`, `photo`, `video`, `voice`, ... (docs/live-updates.md#filters). */
	media?: string[]
	/** Whole words, any case. */
	contains?: string[]
	/** RE2 syntax, matched anywhere in the text or caption. */
	pattern?: string
}

/** Wire name → `{input, result}`: what `send` is typed by. */
export type CommandMap = Record<string, { input: unknown; result: unknown }>
