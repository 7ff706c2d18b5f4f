import { toJsonSchema } from '@valibot/to-json-schema'
import * as v from 'valibot'
import { FIELD_MESSAGES } from './field-messages'
import { INVALID_VALUE } from './field-schema'

/**
 * A route's body as one valibot schema (issue 44, one schema language): it validates the body,
 * words its 400 as Django REST framework's field errors from its own messages, hands the handler
 * its output (the stored form: trimmed, NFC...), and is the document's request body (JSON Schema
 * by `@valibot/to-json-schema`, what a client sends, before any transform). A field whose JSON the
 * converter cannot say (a check valibot cannot export) carries it as metadata (`documentedAs`).
 */

/** An object schema of a body: its fields, each with its rules and DRF's words for them. */
export type BodySchema = v.GenericSchema<Record<string, unknown>, Record<string, unknown>>

/** Where a field keeps the JSON Schema the document shows of it. */
const DOC = 'userbot-gateway.openapi'

/** Whether a route's schema is valibot's (TypeBox's answers stay TypeBox until they move too). */
export const isValibot = (schema: unknown): schema is v.GenericSchema =>
	typeof schema === 'object' &&
	schema !== null &&
	(schema as { kind?: unknown }).kind === 'schema' &&
	'~standard' in schema

/** A field documented as `json`: its rules are the schema's, the document shows `json`. */
export const documentedAs = <S extends v.GenericSchema>(schema: S, json: object) =>
	v.pipe(schema, v.metadata({ [DOC]: json }))

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
export function checkBody(
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
	for (const item of [...(node.pipe ?? [])].reverse())
		if (item.type === 'metadata' && item.metadata?.[DOC]) return item.metadata[DOC] as Json
	return node.wrapped ? docOf(node.wrapped) : undefined
}

/** A pipe's items, nested pipes laid flat (as the converter reads them). */
const flat = (items: readonly Node[]): Node[] =>
	items.flatMap((item, i) => (i > 0 && item.kind === 'schema' && item.pipe ? flat(item.pipe) : [item]))

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

/** A route's body as the document shows it: a valibot body's JSON Schema, a TypeBox one's own JSON. */
export const bodyJson = (schema: unknown): Json =>
	isValibot(schema) ? bodyJsonSchema(schema) : (JSON.parse(JSON.stringify(schema)) as Json)
