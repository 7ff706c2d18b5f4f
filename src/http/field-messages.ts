/**
 * Django REST framework's messages for a field, word for word (docs/rest.md#conventions): the body
 * checks (src/http/field-schema.ts) and the auth core's wire strings (src/auth/errors.ts) share them.
 */
export const FIELD_MESSAGES = {
	required: 'This field is required.',
	notString: 'Not a valid string.',
	blank: 'This field may not be blank.',
	maxLength: (n: number) => `Ensure this field has no more than ${n} characters.`,
	invalidEmail: 'Enter a valid email address.',
} as const
