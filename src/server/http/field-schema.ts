import { Kind, type TSchema, TypeRegistry, Type as t } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import {
	normalizeEmail,
	normalizeText,
	secretFault,
	TEXT_FAULT_MESSAGES,
	textFault,
} from '../../common/util/text'
import { FIELD_MESSAGES as MESSAGES } from './field-messages'

/**
 * Body schemas that validate as Django REST framework's serializers do and answer in its words
 * (docs/plugins.md#routes-as-data). A route's TypeBox body schema is checked by Elysia; when it
 * fails, `fieldErrors` words the 400 `{"<field>": ["message"]}` from the same schema, one message
 * per field, never quoting what was sent.
 *
 * The account fields (e-mail, password, name, token) are a TypeBox kind of our own, `DrfField`: in
 * JSON (the OpenAPI document) a plain `{type: "string", maxLength}`, while the check carries the
 * rules JSON Schema cannot say as we need them (src/common/util/text.ts: control characters and lone surrogates;
 * blank; Django's e-mail test; an optional field sent as `null` is absent, as DRF reads it).
 */

export const FIELD_KIND = 'DrfField'
/** Where a schema keeps its rules and its own wording: symbols, so the JSON (the document) stays as it was. */
const RULE = Symbol.for('userbot-gateway.drf-field')
const WORDING = Symbol.for('userbot-gateway.drf-message')

export interface FieldRule {
	max: number
	kind: 'email' | 'name' | 'secret' | 'token'
	optional?: boolean
	allowBlank?: boolean
}

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

// The kind's check: registered once, a pure function of the schema and the value (no state of ours).
if (!TypeRegistry.Has(FIELD_KIND))
	TypeRegistry.Set(FIELD_KIND, (schema, value) => ruleFault((schema as FieldSchema)[RULE], value) === null)

type FieldSchema = TSchema & { [RULE]: FieldRule }

const field = (rule: FieldRule, options: Record<string, unknown> = {}) =>
	t.Unsafe<string>({ [Kind]: FIELD_KIND, maxLength: rule.max, ...options, type: 'string', [RULE]: rule })

/**
 * The account fields as DRF's serializers check them. An optional one is also wrapped in
 * `t.Optional` where it sits in an object: `Fields.name()` alone only says how it is checked.
 */
export const Fields = {
	email: (options?: Record<string, unknown>) => field({ max: 254, kind: 'email' }, options),
	password: (options?: Record<string, unknown>) => field({ max: 128, kind: 'secret' }, options),
	token: (options?: Record<string, unknown>) => field({ max: 512, kind: 'token' }, options),
	/** A name: optional, may be blank, trimmed. */
	name: (options?: Record<string, unknown>) =>
		field({ max: 150, kind: 'name', optional: true, allowBlank: true }, options),
	/** Any of the above with a rule of its own (an optional e-mail, another length). */
	custom: (rule: FieldRule, options?: Record<string, unknown>) => field(rule, options),
}

export const CHECKED_KIND = 'DrfChecked'
const FAULT = Symbol.for('userbot-gateway.drf-fault')
type Fault = (value: unknown) => string | null
type CheckedSchema = TSchema & { [FAULT]: Fault }

// Registered once, as the field kind: the check is the schema's own fault function, nothing of ours.
if (!TypeRegistry.Has(CHECKED_KIND))
	TypeRegistry.Set(CHECKED_KIND, (schema, value) => (schema as CheckedSchema)[FAULT](value) === null)

/**
 * A schema checked by a function that words its own fault (the first message of a valibot schema,
 * say), for rules the JSON cannot say as DRF words them (a list's items, a date `Date.parse` reads):
 * validated and answered by it, documented as `schema` (its JSON stays as it was). The fault never
 * quotes the value.
 */
export const checkedBy = <S extends TSchema>(schema: S, fault: Fault): S =>
	({ ...schema, [Kind]: CHECKED_KIND, [FAULT]: fault }) as S

