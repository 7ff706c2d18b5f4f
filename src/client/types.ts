/**
 * The command channel's frames, as a client sees them (docs/protocol.md#envelopes): the wire module's
 * own types (src/wire/envelope.ts), not a copy. Browser-safe: nothing here imports the server.
 */

export type { ChatUpdate, RequestId, ResyncEvent, ServerMessage, UpdateEvent } from '../wire/envelope'

/** Wire name → `{input, result}`: what `send` is typed by. */
export type CommandMap = Record<string, { input: unknown; result: unknown }>
