/**
 * JSON Schema (the subset our API documents use) → a TypeScript type, as text. What it does not know
 * becomes `unknown`, never `any`: a consumer is told to check, not trusted to guess.
 */
export type Schema = {
	type?: string | string[]
	properties?: Record<string, Schema>
	required?: string[]
	additionalProperties?: boolean | Schema
	patternProperties?: Record<string, Schema>
	items?: Schema
	anyOf?: Schema[]
	oneOf?: Schema[]
	const?: unknown
	enum?: unknown[]
	description?: string
	format?: string
	$ref?: string
	tdlib_types?: string[]
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/

export const propertyKey = (name: string) => (IDENT.test(name) ? name : JSON.stringify(name))

export interface TsOptions {
	/** `{type: string, format: binary}`: what a file is in this position (`Blob`, `unknown`). */
	binary?: string
	/** Objects with `additionalProperties: true` stay closed (a command's input: a typo is an error). */
	closeObjects?: boolean
	/** `#/components/schemas/X` → the type name to use. */
	ref?(ref: string): string
}

export function schemaToTs(schema: Schema | undefined, opts: TsOptions = {}, depth = 0): string {
	if (!schema) return 'unknown'
	if (schema.$ref) return opts.ref ? opts.ref(schema.$ref) : 'unknown'
	if (schema.tdlib_types?.length) return schema.tdlib_types.map((t) => `Td.${t}`).join(' | ')
	if ('const' in schema) return JSON.stringify(schema.const)
	if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' | ') || 'never'
	const alternatives = schema.anyOf ?? schema.oneOf
	if (alternatives) return union(alternatives.map((s) => schemaToTs(s, opts, depth)))
	const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []
	if (types.length > 1) return union(types.map((t) => schemaToTs({ ...schema, type: t }, opts, depth)))
	switch (types[0]) {
		case 'string':
			return schema.format === 'binary' ? (opts.binary ?? 'unknown') : 'string'
		case 'integer':
		case 'number':
			return 'number'
		case 'boolean':
			return 'boolean'
		case 'null':
			return 'null'
		case 'array':
			return `Array<${schemaToTs(schema.items, opts, depth)}>`
		case 'object':
			return objectToTs(schema, opts, depth)
		default:
			return schema.properties ? objectToTs(schema, opts, depth) : 'unknown'
	}
}

function union(parts: string[]): string {
	const unique = [...new Set(parts)]
	return unique.includes('unknown') ? 'unknown' : unique.join(' | ')
}

function objectToTs(schema: Schema, opts: TsOptions, depth: number): string {
	const pad = '\t'.repeat(depth + 1)
	const required = new Set(schema.required ?? [])
	// Only the outermost object is closed: TDLib objects inside take their other fields.
	const nested = { ...opts, closeObjects: false }
	const lines = Object.entries(schema.properties ?? {}).map(([name, prop]) => {
		const doc = prop.description ? `${pad}/** ${prop.description.replace(/\*\//g, '* /')} */\n` : ''
		const optional = required.has(name) ? '' : '?'
		return `${doc}${pad}${propertyKey(name)}${optional}: ${schemaToTs(prop, nested, depth + 1)}`
	})
	const extra = [
		...Object.values(schema.patternProperties ?? {}),
		...(typeof schema.additionalProperties === 'object' ? [schema.additionalProperties] : []),
	]
	if (extra.length) {
		const value = union(extra.map((s) => schemaToTs(s, nested, depth + 1)))
		// An index signature must admit every named property too.
		lines.push(`${pad}[key: string]: ${lines.length ? 'unknown' : value}`)
	} else if (schema.additionalProperties === true && !opts.closeObjects) {
		lines.push(`${pad}[key: string]: unknown`)
	}
	if (!lines.length)
		return schema.additionalProperties === false ? 'Record<string, never>' : 'Record<string, unknown>'
	return `{\n${lines.join('\n')}\n${'\t'.repeat(depth)}}`
}
