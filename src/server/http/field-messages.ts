/**
 * Django REST framework's messages for a field, word for word (docs/rest.md#conventions): the body
 * checks (src/server/http/body-schema.ts, field-rule.ts), the query checks (src/server/http/query.ts) and the auth core's wire
 * strings (src/server/auth/errors.ts) share them.
 */
export const FIELD_MESSAGES = {
	required: 'This field is required.',
	notString: 'Not a valid string.',
	blank: 'This field may not be blank.',
	maxLength: (n: number) => `Ensure this field has no more than ${n} characters.`,
	invalidEmail: 'Enter a valid email address.',
	/** ChoiceField: a value not among the choices. */
	invalidChoice: 'Select a valid choice. That choice is not one of the available choices.',
	/** IntegerField: not an integer at all. */
	notInteger: 'A valid integer is required.',
	/** IntegerField: an integer past its bounds (`max_value`, `min_value`). */
	maxValue: (n: number) => `Ensure this value is less than or equal to ${n}.`,
	minValue: (n: number) => `Ensure this value is greater than or equal to ${n}.`,
	/** IntegerField: more characters than it reads (`max_string_length`, 1000). */
	tooLarge: 'String value too large.',
} as const
