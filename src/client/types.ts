/**
 * The command channel's frames, as a client sees them (docs/protocol.md#envelopes).
 * Browser-safe: nothing here imports the server.
 */

export type RequestId = string | number

/**
 * Every reply and pushed event of a command (and of `authenticate`, `subscribe`...). `userbot_id` is
 * left out where the frame named no usable userbot (and in the connection's own `authenticate`).
 */
export interface ChatUpdate {
	type: 'chat_update'
	userbot_id?: number
	payload: {
		userbot_id?: number
		type: string
		result?: unknown
		error?: string
		request_id?: RequestId
	}
}

/** One live update of a userbot: `seq` numbers them per userbot, from 1. */
export interface UpdateEvent<U = { _?: string; '@type'?: string; [key: string]: unknown }> {
	type: 'update'
	userbot_id: number
	seq: number
	update: U
}

/**
 * The earliest update the server can still send is `seq`: what came between the last one seen and it
 * is lost (the client resubscribes by itself from there).
 */
export interface ResyncEvent {
	type: 'resync'
	userbot_id: number
	seq: number
}

export type ServerMessage = ChatUpdate | UpdateEvent | ResyncEvent

/** Wire name → `{input, result}`: what `send` is typed by. */
export type CommandMap = Record<string, { input: unknown; result: unknown }>
