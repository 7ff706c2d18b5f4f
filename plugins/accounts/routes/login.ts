import { Elysia } from 'elysia'
import type { AuthCore } from '../../../src/auth'
import { readCookie, SESSION_COOKIE } from '../../../src/auth/cookies'
import { readJsonObject } from '../../../src/http/body'
import { FIELDS, parseFields } from '../fields'
import { clientIp, json, sessionCookies } from '../respond'

/** POST /accounts/login/: a new server-side session (new id every time) holding a fresh JWT pair. */
export const loginRoute = (core: AuthCore) =>
	new Elysia().post(
		'/accounts/login/',
		async ({ request, server }) => {
			const body = await readJsonObject(request)
			const { email, password } = parseFields(body, { email: FIELDS.email, password: FIELDS.password })
			const user = await core.checkCredentials(email, password, clientIp(server, request))
			// Session fixation: whatever session the cookie named ends here.
			const previous = readCookie(request.headers.get('cookie'), SESSION_COOKIE)
			if (previous) await core.sessions.destroy(previous)
			const created = await core.sessions.create(user.id)
			return json(
				{ sessionid: created.id, user: { id: user.id, email: user.email } },
				200,
				sessionCookies(core.config, created.id, created.csrfToken),
			)
		},
		{ parse: 'none' },
	)
