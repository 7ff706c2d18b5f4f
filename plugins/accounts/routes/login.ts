import { Elysia } from 'elysia'
import type { AuthCore } from '../../../src/auth'
import { openSession } from '../../../src/auth/web-session'
import { readJsonObject } from '../../../src/http/body'
import { FIELDS, parseFields } from '../fields'

/** POST /accounts/login/: a new server-side session (new id every time) holding a fresh JWT pair. */
export const loginRoute = (core: AuthCore) =>
	new Elysia().post(
		'/accounts/login/',
		async ({ request, server }) => {
			const body = await readJsonObject(request)
			const { email, password } = parseFields(body, { email: FIELDS.email, password: FIELDS.password })
			const user = await core.checkCredentials(email, password, core.clientAddress(server, request))
			return openSession(core, request, user)
		},
		{ parse: 'none' },
	)
