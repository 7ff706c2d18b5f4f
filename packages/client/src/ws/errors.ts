/** A command answered `<command>_error`: `error` is the wire string, `result` any partial result. */
export class CommandFailed extends Error {
	override name = 'CommandFailed'
	constructor(
		readonly action: string,
		readonly error: string,
		readonly result?: unknown,
	) {
		super(`${action}: ${error}`)
	}
}

/**
 * No answer came: the client's own deadline passed, the connection closed with the command in flight
 * (it may or may not have run), or the client was closed. `reason` says which.
 */
export class ClientError extends Error {
	override name = 'ClientError'
	constructor(
		readonly reason: 'timeout' | 'connection_closed' | 'client_closed' | 'not_connected',
		message: string,
	) {
		super(message)
	}
}
