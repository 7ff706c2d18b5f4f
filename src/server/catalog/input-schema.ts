import { toJsonSchema } from '@valibot/to-json-schema'
import type * as v from 'valibot'
import type { InputSchema } from '../commands/define'
import { FIELD_DOC, type FieldDoc, type JsonSchema } from '../commands/fields'

/**
 * A command's input as JSON Schema (draft-07). Our field helpers are `v.unknown()` with checks and
 * transforms, which say nothing a converter can read; each carries its JSON Schema as metadata
 * (`FIELD_DOC`), and what `documented()` adds merges over it. A field with no such metadata (a
 * plain valibot schema, as another group may write) goes through valibot's own converter,
 * `@valibot/to-json-schema`, in input mode: what a client sends, before any transform.
 */

// A loose view of valibot's schema objects: what the walk reads (pipes, wrapped schemas, messages).
interface Node {
	kind?: string
	type?: string
	pipe?: readonly Node[]
	wrapped?: Node
	entries?: Record<string, Node>
	message?: unknown
	metadata?: Record<string, unknown>
	default?: unknown
}

const OPTIONAL = new Set(['optional', 'exact_optional', 'nullish'])

/**
 * The object schema of a command's input: the input itself, or the last object schema with fields in
 * its pipe (a pipe may check the frame as a whole before its fields).
 */
export function objectOf(input: InputSchema): Node | null {
	const node = input as unknown as Node
	const found: Node[] = []
	const visit = (n: Node) => {
		if (n.pipe) {
			for (const item of n.pipe) if (item !== n && item.kind === 'schema') visit(item)
		} else if (n.entries) {
			found.push(n)
		}
	}
	visit(node)
	return found.filter((n) => Object.keys(n.entries ?? {}).length > 0).at(-1) ?? found.at(-1) ?? null
}

/** Every `FIELD_DOC` under a field, inner first: the later (outer) ones merge over the earlier. */
function docsOf(node: Node, into: FieldDoc[] = []): FieldDoc[] {
	if (node.pipe) {
		for (const item of node.pipe) {
			if (item.kind === 'schema') docsOf(item, into)
			else if (item.type === 'metadata' && item.metadata?.[FIELD_DOC])
				into.push(item.metadata[FIELD_DOC] as FieldDoc)
		}
	} else if (node.wrapped) {
		docsOf(node.wrapped, into)
	}
	return into
}

export interface FieldSchema {
	schema: JsonSchema
	required: boolean
}

/** One field's JSON Schema and whether a frame must carry it. */
export function fieldSchema(entry: v.GenericSchema): FieldSchema {
	const node = entry as unknown as Node
	const docs = docsOf(node)
	if (docs.length > 0) {
		let schema: JsonSchema = {}
		let required = false
		for (const d of docs) {
			schema = { ...schema, ...d.schema }
			if (d.required !== undefined) required = d.required
		}
		return { schema, required }
	}
	const { $schema: _, ...schema } = toJsonSchema(entry, {
		typeMode: 'input',
		// Checks (`v.check`) say nothing JSON Schema can: the type and the named actions are what is told.
		ignoreActions: ['check', 'raw_check', 'check_items', 'raw_transform'],
		errorMode: 'ignore',
	}) as JsonSchema
	return { schema, required: !OPTIONAL.has(node.type ?? '') }
}

/** The whole input: an object of the command's fields; other fields of the frame are ignored. */
export function inputSchema(input: InputSchema): JsonSchema {
	const object = objectOf(input)
	if (!object?.entries) return { type: 'object' }
	const properties: Record<string, JsonSchema> = {}
	const required: string[] = []
	for (const [name, entry] of Object.entries(object.entries)) {
		const field = fieldSchema(entry as unknown as v.GenericSchema)
		properties[name] = field.schema
		if (field.required) required.push(name)
	}
	return {
		type: 'object',
		properties,
		...(required.length > 0 ? { required } : {}),
		// The envelope's own fields (action, userbot_id, request_id) ride beside them.
		additionalProperties: true,
	}
}

/**
 * The wire strings the input schema can answer, in schema order: every message a check or schema
 * carries as text (the helpers word each one), and those a field's doc lists (a TDLib object field's
 * one message).
 */
export function inputErrors(input: InputSchema): string[] {
	const out = new Set<string>()
	const visit = (node: Node, depth: number) => {
		if (depth > 20) return
		if (typeof node.message === 'string' && node.message !== '') out.add(node.message)
		if (node.type === 'metadata') {
			const d = node.metadata?.[FIELD_DOC] as FieldDoc | undefined
			for (const e of d?.errors ?? []) out.add(e)
		}
		for (const item of node.pipe ?? []) if (item !== node) visit(item, depth + 1)
		if (node.wrapped) visit(node.wrapped, depth + 1)
		for (const entry of Object.values(node.entries ?? {})) visit(entry, depth + 1)
	}
	visit(input as unknown as Node, 0)
	// A field that words none of its issues is answered `<field> is invalid` (never valibot's sentence).
	for (const [name, entry] of Object.entries(objectOf(input)?.entries ?? {})) {
		if (docsOf(entry).length === 0 && !hasMessage(entry)) out.add(`${name} is invalid`)
	}
	return [...out]
}

/** The fields whose failures name a path as they go (TDLib objects): `reply_to`, `options`... */
export function inputErrorFields(input: InputSchema): string[] {
	const out: string[] = []
	for (const entry of Object.values(objectOf(input)?.entries ?? {})) {
		for (const d of docsOf(entry))
			if (d.errorsNaming && !out.includes(d.errorsNaming)) out.push(d.errorsNaming)
	}
	return out
}

function hasMessage(node: Node): boolean {
	if (typeof node.message === 'string') return true
	return (
		(node.pipe ?? []).some((n) => n !== node && hasMessage(n)) ||
		(node.wrapped ? hasMessage(node.wrapped) : false)
	)
}
