import type { AppContext, Principal } from 'userbot-gateway/plugin'
import { NOT_FOUND, UNAUTHORIZED } from './answer'

/** What Telegram takes for a token at all: digits, a colon, then the secret's characters. */
export const TOKEN_SHAPE = /^\d{1,20}:[A-Za-z0-9_-]{1,100}$/

/**
 * The caller of a path's token (docs/bot-api.md#the-token), as the methods' route checks it: a path
 * whose token is not even shaped like one names no bot (404, as Telegram); an unknown, revoked or
 * expired one, or one whose user id is not its account's, is 401; else the key's principal and its
 * one userbot.
 */
export async function tokenCaller(
	ctx: AppContext,
	request: Request,
	token: string,
): Promise<{ principal: Principal; userbotId: number }> {
	if (!TOKEN_SHAPE.test(token)) throw NOT_FOUND
	const outcome = await ctx.auth.botCaller(request, token)
	if (!outcome.ok) throw UNAUTHORIZED
	const principal = outcome.caller.principal
	const userbotId = principal.key?.scopes.userbotIds?.[0]
	if (userbotId === undefined) throw UNAUTHORIZED
	return { principal, userbotId }
}