/** A schema's own words for what fails it: `null` sent, a value of another JSON type, any other problem. */
export interface Wording {
	null?: string
	type?: string
	invalid: string
}

/** A copy of a schema with its own wording (DRF's for a choice, for instance); the JSON stays as it was. */
export const worded = <S extends TSchema>(schema: S, wording: Wording): S => ({
	...schema,
	[WORDING]: wording,
})

const propertiesOf = (schema: TSchema): Record<string, TSchema> =>
	(schema as { properties?: Record<string, TSchema> }).properties ?? {}
const requiredOf = (schema: TSchema): Set<string> =>
	new Set((schema as { required?: string[] }).required ?? [])

/** DRF's message for a value of the wrong JSON type, by the type the schema wants. */
const typeMessages = (): Record<string, string> => ({
	string: MESSAGES.notString,
	integer: 'A valid integer is required.',
	number: 'A valid number is required.',
	boolean: 'Must be a valid boolean.',
	object: 'Invalid data. Expected a dictionary.',
	array: 'Expected a list of items.',
})
export const INVALID_VALUE = 'Invalid value.'

/** A JSON value's type as JSON Schema names it (an integral number is an integer). */
function jsonType(value: unknown): string {
	if (Array.isArray(value)) return 'array'
	if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
	return typeof value
}

/** The message of one field that failed its schema: its own wording, or DRF's by what failed. */
function messageOf(schema: TSchema, value: unknown, required: boolean): string {
	const rule = (schema as Partial<FieldSchema>)[RULE]
	if (rule) return ruleFault(rule, value) ?? INVALID_VALUE
	const fault = (schema as Partial<CheckedSchema>)[FAULT]
	if (fault) return fault(value) ?? INVALID_VALUE
	if (value === undefined && required) return MESSAGES.required
	const own = (schema as { [WORDING]?: Wording })[WORDING]
	if (value === null) return own?.null ?? 'This field may not be null.'
	if (own?.type && typeof value !== 'string') return own.type
	if (own) return own.invalid
	const type = (schema as { type?: unknown }).type
	const typeMessage = typeof type === 'string' ? typeMessages()[type] : undefined
	if (typeMessage && jsonType(value) !== type) return typeMessage
	const max = (schema as { maxLength?: number }).maxLength
	if (typeof value === 'string' && max !== undefined && value.length > max) return MESSAGES.maxLength(max)
	return INVALID_VALUE
}

/**
 * The field errors of a body against an object schema, in the schema's order, one message per field
 * (DRF stops at a field's first problem). Empty when the body passes.
 */
export function fieldErrors(schema: TSchema, body: Record<string, unknown>): Record<string, string[]> {
	const required = requiredOf(schema)
	const errors: Record<string, string[]> = {}
	for (const [name, property] of Object.entries(propertiesOf(schema))) {
		const value = body[name]
		const rule = (property as Partial<FieldSchema>)[RULE]
		// An optional field sent as null is absent to DRF's `required=False` fields of ours.
		if (value === undefined && !required.has(name)) continue
		if (value === null && rule?.optional && !required.has(name)) continue
		if (Value.Check(property, value) && !(value === undefined && required.has(name))) continue
		errors[name] = [messageOf(property, value, required.has(name))]
	}
	if (Object.keys(errors).length === 0 && !Value.Check(schema, body))
		errors.non_field_errors = [INVALID_VALUE]
	return errors
}

/** The body's account fields in their stored form (an e-mail trimmed and lower-cased, a name trimmed, NFC); null ones dropped. */
export function normalizeFields<B>(schema: TSchema, body: B): B {
	const out = { ...(body as Record<string, unknown>) }
	for (const [name, property] of Object.entries(propertiesOf(schema))) {
		const rule = (property as Partial<FieldSchema>)[RULE]
		const value = out[name]
		if (!rule) continue
		if (value === null) delete out[name]
		else if (typeof value === 'string')
			out[name] =
				rule.kind === 'email' ? normalizeEmail(value) : rule.kind === 'name' ? normalizeText(value) : value
	}
	return out as B
}
