import * as v from 'valibot'
import {
	normalizeEmail,
	normalizeText,
	secretFault,
	TEXT_FAULT_MESSAGES,
	type TextFault,
	textFault,
} from '../../common/util/text'
import { badRequest } from '../http/errors'
import { INVALID_VALUE } from '../http/field-rule'
import { MESSAGES } from './errors'

/**
 * Account fields, of both account families, as DRF serializers check them: required, a string, not
 * blank, at most N characters (checked before anything else, so a 1 MB value costs one length test),
 * and for `email` a valid address. Messages are Django's; submitted values are never quoted.
 *
 * What a field is decides how its text is checked (src/common/util/text.ts): e-mails and names are stored, so
 * control characters and lone surrogates are refused and the value comes back normalised (NFC, an
 * e-mail also trimmed and lower-cased, a name trimmed); secrets (passwords) are hashed as typed, so
 * only lone surrogates, which UTF-8 cannot carry, are refused; tokens are opaque.
 */
export interface FieldSpec {
	max: number
	kind: 'email' | 'name' | 'secret' | 'token'
	optional?: boolean
	allowBlank?: boolean
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

const faultOf: Record<FieldSpec['kind'], (s: string) => TextFault | null> = {
	email: textFault,
	name: textFault,
	secret: secretFault,
	token: () => null,
}
const normalize: Record<FieldSpec['kind'], (s: string) => string> = {
	email: normalizeEmail,
	name: normalizeText,
	secret: (s) => s,
	token: (s) => s,
}

const schemaOf = (spec: FieldSpec) =>
	v.pipe(
		v.string(MESSAGES.notString),
		v.maxLength(spec.max, MESSAGES.maxLength(spec.max)),
		v.rawCheck(({ dataset, addIssue }) => {
			const fault = dataset.typed ? faultOf[spec.kind](dataset.value) : null
			if (fault) addIssue({ message: TEXT_FAULT_MESSAGES[fault] })
		}),
		v.check((s) => spec.allowBlank === true || s.trim() !== '', MESSAGES.blank),
		v.check((s) => spec.kind !== 'email' || EMAIL.test(s.trim()), MESSAGES.invalidEmail),
		v.transform(normalize[spec.kind]),
	)

export const FIELDS = {
	email: { max: 254, kind: 'email' },
	password: { max: 128, kind: 'secret' },
	new_password: { max: 128, kind: 'secret' },
	name: { max: 150, kind: 'name', optional: true, allowBlank: true },
	token: { max: 512, kind: 'token' },
	refresh: { max: 512, kind: 'token' },
} satisfies Record<string, FieldSpec>

export type Fields<S extends Record<string, FieldSpec>> = {
	[K in keyof S]: S[K] extends { optional: true } ? string | undefined : string
}

/** Field errors per field, and the values that passed, normalised (blank optional fields as ''). */
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
		const result = v.safeParse(schemaOf(spec), raw, { abortPipeEarly: true, message: () => INVALID_VALUE })
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
