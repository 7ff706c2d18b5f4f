import { Elysia } from 'elysia'
import type { AuthCore } from '../../../src/auth'
import { MESSAGES } from '../../../src/auth/errors'
import { validatePassword } from '../../../src/auth/password-policy'
import { readJsonObject } from '../../../src/http/body'
import { checkFields, FIELDS } from '../fields'
import { emailTaken } from '../register-user'
import { json } from '../respond'

/**
 * POST /accounts/check-password/: registration feedback before an account exists. Always both keys,
 * `email` and `password`, each listing its problems; 200 when both lists are empty. Creates nothing.
 */
export const checkPasswordRoute = (core: AuthCore) =>
	new Elysia().post(
		'/accounts/check-password/',
		async ({ request }) => {
			const body = await readJsonObject(request)
			const { values, errors } = checkFields(body, {
				email: FIELDS.email,
				password: FIELDS.password,
				first_name: FIELDS.name,
				last_name: FIELDS.name,
			})
			const result: Record<string, string[]> = { email: errors.email ?? [], password: errors.password ?? [] }
			for (const key of ['first_name', 'last_name'] as const) if (errors[key]) result[key] = errors[key]
			const email = values.email?.trim().toLowerCase()
			if (email && (await emailTaken(core, email))) result.email?.push(MESSAGES.emailTaken)
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
