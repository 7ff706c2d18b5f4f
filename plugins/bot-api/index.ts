import { Elysia } from 'elysia'
import { type AppContext, BOT_API_POLICY, definePlugin, policyHook } from 'userbot-gateway/plugin'
import * as v from 'valibot'
import { BotError, failed, METHOD_NOT_FOUND, ok } from './answer'
import { botFileRoutes } from './files-route'
import { BOT_ONLY, botOnly, METHODS } from './methods'
import { readParams } from './params'
import { tokenAdmission } from './token'
import { messageKey } from './update-of'
import { createUpdateBuffer, EDITED_LABEL } from './updates'

/**
 * The Telegram Bot API as a face of the gateway (docs/bot-api.md): `/bot<token>/<method>`, GET or
 * POST, answered as Telegram answers. The token `<Telegram user id>:<key>` is an API key made with
 * `bot_api` (the one credential read from a URL path: the access line names the route's pattern,
 * never the path). Each method runs the command it maps onto, for the key's principal, through the
 * WebSocket's dispatcher: the same policy entries, checks and TDLib calls.
 */

/** The methods that send or edit messages: what they send meanwhile is the face's own (updates.ts). */
const SENDING = /^(send(?!ChatAction)|forward|copy|edit)/

/** The answers as the document shows them (the handler answers them as `Response`s, in answer.ts). */
const Success = v.object({ ok: v.literal(true), result: v.unknown() })
const Failure = v.object({
	ok: v.literal(false),
	error_code: v.number(),
	description: v.string(),
	parameters: v.optional(v.object({ retry_after: v.optional(v.number()) })),
})

function botApiRoutes(ctx: AppContext): Elysia {
	const updates = createUpdateBuffer(ctx)
	const admit = tokenAdmission(ctx)
	const serve = async ({ request, params }: { request: Request; params: Record<string, string> }) => {
		try {
			const token = params.token ?? ''
			// The policy's entry decides (BOT_API_POLICY, token.ts): the token's key, and only its one userbot.
			const caller = admit(request, params)
			const { principal, userbotId } = caller instanceof Promise ? await caller : caller
			const name = params.method ?? ''
			const method = METHODS[name]
			if (!method) throw BOT_ONLY.has(name) ? botOnly() : METHOD_NOT_FOUND
			// The token's first part, checked by the authenticator: the account's user id (updates.ts).
			if (principal.key)
				updates.introduce(principal.key.id, userbotId, Number(token.slice(0, token.indexOf(':'))))
			// What a sending method sends is this face's own: left out of the token's updates (updates.ts).
			const named: string[] = []
			const run = async () =>
				method({
					ctx,
					principal,
					userbotId,
					params: await readParams(request),
					signal: request.signal,
					updates,
					own: (messages) => {
						for (const m of messages) if (m) named.push(messageKey(m.chat_id, m.id))
					},
				})
			return ok(SENDING.test(name) ? await updates.sending(userbotId, run, named) : await run())
		} catch (err) {
			if (err instanceof BotError) return failed(err)
			ctx.log.error('bot api method failed', { error: err instanceof Error ? err : String(err) })
			return failed(new BotError(500, 'Internal Server Error'))
		}
	}
	// The token in the path is the credential (BOT_API_POLICY); each method's command decides again.
	const hook = (operationId: string) => ({
		...policyHook(BOT_API_POLICY),
		response: {
			200: Success,
			400: Failure,
			401: Failure,
			403: Failure,
			404: Failure,
			409: Failure,
			429: Failure,
		},
		detail: {
			operationId,
			summary: "A Telegram Bot API method for the token's userbot (docs/bot-api.md)",
			tags: ['bot-api'],
			security: [],
		},
	})
	return new Elysia({ name: 'bot-api' })
		.get('/bot:token/:method', serve, hook('getBotApiMethod'))
		.post('/bot:token/:method', serve, hook('postBotApiMethod'))
		.use(botFileRoutes(ctx)) as unknown as Elysia
}

export const botApiPlugin = definePlugin({
	id: 'bot-api',
	// An edit of a message not seen here is made whole from TDLib's getMessage (updates.ts).
	labels: { [EDITED_LABEL]: 'getMessage' },
	build: botApiRoutes,
})
