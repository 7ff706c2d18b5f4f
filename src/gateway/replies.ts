/**
 * Every `chat_update` the gateway sends is built here (one path for replies), already serialized:
 * each reply is written to exactly one socket, so it is stringified exactly once.
 */

export type RequestId = string | number

/**
 * `request_id` is echoed when it is a string or a JSON number that is an integer (beyond 2^53 too:
 * it goes back as JSON.parse read it); anything else is ignored.
 */
export function requestIdOf(frame: Record<string, unknown>): RequestId | undefined {
	const id = frame.request_id
	if (typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id))) return id
	return undefined
}

export function successReply(
	userbotId: number | null,
	type: string,
	result: unknown,
	requestId: RequestId | undefined,
): string {
	const payload: Record<string, unknown> = { userbot_id: userbotId, type, result: result ?? null }
	if (requestId !== undefined) payload.request_id = requestId
	return JSON.stringify({ type: 'chat_update', userbot_id: userbotId, payload })
}

export function errorReply(
	userbotId: number | null,
	type: string,
	error: string,
	requestId: RequestId | undefined,
	result?: unknown,
): string {
	const payload: Record<string, unknown> = { userbot_id: userbotId, type, error }
	if (result !== undefined) payload.result = result
	if (requestId !== undefined) payload.request_id = requestId
	return JSON.stringify({ type: 'chat_update', userbot_id: userbotId, payload })
}
