import { toJsonSchema } from '@valibot/to-json-schema'
import * as v from 'valibot'
import { normalizeEmail, normalizeText } from '../../common/util/text'
import { FIELD_MESSAGES } from './field-messages'
import { type FieldRule, INVALID_VALUE, ruleFault } from './field-rule'
import { DOC, schemaJson } from './schema-json'

/**
 * A route's body as one valibot schema (issue 44, one schema language): it validates the body,
 * words its 400 as Django REST framework's field errors from its own messages, hands the handler
 * its output (the stored form: trimmed, NFC...), and is the document's request body (JSON Schema
 * by `@valibot/to-json-schema`, what a client sends, before any transform). A field whose JSON the
 * converter cannot say (a check valibot cannot export) carries it as metadata (`documentedAs`).
 */

/** An object schema of a body: its fields, each with its rules and DRF's words for them. */
export type BodySchema = v.GenericSchema<Record<string, unknown>, Record<string, unknown>>

/** Whether a schema is valibot's, the one schema language of routes (src/server/http/route-schemas.ts). */
export const isValibot = (schema: unknown): schema is v.GenericSchema =>
	typeof schema === 'object' &&
	schema !== null &&
	(schema as { kind?: unknown }).kind === 'schema' &&
	(schema as { '~standard'?: { vendor?: unknown } })['~standard']?.vendor === 'valibot'

/**
 * A field documented as `json` (JSON Schema, or a valibot schema whose JSON it is): its rules are
 * the schema's, the document shows `json`.
 */
export const documentedAs = <S extends v.GenericSchema>(schema: S, json: object) =>
	v.pipe(schema, v.metadata({ [DOC]: isValibot(json) ? schemaJson(json) : json }))

/**
 * A field checked by a function that words its own fault (never quoting the value), documented as
 * `json`: for the rules JSON Schema cannot say as DRF words them (a list's items, a date
 * `Date.parse` reads). `T` is what a passing value is.
 */
export const faulted = <T>(fault: (value: unknown) => string | null, json: object) =>
	documentedAs(
		v.pipe(
			v.custom<T>(() => true),
			v.rawCheck<T>(({ dataset, addIssue }) => {
				const message = fault(dataset.value)
				if (message !== null) addIssue({ message })
			}),
		),
		json,
	)

/** The object's message: a missing field is DRF's `This field is required.` (a body is always an object here). */
export const requiredField = () => FIELD_MESSAGES.required

/**
 * The body checked: its output, or the field errors `{"<field>": ["message"]}` in the schema's
 * order, one message per field (DRF stops at a field's first problem), never quoting the value.
 * What no rule words is DRF's `Invalid value.`; a problem of no one field is `non_field_errors`.
 */
export function validateBody(
	schema: v.GenericSchema,
	body: unknown,
): { ok: true; output: unknown } | { ok: false; errors: Record<string, string[]> } {
	const parsed = v.safeParse(schema, body, { message: () => INVALID_VALUE })
	if (parsed.success) return { ok: true, output: parsed.output }
	const errors: Record<string, string[]> = {}
	for (const issue of parsed.issues) {
		const key = issue.path?.[0]?.key
		errors[typeof key === 'string' ? key : 'non_field_errors'] ??= [issue.message]
	}
	return { ok: false, errors }
}

type Json = Record<string, unknown>
interface Node {
	kind?: string
	type?: string
	pipe?: readonly Node[]
	wrapped?: Node
	entries?: Record<string, Node>
	metadata?: Record<string, unknown>
}
const OPTIONAL = new Set(['optional', 'exact_optional', 'nullish'])

/** A field's own JSON (`documentedAs`), outer over inner, or none. */
function docOf(node: Node): Json | undefined {
	for (const item of flat(node.pipe ?? []).reverse())
		if (item.type === 'metadata' && item.metadata?.[DOC]) return item.metadata[DOC] as Json
	return node.wrapped ? docOf(node.wrapped) : undefined
}

/** A pipe's items, nested pipes laid flat (as the converter reads them). */
const flat = (items: readonly Node[]): Node[] =>
	items.flatMap((item) => (item.kind === 'schema' && item.pipe ? flat(item.pipe) : [item]))

/**
 * What the document tells of a pipe: what holds of the value as sent (the items before the first
 * transform), and the length bounds after it (DRF's: counted on the trimmed text); a pattern on the
 * cleaned value (a phone number's digits) says nothing of what is sent.
 */
function asSent(node: Node): Node {
	if (!node.pipe) return node
	const items = flat(node.pipe)
	const first = items.findIndex((item, i) => i > 0 && item.kind === 'transformation')
	if (first === -1) return { ...node, pipe: items }
	const bounds = items.slice(first).filter((i) => i.type === 'min_length' || i.type === 'max_length')
	return { ...node, pipe: [...items.slice(0, first), ...bounds] }
}

