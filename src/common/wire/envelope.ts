/**
 * The frames of the command channel (docs/protocol.md#envelopes), built and typed in one place: the
 * gateway's replies, the pushes of a userbot's state, the update hub's live events and the typed
 * client all use these. Browser-safe: no import but its own folder's.
 *
 * `userbot_id` is an integer wherever it appears. A frame that names no usable userbot (no
 * `userbot_id`, one that is no integer, one past 2^53, or a frame that is no command at all) is
 * answered without the field, in the envelope and in the payload alike, rather than with `null` or
 * with whatever the client sent.
 *
 * No text made here carries a path of the server's disk: TDLib's `local.path` is blanked
 * (server-paths.ts).
 */

import { serverPathFreeJson } from './server-paths'

/** `type` of every reply and pushed event of a command. */
export const CHAT_UPDATE = 'chat_update'
/** `type` of one live update of a userbot, and of the notice that some were lost. */
export const UPDATE = 'update'
export const RESYNC = 'resync'
/** `payload.type` of a frame that names no command. */
export const FRAME_ERROR_TYPE = 'error'
/** The connection's own frames: renewal of its credential, live updates on and off. */
export const AUTHENTICATE = 'authenticate'
export const SUBSCRIBE = 'subscribe'
export const UNSUBSCRIBE = 'unsubscribe'

/** `payload.type` of a command's failure: `<command>_error`. */
export const errorType = (action: string): string => `${action}_error`

/** A `request_id` as a client sends and reads it. */
export type RequestId = string | number
/** A `request_id` as the server parsed it: an integer past 2^53 keeps every digit (`bigint`). */
export type FrameRequestId = RequestId | bigint

/**
 * Every reply and pushed event of a command (and of `authenticate`, `subscribe`...). `userbot_id` is
 * left out where the frame named no usable userbot (and in the connection's own `authenticate`).
 */
export interface ChatUpdate {
	type: typeof CHAT_UPDATE
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
	type: typeof UPDATE
	userbot_id: number
	seq: number
	update: U
}

/**
 * The earliest update the server can still send is `seq`: what came between the last one seen and it
 * is lost (the client resubscribes by itself from there).
 */
export interface ResyncEvent {
	type: typeof RESYNC
	userbot_id: number
	seq: number
}

export type ServerMessage = ChatUpdate | UpdateEvent | ResyncEvent

/**
 * `request_id` is echoed when it is a string or a JSON integer (beyond 2^53 too, digit for digit:
 * the frame parse keeps it whole); anything else is ignored.
 */
export function requestIdOf(frame: Record<string, unknown>): FrameRequestId | undefined {
	const id = frame.request_id
	if (typeof id === 'string' || typeof id === 'bigint' || (typeof id === 'number' && Number.isInteger(id)))
		return id
	return undefined
}

/** An integer past 2^53 as JSON text, every digit kept (where a reply echoes what the client sent). */
const rawInteger = (value: bigint): unknown =>
	(JSON as unknown as { rawJSON(text: string): unknown }).rawJSON(value.toString())

function chatUpdate(
	userbotId: number | null,
	payload: Record<string, unknown>,
	requestId: FrameRequestId | undefined,
): ChatUpdate {
	if (requestId !== undefined)
		payload.request_id = typeof requestId === 'bigint' ? rawInteger(requestId) : requestId
	const p = payload as ChatUpdate['payload']
	return userbotId === null
		? { type: CHAT_UPDATE, payload: p }
		: { type: CHAT_UPDATE, userbot_id: userbotId, payload: p }
}

/** A success: `payload.type` is the command (or the pushed event's name), `result` its result. */
export function successEvent(
	userbotId: number | null,
	type: string,
	result: unknown,
	requestId?: FrameRequestId,
): ChatUpdate {
	const payload: Record<string, unknown> =
		userbotId === null
			? { type, result: result ?? null }
			: { userbot_id: userbotId, type, result: result ?? null }
	return chatUpdate(userbotId, payload, requestId)
}

/** A failure: `payload.type` is `<command>_error`, `error` one string, `result` what was done. */
export function errorEvent(
	userbotId: number | null,
	type: string,
	error: string,
	requestId?: FrameRequestId,
	result?: unknown,
): ChatUpdate {
	const payload: Record<string, unknown> =
		userbotId === null ? { type, error } : { userbot_id: userbotId, type, error }
	if (result !== undefined) payload.result = result
	return chatUpdate(userbotId, payload, requestId)
}

/**
 * The reply to a command, serialized: each reply is written to exactly one socket, so it is
 * stringified once (twice when its result holds a TDLib file, whose server path is blanked).
 */
export const successReply = (
	userbotId: number | null,
	type: string,
	result: unknown,
	requestId: FrameRequestId | undefined,
): string => serverPathFreeJson(successEvent(userbotId, type, result, requestId))

export const errorReply = (
	userbotId: number | null,
	type: string,
	error: string,
	requestId: FrameRequestId | undefined,
	result?: unknown,
): string => serverPathFreeJson(errorEvent(userbotId, type, error, requestId, result))

/**
 * A live update, serialized once: it is kept in the userbot's stream as it goes on the wire. The
 * update must be without server paths already (the hub's `publish` blanks them first).
 */
export const updateText = (userbotId: number, seq: number, update: { _: string }): string =>
	JSON.stringify({ type: UPDATE, userbot_id: userbotId, seq, update })

export const resyncText = (userbotId: number, seq: number): string =>
	JSON.stringify({ type: RESYNC, userbot_id: userbotId, seq })
