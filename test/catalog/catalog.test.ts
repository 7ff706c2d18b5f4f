import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import Ajv from 'ajv'
import * as v from 'valibot'
import { chatsPlugin } from '../../examples/chats'
import { builtInPlugins } from '../../src/app'
import type { Catalog, CatalogCommand } from '../../src/server/catalog/catalog'
import { getTestInstance, type TestInstance } from '../helpers'

/**
 * The command catalog against the registry it is built from: every command there, every input a valid
 * JSON Schema that accepts the command's examples (which the command's own valibot schema accepts
 * too), every result and error string said, served as it is built.
 */
const REPO = resolve(import.meta.dir, '../..')
const TDLIB_TYPES = readFileSync(join(REPO, 'node_modules/@prebuilt-tdlib/types/tdlib-types.d.ts'), 'utf8')

let t: TestInstance
let catalog: Catalog
beforeAll(async () => {
	// td_invoke's examples (getChat, getMe) are valid where the operator allows them: here.
	t = await getTestInstance(
		{ TDLIB_BACKEND: 'tdlib', TD_INVOKE_METHODS: 'getChat,getMe' },
		{ plugins: [...builtInPlugins, chatsPlugin] },
	)
	catalog = t.catalog
})
afterAll(() => t?.stop())

/**
 * Strict, knowing the two integer formats the OpenAPI and AsyncAPI documents use (`int64`, `int32`: a
 * REST answer's schema is also a command's result when an operation has both faces).
 */
const ajv = () =>
	new Ajv({ strict: true, strictRequired: false, strictTypes: false, allowUnionTypes: true, allErrors: true })
		.addFormat('int64', /^-?\d+$/)
		.addFormat('int32', /^-?\d+$/)
/**
 * Each command's input validator, compiled once, before the tests, for all that need it: compiling
 * 64 schemas is CPU work that takes seconds on a loaded machine (three times over, it passed the
 * default per-test timeout). A schema that does not compile is kept as its error.
 */
const validators = new Map<string, ReturnType<ReturnType<typeof ajv>['compile']> | Error>()
const inputValidator = (c: CatalogCommand) => {
	const validate = validators.get(c.name)
	if (validate instanceof Error) throw validate
	if (!validate) throw new Error(`${c.name}: no validator compiled`)
	return validate
}
beforeAll(() => {
	for (const c of catalog.commands) {
		try {
			validators.set(c.name, ajv().compile(c.input))
		} catch (err) {
			validators.set(c.name, err instanceof Error ? err : new Error(String(err)))
		}
	}
}, 120_000)
const entry = (name: string) => catalog.commands.find((c) => c.name === name) as CatalogCommand

