import { secretFault, TEXT_FAULT_MESSAGES, textFault } from '../../common/util/text'
import { FIELD_MESSAGES as MESSAGES } from './field-messages'

/**
 * The rules of the account fields (e-mail, password, name, token) as Django REST framework's
 * serializers check them, and their words (docs/plugins.md#routes-as-data): what JSON Schema cannot
 * say as we need it (src/common/util/text.ts: control characters and lone surrogates; blank;
 * Django's e-mail test; an optional field sent as `null` is absent, as DRF reads it). The valibot
 * fields of src/server/http/body-schema.ts (`AccountFields`) check by them.
 */

export interface FieldRule {
	max: number
	kind: 'email' | 'name' | 'secret' | 'token'
	optional?: boolean
	allowBlank?: boolean
}

/** DRF's generic field error: what a client reads when a rule did not word a problem itself. */
export const INVALID_VALUE = 'Invalid value.'

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** The first problem of a value for a field, in DRF's order (type, length, text, blank, e-mail); null when fine. */
export function ruleFault(rule: FieldRule, value: unknown): string | null {
	if (value === undefined || value === null) {
		if (rule.optional) return null
		return value === null ? 'This field may not be null.' : MESSAGES.required
	}
	if (typeof value !== 'string') return MESSAGES.notString
	if (value.length > rule.max) return MESSAGES.maxLength(rule.max)
	const fault = rule.kind === 'token' ? null : rule.kind === 'secret' ? secretFault(value) : textFault(value)
	if (fault) return TEXT_FAULT_MESSAGES[fault]
	if (rule.allowBlank !== true && value.trim() === '') return MESSAGES.blank
	if (rule.kind === 'email' && !EMAIL.test(value.trim())) return MESSAGES.invalidEmail
	return null
}
