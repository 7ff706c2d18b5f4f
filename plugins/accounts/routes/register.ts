import {
	json,
	PUBLIC_WRITE,
	ROUTE_ERRORS,
	restRoute,
	RestSchemas as S,
	throttled,
} from 'userbot-gateway/plugin'
import { registerUser } from '../register-user'
import type { AccountsContext } from '../settings'

/**
 * POST /accounts/register/: 201 `{id, email, first_name, last_name}`; optional `invite` token.
 * "A user with that email already exists" tells whether an address is registered, as DRF says it;
 * so every registration whose fields are well formed counts against the client address
 * (REGISTER_RATE_LIMIT_IP per REGISTER_RATE_WINDOW, its own counter), and past it the answer is
 * 429 with Retry-After, before the lookup: otherwise the limit on check-password/ would be no limit.
 * The fields are checked first (the schema), the limit after.
 */
export const registerRoutes = [
	restRoute({
		method: 'post',
		path: '/accounts/register/',
		policy: PUBLIC_WRITE,
		body: S.Registration,
		response: {
			201: S.Registered,
			...ROUTE_ERRORS.badRequest,
			...ROUTE_ERRORS.throttled,
			...ROUTE_ERRORS.unavailable,
		},
		detail: {
			operationId: 'registerUser',
			summary: 'Registers a user: a new company of their own, or the inviting one',
			tags: ['accounts'],
		},
		handle: async (ctx: AccountsContext, { body, request, server }) => {
			const { settings } = ctx.accounts
			const client = ctx.auth.clientAddress(server, request)
			const wait = await ctx.auth.limiter.hit(
				`register-ip:${client}`,
				settings.registerRateLimitIp,
				settings.registerRateWindow,
			)
			if (wait) throw throttled(wait)
			const user = await registerUser(ctx, {
				email: body.email,
				password: body.password,
				first_name: body.first_name ?? '',
				last_name: body.last_name ?? '',
				invite: body.invite,
				client,
			})
			return json(user, 201)
		},
	}),
] as const
