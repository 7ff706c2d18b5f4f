import { Elysia } from 'elysia'
import type { AuthCore } from '../../../src/auth'
import { tokenNotValid } from '../../../src/auth/errors'
import { json } from '../../../src/auth/respond'
import { readJsonObject } from '../../../src/http/body'
import { FIELDS, parseFields } from '../fields'

/**
 * simplejwt's views for callers without sessions: token/ (obtain), token/refresh/ (rotation; a
 * dead refresh presented again revokes its family), token/blacklist/ (family B's logout).
 */
export const tokenRoutes = (core: AuthCore) =>
	new Elysia()
		.post(
			'/accounts/token/',
			async ({ request, server }) => {
				const body = await readJsonObject(request)
				const { email, password } = parseFields(body, { email: FIELDS.email, password: FIELDS.password })
				const user = await core.checkCredentials(email, password, core.clientAddress(server, request))
				const pair = await core.families.issue(user.id)
				return json({ access: pair.access, refresh: pair.refresh })
			},
			{ parse: 'none' },
		)
		.post(
			'/accounts/token/refresh/',
			async ({ request }) => {
				const { refresh } = parseFields(await readJsonObject(request), { refresh: FIELDS.refresh })
				const pair = await core.families.rotate(refresh)
				if (!pair) throw tokenNotValid()
				const profile = await core.profiles.get(pair.userId)
				if (!profile?.active) {
					await core.families.revokeFamily(pair.family)
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
				if (!(await core.families.blacklist(refresh))) throw tokenNotValid()
				return json({})
			},
			{ parse: 'none' },
		)
