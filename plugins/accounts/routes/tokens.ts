import { Elysia } from 'elysia'
import {
	FIELDS,
	json,
	mayWork,
	parseFields,
	type RestContext,
	readJsonObject,
	statusNotAllowed,
	tokenNotValid,
} from 'userbot-gateway/plugin'

/**
 * simplejwt's views for callers without sessions: token/ (obtain), token/refresh/ (rotation; a
 * dead refresh presented again revokes its family), token/blacklist/ (family B's logout). A member
 * whose work status does not allow work gets no new pair from either (403 `status_not_allowed`); a
 * refresh token refused so is not spent, and serves again once the status allows work.
 */
export const tokenRoutes = (ctx: RestContext) =>
	new Elysia()
		.post(
			'/accounts/token/',
			async ({ request, server }) => {
				const body = await readJsonObject(request)
				const { email, password } = parseFields(body, { email: FIELDS.email, password: FIELDS.password })
				const user = await ctx.auth.checkCredentials(email, password, ctx.auth.clientAddress(server, request))
				const pair = await ctx.auth.families.issue(user.id)
				return json({ access: pair.access, refresh: pair.refresh })
			},
			{ parse: 'none' },
		)
		.post(
			'/accounts/token/refresh/',
			async ({ request }) => {
				const { refresh } = parseFields(await readJsonObject(request), { refresh: FIELDS.refresh })
				// A live token of a member who may not work now: refused, and kept for their return.
				const claims = ctx.auth.signer.verify(refresh, 'refresh')
				if (claims && (await ctx.auth.families.isAlive(claims.fam, claims.user_id))) {
					const holder = await ctx.auth.profiles.get(claims.user_id)
					if (holder?.active && !mayWork(holder)) throw statusNotAllowed()
				}
				const pair = await ctx.auth.families.rotate(refresh)
				if (!pair) throw tokenNotValid()
				const profile = await ctx.auth.profiles.get(pair.userId)
				if (!profile?.active) {
					await ctx.auth.families.revokeFamily(pair.family)
					throw tokenNotValid()
				}
				return json({ access: pair.access, refresh: pair.refresh })
			},
			{ parse: 'none' },
		)
		.post(
			'/accounts/token/blacklist/',
			async ({ request }) => {
				const { refresh } = parseFields(await readJsonObject(request), { refresh: FIELDS.refresh })
				if (!(await ctx.auth.families.blacklist(refresh))) throw tokenNotValid()
				return json({})
			},
			{ parse: 'none' },
		)
