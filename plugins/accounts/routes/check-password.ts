import { Elysia } from 'elysia'
import {
	checkFields,
	FIELDS,
	json,
	AUTH_MESSAGES as MESSAGES,
	type RestContext,
	readJsonObject,
	throttled,
	validatePassword,
} from 'userbot-gateway/plugin'
import { emailTaken } from '../register-user'
import type { AccountsSettings } from '../settings'

/**
 * POST /accounts/check-password/: registration feedback before an account exists. Always both keys,
 * `email` and `password`, each listing its problems; 200 when both lists are empty. Creates nothing.
 * Saying whether an email is registered makes it an enumeration oracle, so every request that looks
 * an email up counts against the client address, as request-reset/ does (RESET_RATE_LIMIT_IP per
 * RESET_RATE_WINDOW, its own counter); past it the answer is 429 with Retry-After, before the lookup.
 */
export const checkPasswordRoute = (ctx: RestContext, settings: AccountsSettings) =>
	new Elysia().post(
		'/accounts/check-password/',
		async ({ request, server }) => {
			const body = await readJsonObject(request)
			const { values, errors } = checkFields(body, {
				email: FIELDS.email,
				password: FIELDS.password,
				first_name: FIELDS.name,
				last_name: FIELDS.name,
			})
			const result: Record<string, string[]> = { email: errors.email ?? [], password: errors.password ?? [] }
			for (const key of ['first_name', 'last_name'] as const) if (errors[key]) result[key] = errors[key]
			const email = values.email
			if (email) {
				const wait = await ctx.auth.limiter.hit(
					`check-ip:${ctx.auth.clientAddress(server, request)}`,
					settings.resetRateLimitIp,
					settings.resetRateWindow,
				)
				if (wait) throw throttled(wait)
			}
			if (email && (await emailTaken(ctx, email))) result.email?.push(MESSAGES.emailTaken)
			if (values.password !== undefined) {
				result.password?.push(
					...validatePassword(values.password, {
						email,
						first_name: values.first_name,
						last_name: values.last_name,
					}),
				)
			}
			const ok = Object.values(result).every((list) => list.length === 0)
			return json(result, ok ? 200 : 400)
		},
		{ parse: 'none' },
	)
