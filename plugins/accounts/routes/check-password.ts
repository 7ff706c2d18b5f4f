import {
	fieldOutcomes,
	json,
	AUTH_MESSAGES as MESSAGES,
	PUBLIC_READ,
	ROUTE_ERRORS,
	restRoute,
	RestSchemas as S,
	throttled,
	validatePassword,
} from 'userbot-gateway/plugin'
import { emailTaken } from '../register-user'
import type { AccountsContext } from '../settings'

/**
 * POST /accounts/check-password/: registration feedback before an account exists. Always both keys,
 * `email` and `password`, each listing its problems; 200 when both lists are empty. Creates nothing.
 * Saying whether an email is registered makes it an enumeration oracle, so every request that looks
 * an email up counts against the client address, as request-reset/ does (RESET_RATE_LIMIT_IP per
 * RESET_RATE_WINDOW, its own counter); past it the answer is 429 with Retry-After, before the lookup.
 * The answer is its own (both keys always), so the handler words the schema's errors itself.
 */
export const checkPasswordRoutes = [
	restRoute({
		method: 'post',
		path: '/accounts/check-password/',
		policy: PUBLIC_READ,
		body: S.CheckPassword,
		validate: false,
		response: { 200: S.PasswordProblems, 400: S.FieldErrors, ...ROUTE_ERRORS.throttled },
		detail: {
			operationId: 'checkPassword',
			summary: 'Checks an e-mail and password against the policy, creating nothing',
			tags: ['accounts'],
		},
		handle: async (ctx: AccountsContext, { body, request, server }) => {
			// The errors of the fields that failed, and the stored form of those that passed.
			const { errors, values } = fieldOutcomes(S.CheckPassword, body as Record<string, unknown>)
			const valid = (key: 'email' | 'password' | 'first_name' | 'last_name') =>
				values[key] as string | undefined
			const result: Record<string, string[]> = { email: errors.email ?? [], password: errors.password ?? [] }
			for (const key of ['first_name', 'last_name'] as const) if (errors[key]) result[key] = errors[key]
			const email = valid('email')
			if (email) {
				const { settings } = ctx.accounts
				const wait = await ctx.auth.limiter.hit(
					`check-ip:${ctx.auth.clientAddress(server, request)}`,
					settings.resetRateLimitIp,
					settings.resetRateWindow,
				)
				if (wait) throw throttled(wait)
			}
			if (email && (await emailTaken(ctx, email))) result.email?.push(MESSAGES.emailTaken)
			const password = valid('password')
			if (password !== undefined) {
				result.password?.push(
					...validatePassword(password, {
						email,
						first_name: valid('first_name'),
						last_name: valid('last_name'),
					}),
				)
			}
			const ok = Object.values(result).every((list) => list.length === 0)
			return json(result, ok ? 200 : 400)
		},
	}),
] as const
