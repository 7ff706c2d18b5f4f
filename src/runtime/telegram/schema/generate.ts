import { dirname, join } from 'node:path'
import ts from 'typescript'
import type { TdFunction, TdSchema, TlType } from './types'

/**
 * Builds `tdlib-schema.json`, the TDLib 1.8.65 input schema every client object and every emulator
 * request is checked against, from two sources and no hand-written list:
 * 1. `@prebuilt-tdlib/types` (the `.d.ts` generated from TDLib's `td_api.tl`): every constructor a
 *    request may carry (`name$Input`), its fields, the classes (unions) it belongs to, every function
 *    and its result. The `.d.ts` writes int32, int53 and double alike as `number`, so
 * 2. real TDLib (prebuilt-tdlib, a bare client that never receives its parameters, so it never goes
 *    on the network and executes nothing) is asked about each number field: TDLib's JSON parser
 *    answers `Can't parse as an integer string` for 1.5 in an integer field and for 2^31 in an int32.
 *
 * `npm run td-schema` (src/entry/td-schema.ts) rewrites the file; `--check` exits 1 when the committed file
 * differs from what the sources give (the test suite runs the structural part of that check).
 */

const HERE = dirname(new URL(import.meta.url).pathname)
export const SCHEMA_FILE = join(HERE, 'tdlib-schema.json')
export const TYPES_FILE = join(HERE, '../../../node_modules/@prebuilt-tdlib/types/tdlib-types.d.ts')

const INPUT = '$Input'

/** Field types of the `.d.ts`, in TL notation; `number` until real TDLib says which number. */
function fieldType(node: ts.TypeNode, trailing: string): TlType {
	switch (node.kind) {
		case ts.SyntaxKind.NumberKeyword:
			return 'number'
		case ts.SyntaxKind.BooleanKeyword:
			return 'Bool'
		case ts.SyntaxKind.StringKeyword:
			return trailing.includes('/* base64 */') ? 'bytes' : 'string'
	}
	if (ts.isUnionTypeNode(node)) {
		const kinds = node.types.map((t) => t.kind).sort()
		if (
			kinds.length === 2 &&
			kinds.includes(ts.SyntaxKind.NumberKeyword) &&
			kinds.includes(ts.SyntaxKind.StringKeyword)
		) {
			return 'int64'
		}
	}
	if (ts.isTypeReferenceNode(node)) {
		const name = node.typeName.getText()
		if (name === 'ReadonlyArray' && node.typeArguments?.length === 1) {
			return `vector<${fieldType(node.typeArguments[0]!, '')}>`
		}
		if (name.endsWith(INPUT)) return name.slice(0, -INPUT.length)
	}
	throw new Error(`unexpected field type in tdlib-types.d.ts: ${node.getText()}`)
}

function fieldsOf(literal: ts.TypeLiteralNode, text: string): Record<string, TlType> {
	const fields: Record<string, TlType> = {}
	for (const member of literal.members) {
		if (!ts.isPropertySignature(member) || !member.type) continue
		const name = member.name.getText()
		if (name === '_') continue
		// The `/* base64 */` marker follows the type, before the comma.
		const trailing = text.slice(member.type.end, member.end + 16)
		fields[name] = fieldType(member.type, trailing)
	}
	return fields
}

/** Part 1: the structure, from the `.d.ts` alone. */
export function readDeclarations(typesText: string): TdSchema {
	const file = ts.createSourceFile('tdlib-types.d.ts', typesText, ts.ScriptTarget.Latest, true)
	const header = /Types for TDLib v([\d.]+) \(([0-9a-f]+)\)/.exec(typesText)
	if (!header) throw new Error('tdlib-types.d.ts: no version header')
	const schema: TdSchema = {
		version: header[1]!,
		commit: header[2]!,
		classes: {},
		constructors: {},
		functions: {},
		updates: [],
	}
	const literals = new Map<string, ts.TypeLiteralNode>()
	const functionNames: string[] = []
	const results: Record<string, string> = {}
	const visit = (node: ts.Node) => {
		if (ts.isModuleDeclaration(node) && node.body && ts.isModuleBlock(node.body)) {
			for (const s of node.body.statements) visit(s)
			return
		}
		if (!ts.isTypeAliasDeclaration(node)) return
		const name = node.name.text
		const type = node.type
		if (name === '$FunctionInputByName' && ts.isTypeLiteralNode(type)) {
			for (const m of type.members) if (ts.isPropertySignature(m)) functionNames.push(m.name.getText())
			return
		}
		if (name === '$FunctionResultByName' && ts.isTypeLiteralNode(type)) {
			for (const m of type.members) {
				if (ts.isPropertySignature(m) && m.type) results[m.name.getText()] = m.type.getText()
			}
			return
		}
		if (ts.isTypeLiteralNode(type)) {
			literals.set(name, type)
			return
		}
		// The output union of every update (`Update = updateAuthorizationState | ...`).
		if (name === 'Update' && ts.isUnionTypeNode(type)) {
			schema.updates = type.types.map((t) => t.getText())
			return
		}
		// `MessageSender$Input = messageSenderUser$Input | messageSenderChat$Input`: a class.
		if (name.endsWith(INPUT) && /^[A-Z]/.test(name)) {
			const members = ts.isUnionTypeNode(type) ? type.types : [type]
			schema.classes[name.slice(0, -INPUT.length)] = members.map((m) => {
				const ref = m.getText()
				if (!ref.endsWith(INPUT)) throw new Error(`class ${name}: unexpected member ${ref}`)
				return ref.slice(0, -INPUT.length)
			})
		}
	}
	for (const s of file.statements) visit(s)
	for (const [name, literal] of literals) {
		if (!name.endsWith(INPUT)) continue
		const ctor = name.slice(0, -INPUT.length)
		schema.constructors[ctor] = { fields: fieldsOf(literal, typesText) }
	}
	for (const fn of functionNames) {
		const literal = literals.get(fn)
		if (!literal) throw new Error(`function ${fn} has no declaration`)
		const def: TdFunction = { fields: fieldsOf(literal, typesText), returns: results[fn] ?? 'Ok' }
		// TDLib runs these at once, in any state, without the client's queue: the probe, the judge and
		// the parity corpus leave them alone (one given a null object crashes the process).
		const tag = literal.members.find((m) => ts.isPropertySignature(m) && m.name.getText() === '_')
		if (tag && /Can\s+(\*\s+)?be\s+(\*\s+)?called\s+(\*\s+)?synchronously/.test(tag.getFullText()))
			def.synchronous = true
		schema.functions[fn] = def
	}
	return schema
}

