import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import Ajv from 'ajv'
import * as v from 'valibot'
import type { Catalog, CatalogCommand } from '../../src/server/catalog/catalog'
import { getTestInstance, type TestInstance } from '../helpers'
import { SPEC_COMMANDS, SPEC_ERRORS } from './spec-commands'

/**
 * The command catalog against the protocol (docs/protocol.md#the-protocols-commands): every command of it
 * in the catalog, with the protocol's fields; the frames built from them (its variants and its example
 * values) accepted by each command's JSON Schema and by the command itself; every error string of its
 * error table (docs/protocol.md#error-strings) said for its commands.
 */
let t: TestInstance
let catalog: Catalog
beforeAll(async () => {
	t = await getTestInstance({ TDLIB_BACKEND: 'tdlib' })
	catalog = t.catalog
})
afterAll(() => t?.stop())

const ajv = new Ajv({ strict: false, allErrors: true })
const entry = (name: string) => catalog.commands.find((c) => c.name === name) as CatalogCommand
const spec = Object.entries(SPEC_COMMANDS)

describe('the command catalog against the protocol', () => {
	it('lists every command of the spec, in a built-in group, with every field the spec names', () => {
		expect(spec).toHaveLength(54)
		const missing = spec.filter(([name]) => !entry(name)).map(([name]) => name)
		expect(missing).toEqual([])
		for (const [name, s] of spec) {
			expect(entry(name).group).toStartWith('commands-')
			const properties = Object.keys((entry(name).input.properties ?? {}) as object)
			const unlisted = [...s.required, ...s.optional].filter((f) => !properties.includes(f))
			expect({ name, unlisted }).toEqual({ name, unlisted: [] })
		}
	})

	it('requires what the protocol requires, and no more, but for the decisions of docs/command-groups.md', () => {
		for (const [name, s] of spec) {
			const required = [...((entry(name).input.required ?? []) as string[])].sort()
			const expected = [
				...s.required.filter((f) => !s.decidedOptional?.includes(f)),
				...(s.decidedRequired ?? []),
			].sort()
			expect({ name, required }).toEqual({ name, required: expected })
		}
	})

	it("accepts the spec's frames, variants and example values, by its JSON Schema and by the command", () => {
		for (const [name, s] of spec) {
			const validate = ajv.compile(entry(name).input)
			const input = t.commands.get(name)?.command.input as v.GenericSchema
			for (const frame of s.frames) {
				if (!validate(frame))
					throw new Error(`${name} ${JSON.stringify(frame)}: ${ajv.errorsText(validate.errors)}`)
				const parsed = v.safeParse(input, frame)
				if (!parsed.success) throw new Error(`${name} ${JSON.stringify(frame)}: ${parsed.issues[0].message}`)
			}
		}
	})

	it('refuses a frame without a field the spec requires, by its JSON Schema and by the command', () => {
		for (const [name, s] of spec) {
			const validate = ajv.compile(entry(name).input)
			const input = t.commands.get(name)?.command.input as v.GenericSchema
			const frame = s.frames[0] as Record<string, unknown>
			for (const field of s.required.filter((f) => !s.decidedOptional?.includes(f))) {
				const { [field]: _, ...without } = frame
				expect({ name, field, schema: validate(without) }).toEqual({ name, field, schema: false })
				expect({ name, field, command: v.safeParse(input, without).success }).toEqual({
					name,
					field,
					command: false,
				})
			}
		}
	})

	it('says every error string of the error table for each command it names', () => {
		const unsaid: string[] = []
		for (const [commands, error] of SPEC_ERRORS) {
			for (const name of commands.split(', '))
				if (!entry(name).errors.includes(error)) unsaid.push(`${name}: ${error}`)
		}
		expect(unsaid).toEqual([])
	})
})
