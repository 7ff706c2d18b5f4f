import * as v from 'valibot'
import { MESSAGES } from '../../src/auth/errors'
import { badRequest } from '../../src/http/errors'

/**
 * Request fields as DRF serializers check them: required, a string, not blank, at most N
 * characters (checked before anything else, so a 1 MB value costs one length test), and for
 * `email` a valid address. Messages are Django's; submitted values are never quoted.
 */
export interface FieldSpec {
	max: number
	optional?: boolean
	allowBlank?: boolean
	email?: boolean
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

const schemaOf = (spec: FieldSpec) =>
	v.pipe(
		v.string(MESSAGES.notString),
		v.maxLength(spec.max, MESSAGES.maxLength(spec.max)),
		v.check((s) => spec.allowBlank === true || s.trim() !== '', MESSAGES.blank),
		v.check((s) => !spec.email || EMAIL.test(s.trim()), MESSAGES.invalidEmail),
	)

export const FIELDS = {
	email: { max: 254, email: true },
	password: { max: 128 },
	new_password: { max: 128 },
	name: { max: 150, optional: true, allowBlank: true },
	token: { max: 512 },
	refresh: { max: 512 },
} satisfies Record<string, FieldSpec>

export type Fields<S extends Record<string, FieldSpec>> = {
	[K in keyof S]: S[K] extends { optional: true } ? string | undefined : string
}

/** Field errors per field, and the values that passed (blank optional fields as ''). */
export function checkFields<S extends Record<string, FieldSpec>>(
	body: Record<string, unknown>,
	specs: S,
): { values: Partial<Fields<S>>; errors: Record<string, string[]> } {
	const values: Record<string, string> = {}
	const errors: Record<string, string[]> = {}
	for (const [name, spec] of Object.entries(specs)) {
		const raw = body[name]
		if (raw === undefined || raw === null) {
			if (!spec.optional) errors[name] = [raw === null ? 'This field may not be null.' : MESSAGES.required]
			continue
		}
		const result = v.safeParse(schemaOf(spec), raw, { abortPipeEarly: true })
		if (result.success) values[name] = result.output
		else errors[name] = [result.issues[0].message]
	}
	return { values: values as Partial<Fields<S>>, errors }
}

/** As `checkFields`, throwing the 400 when any field is wrong. */
export function parseFields<S extends Record<string, FieldSpec>>(
	body: Record<string, unknown>,
	specs: S,
): Fields<S> {
	const { values, errors } = checkFields(body, specs)
	if (Object.keys(errors).length > 0) throw badRequest(errors)
	return values as Fields<S>
}
