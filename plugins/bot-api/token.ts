import { type AppContext, BOT_API_POLICY, HttpError, type Principal } from 'userbot-gateway/plugin'
import { NOT_FOUND, UNAUTHORIZED } from './answer'

/** What Telegram takes for a token at all: digits, a colon, then the secret's characters. */
export const TOKEN_SHAPE = /^\d{1,20}:[A-Za-z0-9_-]{1,100}$/

/** What the policy admitted of a path's token: the key's principal and its one userbot. */
export interface TokenCaller {
	principal: Principal
	userbotId: number
}

/**
 * The caller of a path's token (docs/bot-api.md#the-policy-entry), for every route of this face (the
 * methods and the downloads): a path whose token is not even shaped like one names no bot (404, as
 * Telegram); otherwise the one policy decides from the route's entry (`BOT_API_POLICY`: the token's
 * key, and only its one userbot), and any refusal is the Bot API's 401, nothing said of why.
 */
export function tokenAdmission(ctx: AppContext) {
	const guard = ctx.auth.guard({
		// The token's one userbot, from the directory's memory when it knows it (no promise).
		userbot: (id) => {
			const known = ctx.userbots.lookupNow?.(id)
			if (known !== undefined) return located(known)
			return ctx.userbots.lookup(id).then(located)
		},
	})
	const admitted = (principal: Principal | undefined): TokenCaller => {
		const userbotId = principal?.key?.scopes.userbotIds?.[0]
		if (!principal || userbotId === undefined) throw UNAUTHORIZED
		return { principal, userbotId }
	}
	// Any refusal of the policy is the Bot API's 401, nothing said of why; anything else is thrown on.
	const refused = (err: unknown): never => {
		throw err instanceof HttpError ? UNAUTHORIZED : err
	}
	/** Without a promise when memory vouches for the token's key, its owner and its userbot. */
	return (request: Request, params: Record<string, string>): TokenCaller | Promise<TokenCaller> => {
		if (!TOKEN_SHAPE.test(params.token ?? '')) throw NOT_FOUND
		let decided: Principal | undefined | Promise<Principal | undefined>
		try {
			decided = guard.admit(BOT_API_POLICY, { request, server: null, params })
		} catch (err) {
			return refused(err)
		}
		return decided instanceof Promise ? decided.then(admitted, refused) : admitted(decided)
	}
}

const located = (record: { id: number; companyId: number } | null) =>
	record ? { companyId: record.companyId, userbots: [record.id] } : null
