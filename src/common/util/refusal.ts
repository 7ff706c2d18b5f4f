/**
 * A refusal said once for every face of an operation (src/server/operations/): REST answers `status` with
 * `{detail, code}`, the WebSocket command `<command>_error` with `wire`. The userbot lifecycle's
 * `UserbotError` is one. Below every part, so that whatever refuses can say it without knowing
 * the faces.
 */
export class Refusal extends Error {
	override name = 'Refusal'
	constructor(
		readonly status: number,
		readonly detail: string,
		readonly code?: string,
		/** The WebSocket error string, when it differs from `detail`. */
		readonly wire: string = detail,
	) {
		super(detail)
	}
}
