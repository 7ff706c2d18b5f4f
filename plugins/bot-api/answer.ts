import { GatewayErrors } from 'userbot-gateway/plugin'

/**
 * The Bot API's answers (docs/bot-api.md): `{"ok": true, "result"}` or `{"ok": false, "error_code",
 * "description", "parameters"?}`, in the Bot API's own words where it has them. Every description
 * is one we wrote or TDLib's, never a value of the request.
 */
export class BotError extends Error {
	constructor(
		readonly code: number,
		readonly description: string,
		readonly parameters?: Record<string, unknown>,
	) {
		super(description)
	}
}

const answer = (body: unknown, status: number) =>
	new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

export const ok = (result: unknown) => answer({ ok: true, result }, 200)

export const failed = (err: BotError) =>
	answer(
		{
			ok: false,
			error_code: err.code,
			description: err.description,
			...(err.parameters ? { parameters: err.parameters } : {}),
		},
		err.code,
	)

export const UNAUTHORIZED = new BotError(401, 'Unauthorized')
export const NOT_FOUND = new BotError(404, 'Not Found')
export const METHOD_NOT_FOUND = new BotError(404, 'Not Found: method not found')
export const badRequest = (what: string) => new BotError(400, `Bad Request: ${what}`)

/** The refusals of the policy and the gateway that are no fault of the request's fields. */
const FORBIDDEN: ReadonlySet<string> = new Set([GatewayErrors.PERMISSION_DENIED])
const UNAVAILABLE: ReadonlySet<string> = new Set([
	GatewayErrors.RUNTIME_UNAVAILABLE,
	GatewayErrors.RUNTIME_HELD_ELSEWHERE,
	GatewayErrors.RUNTIME_RESTARTED,
	GatewayErrors.TIMEOUT,
	GatewayErrors.INTERNAL,
])

/** A command's wire error as the Bot API words it: "Bad Request: chat not found" for TDLib's "Chat not found". */
export function commandError(error: string, result: unknown): BotError {
	const retry = (result as { retry_after?: unknown } | undefined)?.retry_after
	if (typeof retry === 'number')
		return new BotError(429, `Too Many Requests: retry after ${retry}`, { retry_after: retry })
	if (error === GatewayErrors.USERBOT_NOT_FOUND) return UNAUTHORIZED
	if (FORBIDDEN.has(error)) return new BotError(403, `Forbidden: ${error}`)
	if (UNAVAILABLE.has(error)) return new BotError(500, `Internal Server Error: ${error}`)
	return badRequest(error.charAt(0).toLowerCase() + error.slice(1))
}