describe('the command catalog', () => {
	it('lists every registered command, once, with its group and TDLib methods', () => {
		expect(catalog.commands.map((c) => c.name).sort()).toEqual([...t.commands.keys()].sort())
		// 91 built-in commands (td_invoke and the two conversation commands among them) and the example group's 4.
		expect(catalog.commands).toHaveLength(95)
		for (const c of catalog.commands) {
			const registered = t.commands.get(c.name)
			expect(c.group).toBe(registered?.groupId as string)
			expect(c.tdlib_methods).toEqual([...(registered?.command.methods ?? [])])
		}
	})

	it('gives every input as a valid JSON Schema in which each field says its type', () => {
		for (const c of catalog.commands) {
			expect(() => inputValidator(c)).not.toThrow()
			for (const [field, schema] of Object.entries((c.input.properties ?? {}) as Record<string, object>)) {
				const said = 'type' in schema || 'anyOf' in schema || 'enum' in schema || 'const' in schema
				if (!said) throw new Error(`${c.name}.${field} has no type in the catalog: ${JSON.stringify(schema)}`)
			}
		}
	})

	it('has examples for every command that its JSON Schema and its own valibot schema both accept', () => {
		for (const c of catalog.commands) {
			expect(c.examples.length).toBeGreaterThan(0)
			const validate = inputValidator(c)
			const input = t.commands.get(c.name)?.command.input as v.GenericSchema
			for (const example of c.examples) {
				if (!validate(example)) throw new Error(`${c.name}: ${JSON.stringify(validate.errors)}`)
				const parsed = v.safeParse(input, example)
				if (!parsed.success) throw new Error(`${c.name}: ${parsed.issues[0].message}`)
			}
		}
	})

	it('refuses by its JSON Schema what the command refuses for want of a required field', () => {
		for (const c of catalog.commands) {
			const required = (c.input.required ?? []) as string[]
			if (required.length === 0) continue
			const validate = inputValidator(c)
			const example = c.examples[0] as Record<string, unknown>
			for (const field of required) {
				const { [field]: _, ...without } = example
				expect(validate(without)).toBe(false)
				expect(v.safeParse(t.commands.get(c.name)?.command.input as v.GenericSchema, without).success).toBe(
					false,
				)
			}
		}
	})

	it('says what each command answers: a summary, a result, TDLib types that exist', () => {
		for (const c of catalog.commands) {
			expect(c.summary?.length ?? 0).toBeGreaterThan(10)
			expect(c.result.description?.length ?? 0).toBeGreaterThan(3)
			for (const type of c.result.tdlib_types ?? []) {
				if (!TDLIB_TYPES.includes(`export type ${type} = {`))
					throw new Error(`${c.name}: no TDLib type ${type}`)
			}
			if (c.result.schema) expect(() => ajv().compile(c.result.schema as object)).not.toThrow()
		}
		expect(entry('pin_message').result.tdlib_types).toEqual(['ok'])
		expect(entry('set_account_ttl').result.schema).toMatchObject({ required: ['days'] })
	})

	it("lists each command's error strings: the spec's, its own, then the gateway's", () => {
		expect(entry('set_reaction').errors.slice(0, 6)).toEqual([
			'chat_id and message_id are required',
			'chat_id must be an integer',
			'chat_id is out of range',
			'message_id must be an integer',
			'message_id is out of range',
			'reaction is required',
		])
		expect(entry('terminate_session').errors).toContain(
			"current session can't be terminated via terminate_session",
		)
		expect(entry('block_user').errors).toContain('block_list must be a library block list type')
		expect(entry('send_message').error_fields).toEqual([
			'text',
			'entities',
			'link_preview_options',
			'reply_to',
			'options',
			'reply_markup',
		])
		expect(entry('userbot_get_state').errors).not.toContain('userbot is not authorized')
		expect(entry('get_chats').errors).toContain('userbot is not authorized')
		for (const c of catalog.commands) expect(c.errors).toContain('internal error')
	})

	it("covers every wire string of every built-in group's errors.ts", async () => {
		for (const group of ['messages', 'sessions', 'security', 'members', 'chat-admin']) {
			const mod = (await import(`../../plugins/commands-${group}/errors.ts`)) as Record<string, unknown>
			const strings = Object.values(mod)
				.filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null)
				.flatMap((o) => Object.values(o).filter((s): s is string => typeof s === 'string'))
			const said = new Set(
				catalog.commands.filter((c) => c.group === `commands-${group}`).flatMap((c) => c.errors),
			)
			const unsaid = strings.filter((s) => !said.has(s))
			expect({ group, unsaid }).toEqual({ group, unsaid: [] })
		}
	})
})

describe('GET /api/commands/ and /api/asyncapi.json', () => {
	it('serve the catalog and the AsyncAPI document without credentials', async () => {
		const res = await fetch(`${t.url}/api/commands/`)
		expect(res.status).toBe(200)
		expect(res.headers.get('content-type')).toStartWith('application/json')
		expect(await res.json()).toEqual(JSON.parse(JSON.stringify(catalog)))
		const doc = (await (await fetch(`${t.url}/api/asyncapi.json`)).json()) as {
			asyncapi: string
			operations: Record<string, { reply?: unknown }>
			components: { messages: Record<string, { payload: object; examples?: Array<{ payload: object }> }> }
		}
		expect(doc.asyncapi).toBe('3.0.0')
		for (const c of catalog.commands) {
			expect(doc.operations[c.name]?.reply).toBeDefined()
			const message = doc.components.messages[c.name]
			const validate = ajv().compile(message?.payload as object)
			for (const example of message?.examples ?? []) expect(validate(example.payload)).toBe(true)
			// A frame without its action or userbot is no frame of this command.
			expect(validate({ userbot_id: 1, ...c.examples[0] })).toBe(false)
			expect(() => ajv().compile(doc.components.messages[`${c.name}.reply`]?.payload as object)).not.toThrow()
		}
		// 128 schemas compiled: CPU work that a loaded machine makes last far past the default bound.
	}, 120_000)
})
