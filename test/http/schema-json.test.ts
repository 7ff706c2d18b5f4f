import { describe, expect, it } from 'bun:test'
import * as v from 'valibot'
import { documentedAs } from '../../src/server/http/body-schema'
import { schemaJson } from '../../src/server/http/schema-json'
import { Detail, FieldErrors, Id } from '../../src/server/openapi/schemas'

/** The documents' JSON of valibot schemas (src/server/http/schema-json.ts): the forms the documents keep. */
describe('schemaJson', () => {
	it('shows a part documented as its own JSON wherever it sits', () => {
		const own = documentedAs(
			v.custom<number>(() => true),
			{ type: 'integer', minimum: 0 },
		)
		const json = schemaJson(v.object({ list: v.array(v.nullable(own)) }))
		expect(json).toEqual({
			type: 'object',
			required: ['list'],
			properties: {
				list: { type: 'array', items: { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'null' }] } },
			},
		})
	})

	it('keeps a constant with its JSON type and drops an empty required list', () => {
		expect(schemaJson(v.object({ ok: v.optional(v.literal(true)) }))).toEqual({
			type: 'object',
			properties: { ok: { const: true, type: 'boolean' } },
		})
	})

	it('tells an id as a 64-bit integer, field errors as a map of lists, an error with its description', () => {
		expect(schemaJson(Id())).toEqual({ type: 'integer', format: 'int64' })
		expect(schemaJson(FieldErrors)).toEqual({
			type: 'object',
			additionalProperties: { type: 'array', items: { type: 'string' } },
			description: expect.stringContaining('Field errors'),
		})
		expect(schemaJson(Detail)).toMatchObject({ required: ['detail'], description: expect.any(String) })
	})
})
