import { Elysia } from 'elysia'
import type { AuthCore } from '../../../src/auth'
import { statusNotAllowed, tokenNotValid } from '../../../src/auth/errors'
import { mayWork } from '../../../src/auth/profiles'
import { json } from '../../../src/auth/respond'
import { readJsonObject } from '../../../src/http/body'
import { FIELDS, parseFields } from '../fields'

/**
 * simplejwt's views for callers without sessions: token/ (obtain), token/refresh/ (rotation; a
 * dead refresh presented again revokes its family), token/blacklist/ (family B's logout). A member
 * whose work status does not allow work gets no new pair from either (403 `status_not_allowed`); a
 * refresh token refused so is not spent, and serves again once the status allows work.
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
				// A live token of a member who may not work now: refused, and kept for their return.
				const claims = core.signer.verify(refresh, 'refresh')
				if (claims && (await core.families.isAlive(claims.fam, claims.user_id))) {
					const holder = await core.profiles.get(claims.user_id)
					if (holder?.active && !mayWork(holder)) throw statusNotAllowed()
				}
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
