import * as v from 'valibot'

/**
 * The bodies of the log-in steps, checked with one set of rules for both faces: REST words its
 * field errors as Django REST framework does, the WebSocket commands as ws-commands §7 does.
 */
export type Face = 'rest' | 'ws'

const MESSAGES = {
	rest: {
		required: (_field: string) => 'This field is required.',
		string: (_field: string) => 'Not a valid string.',
		blank: (_field: string) => 'This field may not be blank.',
		long: (_field: string, max: number) => `Ensure this field has no more than ${max} characters.`,
		phone: 'Enter a valid phone number.',
	},
	ws: {
		required: (field: string) => `${field} is required`,
		string: (field: string) => `${field} must be a string`,
		blank: (field: string) => `${field} must not be empty`,
		long: (field: string, max: number) => `${field} must be at most ${max} characters`,
		phone: 'phone_number is not a valid phone number',
	},
} as const

const missing = (face: Face) => (issue: v.BaseIssue<unknown>) => {
	const key = issue.path?.[0]?.key
	return typeof key === 'string' ? MESSAGES[face].required(key) : 'Expected an object'
}

const text = (face: Face, field: string, max: number, trim = true) =>
	v.pipe(
		v.string(MESSAGES[face].string(field)),
		v.transform((s: string) => (trim ? s.trim() : s)),
		v.minLength(1, MESSAGES[face].blank(field)),
		v.maxLength(max, MESSAGES[face].long(field, max)),
	)

/** Telegram takes international numbers; spaces, dashes, dots and brackets are dropped. */
const phone = (face: Face) =>
	v.pipe(
		text(face, 'phone_number', 32),
		v.transform((s: string) => s.replace(/[\s().-]/g, '')),
		v.regex(/^\+?\d{5,15}$/, MESSAGES[face].phone),
		v.transform((s: string) => s.replace(/^\+/, '')),
	)

export const bodies = (face: Face) => ({
	create: v.looseObject(
		{
			name: v.optional(
				v.pipe(
					v.string(MESSAGES[face].string('name')),
					v.trim(),
					v.maxLength(128, MESSAGES[face].long('name', 128)),
				),
				'',
			),
		},
		missing(face),
	),
	phone: v.looseObject({ phone_number: phone(face) }, missing(face)),
	code: v.looseObject({ code: text(face, 'code', 32) }, missing(face)),
	// Passwords are taken as typed: spaces may be part of them.
	password: v.looseObject({ password: text(face, 'password', 256, false) }, missing(face)),
	registration: v.looseObject(
		{
			first_name: text(face, 'first_name', 64),
			last_name: v.optional(
				v.pipe(
					v.string(MESSAGES[face].string('last_name')),
					v.trim(),
					v.maxLength(64, MESSAGES[face].long('last_name', 64)),
				),
				'',
			),
		},
		missing(face),
	),
	none: v.looseObject({}),
})