/** One field's JSON Schema: its own (`documentedAs`), or valibot's converter's (checks say nothing JSON can). */
function fieldJson(node: Node): Json {
	const own = docOf(node)
	if (own) return JSON.parse(JSON.stringify(own)) as Json
	const inner = OPTIONAL.has(node.type ?? '') && node.wrapped ? node.wrapped : node
	const { $schema: _, ...schema } = toJsonSchema(asSent(inner) as unknown as v.GenericSchema, {
		ignoreActions: ['check', 'raw_check', 'check_items'],
		errorMode: 'ignore',
	}) as Json
	return schema
}

/** The body's JSON Schema, as the document shows a request body: its fields and the required ones. */
export function bodyJsonSchema(schema: v.GenericSchema): Json {
	const node = schema as unknown as Node
	const object = node.entries ? node : (node.pipe ?? []).find((n) => n.entries)
	const properties: Record<string, Json> = {}
	const required: string[] = []
	for (const [name, entry] of Object.entries(object?.entries ?? {})) {
		properties[name] = fieldJson(entry)
		if (!OPTIONAL.has(entry.type ?? '')) required.push(name)
	}
	return { type: 'object', ...(required.length > 0 ? { required } : {}), properties }
}

/**
 * A route's body as the document shows it, from a route's hooks (`unknown` there): valibot's, as the
 * start-up check made sure (src/server/http/route-schemas.ts).
 */
export const bodyJson = (schema: unknown): Json => bodyJsonSchema(schema as v.GenericSchema)

/**
 * A field checked by `fault`, then told as `json` by the document, its value handed on as `stored`
 * makes it: the account fields, and the choices DRF words as `Select a valid choice...`.
 */
const stored = <T>(
	fault: (value: unknown) => string | null,
	json: object,
	store: (value: T) => T = (x) => x,
) =>
	v.pipe(
		faulted<T>(fault, json),
		v.transform((x: T) => (x === null ? undefined : store(x)) as T),
	)

/** One account field as DRF checks it (src/server/http/field-rule.ts `ruleFault`), in its stored form. */
const account = (rule: FieldRule, options: Record<string, unknown> = {}) =>
	stored<string>(
		(x) => ruleFault(rule, x),
		{ maxLength: rule.max, ...options, type: 'string' },
		rule.kind === 'email' ? normalizeEmail : rule.kind === 'name' ? normalizeText : (x) => x,
	)

/**
 * The account fields as DRF's serializers check them (e-mail 254, password 128, token 512, name
 * 150: optional, may be blank), documented as strings with a length; an optional one is also
 * wrapped in `v.optional` where it sits in an object, and one sent as `null` is absent.
 */
export const AccountFields = {
	email: (options?: Record<string, unknown>) => account({ max: 254, kind: 'email' }, options),
	password: (options?: Record<string, unknown>) => account({ max: 128, kind: 'secret' }, options),
	token: (options?: Record<string, unknown>) => account({ max: 512, kind: 'token' }, options),
	name: (options?: Record<string, unknown>) =>
		account({ max: 150, kind: 'name', optional: true, allowBlank: true }, options),
	custom: (rule: FieldRule, options?: Record<string, unknown>) => account(rule, options),
}

/** A choice among `allowed` worded as DRF's ChoiceField: null is a missing one, another type not a string. */
export const choice = (allowed: (x: string) => boolean, json: object) =>
	stored<string>((x) => {
		if (x === undefined || x === null) return FIELD_MESSAGES.required
		if (typeof x !== 'string') return FIELD_MESSAGES.notString
		return allowed(x) ? null : FIELD_MESSAGES.invalidChoice
	}, json)

const dropAbsent = (body: Record<string, unknown>) =>
	Object.fromEntries(Object.entries(body).filter(([, x]) => x !== undefined))

/**
 * A body of these fields: its other fields are dropped (as DRF's serializers ignore them), a field
 * sent as `null` where it may be absent is absent.
 */
export const drfBody = <E extends v.ObjectEntries>(entries: E) => {
	const object = v.object(entries, requiredField)
	type Out = v.InferOutput<typeof object>
	return v.pipe(object, v.transform(dropAbsent as (x: Out) => Out))
}

/**
 * Each field of a body checked on its own: the errors of those that fail, in the schema's order,
 * and the stored form of those that pass (check-password/ answers both).
 */
export function fieldOutcomes(schema: v.GenericSchema, body: Record<string, unknown>) {
	const node = schema as unknown as Node
	const object = node.entries ? node : flat(node.pipe ?? []).find((n) => n.entries)
	const errors: Record<string, string[]> = {}
	const values: Record<string, unknown> = {}
	for (const [name, entry] of Object.entries(object?.entries ?? {})) {
		const parsed = v.safeParse(entry as unknown as v.GenericSchema, body[name], {
			message: () => INVALID_VALUE,
		})
		if (parsed.success) values[name] = parsed.output
		else errors[name] = [parsed.issues[0]?.message ?? INVALID_VALUE]
	}
	return { errors, values }
}
