import {
	documentedAs,
	RestSchemas as S,
	secretFault,
	type TextFault,
	textFault,
} from 'userbot-gateway/plugin'
import * as v from 'valibot'

/**
 * The bodies of the log-in steps, checked with one set of rules for both faces: REST words its field errors
 * as Django REST framework does, the WebSocket commands as the protocol's error table does
 * (docs/protocol.md#error-strings). Text that is stored (the userbot's name) or handed to Telegram (codes, an
 * account's names) must hold no control character and no lone surrogate (src/common/util/text.ts) and is put in NFC; a
 * 2FA password is passed on as typed, only a lone surrogate, which UTF-8 cannot carry, is refused.
 */
export type Face = 'rest' | 'ws'

const MESSAGES = {
	rest: {
		required: (_field: string) => 'This field is required.',
		string: (_field: string) => 'Not a valid string.',
		blank: (_field: string) => 'This field may not be blank.',
		long: (_field: string, max: number) => `Ensure this field has no more than ${max} characters.`,
		fault: (_field: string, fault: TextFault) =>
			fault === 'control' ? 'Control characters are not allowed.' : 'Surrogate characters are not allowed.',
		phone: 'Enter a valid phone number.',
	},
	ws: {
		required: (field: string) => `${field} is required`,
		string: (field: string) => `${field} must be a string`,
		// An empty (or, where text is trimmed, blank) field is a missing one, as in every command group.
		blank: (field: string) => `${field} is required`,
		long: (field: string, max: number) => `${field} must be at most ${max} characters`,
		fault: (field: string, fault: TextFault) =>
			fault === 'control'
				? `${field} must not contain control characters`
				: `${field} must not contain unpaired surrogates`,
		phone: 'phone_number is not a valid phone number',
	},
} as const

const missing = (face: Face) => (issue: v.BaseIssue<unknown>) => {
	const key = issue.path?.[0]?.key
	return typeof key === 'string' ? MESSAGES[face].required(key) : 'Expected an object'
}

/** Refuses what `fault` finds, worded for the face; a secret keeps its control characters. */
const clean = (face: Face, field: string, secret = false) =>
	v.rawCheck<string>(({ dataset, addIssue }) => {
		if (!dataset.typed) return
		const fault = secret ? secretFault(dataset.value) : textFault(dataset.value)
		if (fault) addIssue({ message: MESSAGES[face].fault(field, fault) })
	})

const text = (face: Face, field: string, max: number, secret = false) =>
	v.pipe(
		v.string(MESSAGES[face].string(field)),
		clean(face, field, secret),
		// Passwords are taken as typed: spaces may be part of them.
		v.transform((s: string) => (secret ? s : s.trim().normalize('NFC'))),
		v.minLength(1, MESSAGES[face].blank(field)),
		v.maxLength(max, MESSAGES[face].long(field, max)),
	)

/** An optional name: absent is '', blank is allowed. */
const optionalName = (face: Face, field: string, max: number) =>
	v.optional(
		v.pipe(
			v.string(MESSAGES[face].string(field)),
			clean(face, field),
			v.transform((s: string) => s.trim().normalize('NFC')),
			v.maxLength(max, MESSAGES[face].long(field, max)),
		),
		'',
	)

/** Telegram takes international numbers; spaces, dashes, dots and brackets are dropped. */
const phone = (face: Face) =>
	v.pipe(
		text(face, 'phone_number', 32),
		v.transform((s: string) => s.replace(/[\s().-]/g, '')),
		v.regex(/^\+?\d{5,15}$/, MESSAGES[face].phone),
		v.transform((s: string) => s.replace(/^\+/, '')),
	)

/** Each field's rule, worded for the face. */
const fields = (face: Face) => ({
	name: optionalName(face, 'name', 128),
	// Required on both faces; blank is a name on REST, as on POST (docs/rest.md#userbot-actions), and a
	// missing field on the command, as `""` is in every command (docs/protocol.md).
	newName: face === 'ws' ? text(face, 'name', 128) : optionalName(face, 'name', 128).wrapped,
	phone_number: phone(face),
	code: text(face, 'code', 32),
	password: text(face, 'password', 256, true),
	first_name: text(face, 'first_name', 64),
	last_name: optionalName(face, 'last_name', 64),
})

export const bodies = (face: Face) => {
	const f = fields(face)
	return {
		create: v.looseObject({ name: f.name }, missing(face)),
		/** A new name: required, checked as a new userbot's is. */
		rename: v.looseObject({ name: f.newName }, missing(face)),
		phone: v.looseObject({ phone_number: f.phone_number }, missing(face)),
		code: v.looseObject({ code: f.code }, missing(face)),
		password: v.looseObject({ password: f.password }, missing(face)),
		registration: v.looseObject({ first_name: f.first_name, last_name: f.last_name }, missing(face)),
		none: v.looseObject({}),
	}
}

const rest = bodies('rest')
const isDictOrNull = (x: unknown) => x === null || (typeof x === 'object' && !Array.isArray(x))

/**
 * The REST routes' bodies (valibot, issue 44): the rules above, validated by the route and worded as
 * DRF's field errors; the handler gets the output (trimmed, NFC, the phone number's digits).
 */
export const RestBodies = {
	/** `POST /api/userbots/`: the proxy's own fields are checked by the handler (`parseProxyBody`), nested under `proxy`. */
	create: v.looseObject(
		{
			name: rest.create.entries.name,
			proxy: v.optional(
				documentedAs(
					v.custom<Record<string, unknown> | null>(isDictOrNull, 'Invalid data. Expected a dictionary.'),
					S.ProxySet,
				),
			),
		},
		missing('rest'),
	),
}