/**
 * Methods the probe must never send whole: they would initialise the client, close it, or write
 * logs. Their number fields stay `number` (read as an integer of up to 64 bits).
 */
export const NEVER_PROBE: ReadonlySet<string> = new Set([
	'setTdlibParameters',
	'close',
	'destroy',
	'logOut',
	'setLogStream',
	'setLogVerbosityLevel',
	'setLogTagVerbosityLevel',
	'addLogMessage',
])

const objectType = (t: TlType): { name: string; vector: number } | null => {
	let vector = 0
	let inner = t
	while (inner.startsWith('vector<')) {
		inner = inner.slice(7, -1)
		vector++
	}
	return /^[A-Za-z]/.test(inner) && !['Bool', 'string', 'bytes', 'number', 'int64'].includes(inner)
		? { name: inner, vector }
		: null
}

const wrapIn = (value: unknown, vector: number) => {
	let v = value
	for (let i = 0; i < vector; i++) v = [v]
	return v
}

type Wrap = (obj: Record<string, unknown>) => Record<string, unknown>

/**
 * For each input constructor, a way to carry one object of it inside a request: the first function
 * (in schema order, skipping `skip` and synchronous ones) that reaches it, through the fewest fields.
 */
export function hostsOf(schema: TdSchema, skip: ReadonlySet<string> = new Set()): Map<string, Wrap> {
	const membersOf = (name: string) => schema.classes[name] ?? (schema.constructors[name] ? [name] : [])
	const host = new Map<string, Wrap>()
	const queue: string[] = []
	for (const [fn, def] of Object.entries(schema.functions)) {
		if (skip.has(fn) || def.synchronous) continue
		for (const [field, type] of Object.entries(def.fields)) {
			const ref = objectType(type)
			if (!ref) continue
			for (const ctor of membersOf(ref.name)) {
				if (host.has(ctor)) continue
				host.set(ctor, (obj) => ({ _: fn, [field]: wrapIn(obj, ref.vector) }))
				queue.push(ctor)
			}
		}
	}
	for (let ctor = queue.shift(); ctor; ctor = queue.shift()) {
		const wrap = host.get(ctor)!
		for (const [field, type] of Object.entries(schema.constructors[ctor]?.fields ?? {})) {
			const ref = objectType(type)
			if (!ref) continue
			for (const inner of membersOf(ref.name)) {
				if (host.has(inner)) continue
				const outer = ctor
				host.set(inner, (obj) => wrap({ _: outer, [field]: wrapIn(obj, ref.vector) }))
				queue.push(inner)
			}
		}
	}
	return host
}

/** Real TDLib's verdict on each request (a parse-only client's `judge`, src/runtime/telegram/tdlib.ts). */
export type Judge = (requests: readonly object[]) => Promise<Array<'parsed' | { refused: string }>>

/**
 * Part 2: asks real TDLib which `number` fields are int32, int53 or double. `judge` is a parse-only
 * client's: the script's own (src/entry/td-schema.ts), a test's in a child process.
 */
export async function probeNumbers(schema: TdSchema, judge: Judge): Promise<void> {
	const host = hostsOf(schema, NEVER_PROBE)
	// Each `number` field, with a way to put a value in it inside a whole request.
	const targets: Array<{ fields: Record<string, TlType>; field: string; build: (v: unknown) => object }> = []
	const collect = (fields: Record<string, TlType>, wrap: (field: string, value: unknown) => object) => {
		for (const [field, type] of Object.entries(fields)) {
			if (type === 'number') targets.push({ fields, field, build: (v) => wrap(field, v) })
			else if (type === 'vector<number>') targets.push({ fields, field, build: (v) => wrap(field, [v]) })
		}
	}
	for (const [fn, def] of Object.entries(schema.functions)) {
		if (NEVER_PROBE.has(fn) || def.synchronous) continue
		collect(def.fields, (field, value) => ({ _: fn, [field]: value }))
	}
	for (const [ctor, def] of Object.entries(schema.constructors)) {
		const wrap = host.get(ctor)
		if (wrap) collect(def.fields, (field, value) => wrap({ _: ctor, [field]: value }))
	}
	// 1.5 is refused by an integer field; 2^31 by an int32.
	const verdicts = await judge(targets.flatMap((t) => [t.build(1.5), t.build(2 ** 31)]))
	targets.forEach((t, i) => {
		const fraction = verdicts[2 * i] === 'parsed'
		const wide = verdicts[2 * i + 1] === 'parsed'
		const kind = fraction ? 'double' : wide ? 'int53' : 'int32'
		t.fields[t.field] = t.fields[t.field] === 'number' ? kind : `vector<${kind}>`
	})
}

export const serialize = (schema: TdSchema) => `${JSON.stringify(schema, null, '\t')}\n`
