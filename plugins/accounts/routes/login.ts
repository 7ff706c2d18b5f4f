import { Elysia } from 'elysia'
import { FIELDS, parseFields, type RestContext, readJsonObject } from 'userbot-gateway/plugin'

/** POST /accounts/login/: a new server-side session (new id every time) holding a fresh JWT pair. */
export const loginRoute = (ctx: RestContext) =>
	new Elysia().post(
		'/accounts/login/',
		async ({ request, server }) => {
			const body = await readJsonObject(request)
			const { email, password } = parseFields(body, { email: FIELDS.email, password: FIELDS.password })
			const user = await ctx.auth.checkCredentials(email, password, ctx.auth.clientAddress(server, request))
			return ctx.auth.openSession(request, user)
		},
		{ parse: 'none' },
	)
