import { isValibot } from './body-schema'

/**
 * One schema language (issue 44): a route's body, parameters, query, headers and answers are valibot
 * schemas, the language of commands and settings, turned into the documents' JSON Schema by
 * `@valibot/to-json-schema`. A schema of another language (TypeBox's `t.Object`, which Elysia would
 * otherwise take and check in its own words) is refused when the app starts, with a line naming the
 * route and the part, not met deep in a request (docs/plugins.md#routes-as-data).
 */

/** The parts of a route's hooks (or of a `restRoute` definition) that hold schemas, as a line names them. */
const PARTS = {
	body: 'body',
	params: 'path parameters',
	query: 'query',
	headers: 'headers',
	cookie: 'cookies',
}

/** TypeBox marks each of its schemas with this symbol (`Kind`). */
const TYPEBOX_KIND = Symbol.for('TypeBox.Kind')

const isTypeBox = (schema: unknown) => typeof schema === 'object' && schema !== null && TYPEBOX_KIND in schema
const has = (schema: unknown, part: string) =>
	`has ${isTypeBox(schema) ? 'a TypeBox schema' : 'no valibot schema'} as its ${part}`

/** The answers' schemas: one for every status, or a status map of them. */
function answersFault(response: unknown): string | null {
	if (response === undefined || isValibot(response)) return null
	if (typeof response !== 'object' || response === null || isTypeBox(response)) return has(response, 'answer')
	for (const [status, schema] of Object.entries(response))
		if (!isValibot(schema)) return has(schema, `${status} answer`)
	return null
}

/**
 * What is wrong with a route's schemas, in words that follow `route METHOD path`, or null when each
 * is valibot's.
 */
export function schemasFault(hooks: unknown): string | null {
	if (typeof hooks !== 'object' || hooks === null) return null
	const parts = hooks as Record<string, unknown>
	const wrong = Object.entries(PARTS).find(([key]) => parts[key] !== undefined && !isValibot(parts[key]))
	const fault = wrong ? has(parts[wrong[0]], wrong[1]) : answersFault(parts.response)
	return (
		fault && `${fault}: bodies, parameters and answers are valibot schemas (docs/plugins.md#routes-as-data)`
	)
}
