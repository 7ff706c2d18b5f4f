import { Elysia } from 'elysia'
import {
	FIELDS,
	json,
	parseFields,
	type RestContext,
	readJsonObject,
	throttled,
} from 'userbot-gateway/plugin'
import { registerUser } from '../register-user'
import type { AccountsSettings } from '../settings'

/**
 * POST /accounts/register/: 201 `{id, email, first_name, last_name}`; optional `invite` token.
 * "A user with that email already exists" tells whether an address is registered, as DRF says it;
 * so every registration whose fields are well formed counts against the client address
 * (REGISTER_RATE_LIMIT_IP per REGISTER_RATE_WINDOW, its own counter), and past it the answer is
 * 429 with Retry-After, before the lookup: otherwise the limit on check-password/ would be no limit.
 */
export const registerRoute = (ctx: RestContext, settings: AccountsSettings) =>
	new Elysia().post(
		'/accounts/register/',
		async ({ request, server }) => {
			const body = await readJsonObject(request)
			const fields = parseFields(body, {
				email: FIELDS.email,
				password: FIELDS.password,
				first_name: FIELDS.name,
				last_name: FIELDS.name,
				invite: { ...FIELDS.token, optional: true },
			})
			const client = ctx.auth.clientAddress(server, request)
			const wait = await ctx.auth.limiter.hit(
				`register-ip:${client}`,
				settings.registerRateLimitIp,
				settings.registerRateWindow,
			)
			if (wait) throw throttled(wait)
			const user = await registerUser(ctx, {
				email: fields.email,
				password: fields.password,
				first_name: fields.first_name ?? '',
				last_name: fields.last_name ?? '',
				invite: fields.invite,
				client,
			})
			return json(user, 201)
		},
		{ parse: 'none' },
	)
