import { rawInteger } from './frame-json'

/**
 * Every `chat_update` the gateway sends is built here (one path for replies), already serialized:
 * each reply is written to exactly one socket, so it is stringified exactly once.
 *
 * `userbot_id` is an integer wherever it appears (docs/protocol.md#envelopes). A frame that names no usable
 * userbot (no `userbot_id`, one that is no integer, one past 2^53, or a frame that is no command at
 * all) is answered without the field, in the envelope and in the payload alike, rather than with
 * `null` or with whatever the client sent.
 */

/** A `request_id` as the frame carried it: an integer past 2^53 keeps every digit (`bigint`). */
export type RequestId = string | number | bigint

/**
 * `request_id` is echoed when it is a string or a JSON integer (beyond 2^53 too, digit for digit:
 * the frame parse keeps it whole); anything else is ignored.
 */
export function requestIdOf(frame: Record<string, unknown>): RequestId | undefined {
	const id = frame.request_id
	if (typeof id === 'string' || typeof id === 'bigint' || (typeof id === 'number' && Number.isInteger(id)))
		return id
	return undefined
}

function envelope(
	userbotId: number | null,
	payload: Record<string, unknown>,
	requestId: RequestId | undefined,
) {
	if (requestId !== undefined)
		payload.request_id = typeof requestId === 'bigint' ? rawInteger(requestId) : requestId
	return JSON.stringify(
		userbotId === null
			? { type: 'chat_update', payload }
			: { type: 'chat_update', userbot_id: userbotId, payload },
	)
}

export function successReply(
	userbotId: number | null,
	type: string,
	result: unknown,
	requestId: RequestId | undefined,
): string {
	const payload: Record<string, unknown> =
		userbotId === null
			? { type, result: result ?? null }
			: { userbot_id: userbotId, type, result: result ?? null }
	return envelope(userbotId, payload, requestId)
}

export function errorReply(
	userbotId: number | null,
	type: string,
	error: string,
	requestId: RequestId | undefined,
	result?: unknown,
): string {
	const payload: Record<string, unknown> =
		userbotId === null ? { type, error } : { userbot_id: userbotId, type, error }
	if (result !== undefined) payload.result = result
	return envelope(userbotId, payload, requestId)
}
