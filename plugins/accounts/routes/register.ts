import { Elysia } from 'elysia'
import type { AuthCore } from '../../../src/auth'
import { json } from '../../../src/auth/respond'
import { readJsonObject } from '../../../src/http/body'
import { FIELDS, parseFields } from '../fields'
import { registerUser } from '../register-user'

/** POST /accounts/register/: 201 `{id, email, first_name, last_name}`; optional `invite` token. */
export const registerRoute = (core: AuthCore) =>
	new Elysia().post(
		'/accounts/register/',
		async ({ request }) => {
			const body = await readJsonObject(request)
			const fields = parseFields(body, {
				email: FIELDS.email,
				password: FIELDS.password,
				first_name: FIELDS.name,
				last_name: FIELDS.name,
				invite: { ...FIELDS.token, optional: true },
			})
			const user = await registerUser(core, {
				email: fields.email,
				password: fields.password,
				first_name: fields.first_name ?? '',
				last_name: fields.last_name ?? '',
				invite: fields.invite,
			})
			return json(user, 201)
		},
		{ parse: 'none' },
	)
