import { type OverrideSchemaContext, toJsonSchema } from '@valibot/to-json-schema'
import type * as v from 'valibot'

/**
 * Any valibot schema of ours (a body, an answer, a path's parameters) as the documents show it:
 * JSON Schema by `@valibot/to-json-schema` (issue 44, one schema language), in the forms the
 * documents have always had. A part documented as its own JSON (`documentedAs`, src/server/http/body-schema.ts)
 * is that JSON wherever it sits; checks JSON Schema cannot say are left out (they still run).
 */

type Json = Record<string, unknown>

/** Where a field keeps the JSON Schema the document shows of it (`documentedAs`). */
export const DOC = 'userbot-gateway.openapi'

interface Node {
	type?: string
	literal?: unknown
}

/**
 * A part documented as its own JSON: the converter copies a metadata action's keys into the part's
 * JSON (and does not ask `overrideSchema` of a pipe), so the part's JSON is replaced by that key's.
 */
function withOwnJson(json: unknown): unknown {
	if (Array.isArray(json)) return json.map(withOwnJson)
	if (typeof json !== 'object' || json === null) return json
	const own = (json as Json)[DOC]
	if (own) return JSON.parse(JSON.stringify(own)) as Json
	return Object.fromEntries(Object.entries(json).map(([key, value]) => [key, withOwnJson(value)]))
}

/**
 * The forms the documents keep: a constant with its JSON type beside it (`{const: true, type:
 * "boolean"}`), an object with no required field without an empty `required`, a map of strings
 * (`v.record(v.string(), ...)`) as `additionalProperties` alone (every JSON key is a string).
 */
function documented({ valibotSchema, jsonSchema }: OverrideSchemaContext): Json | undefined {
	const node = valibotSchema as unknown as Node
	const json = { ...(jsonSchema as Json) }
	if (node.type === 'literal' && 'const' in json && !('type' in json)) json.type = typeof node.literal
	if (Array.isArray(json.required) && json.required.length === 0) delete json.required
	if (node.type === 'record') delete json.propertyNames
	return json
}

/** The JSON Schema of a valibot schema, as the documents show it (without `$schema`). */
export function schemaJson(schema: v.GenericSchema): Json {
	const { $schema: _, ...json } = toJsonSchema(schema, {
		ignoreActions: ['check', 'raw_check', 'check_items'],
		errorMode: 'ignore',
		overrideSchema: documented as never,
	}) as Json
	return withOwnJson(json) as Json
}
