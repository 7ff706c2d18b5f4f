import { toOpenAPISchema } from '@elysiajs/openapi'
import { type AnyElysia, Elysia } from 'elysia'
import pkg from '../../../package.json' with { type: 'json' }
import type { JsonSchema } from '../commands/fields'
import { jsonAnswer, textAnswer } from '../http/answers'
import { bodyJson } from '../http/body-schema'
import { schemaJson } from '../http/schema-json'
import { PUBLIC_READ, policyHook } from '../policy/entry'
import { renderDocsPage } from './docs-page'
import { lintReady, TAGS } from './operations'

/**
 * The OpenAPI 3.1 document of the app's REST routes: `@elysiajs/openapi` reads the real app's routes,
 * and the route data (route-data.ts) of the core and of the loaded plugins (their `api`) lends each
 * its request body, its answers and its summary, without changing how the route parses (routes read
 * their bodies themselves, to answer as DRF does). Only routes the app really serves are in it: a
 * plugin that is not loaded leaves none behind.
 */

/** What the document reads of a loaded plugin: its route data (src/server/plugin/define.ts `api`). */
type Described = { readonly api?: AnyElysia }

type Hooks = { body?: unknown; response?: unknown; params?: unknown; detail?: Record<string, unknown> }

const toOpenApiPath = (path: string) => path.replace(/:([^/]+)/g, '{$1}')

/**
 * The body the route reads: JSON, or a multipart form for uploads. (The generator would take the
 * content types from the route's parser, which is off: the routes read bodies themselves.)
 */
function requestBody(body: unknown): { requestBody?: unknown } {
	if (!body) return {}
	const schema = bodyJson(body) as JsonSchema
	const props = (schema.properties ?? {}) as Record<string, JsonSchema>
	const multipart = Object.values(props).some((p) => p.format === 'binary' || p.type === 'File')
	return {
		requestBody: {
			required: !multipart && Object.keys(props).length > 0,
			content: { [multipart ? 'multipart/form-data' : 'application/json']: { schema } },
		},
	}
}

/**
 * `core`: the core's own route data (src/app/core-routes.ts), handed in by the app that composes it,
 * as each plugin hands its `api`.
 */
export function openApiDocument(app: AnyElysia, core: AnyElysia, plugins: readonly Described[]): JsonSchema {
	const references: Record<string, Record<string, Hooks>> = {}
	const details = new Map<string, Record<string, unknown>>()
	const data = [core, ...plugins.flatMap((p) => (p.api ? [p.api] : []))]
	for (const route of data.flatMap((d) => d.routes)) {
		const method = route.method.toLowerCase()
		const hooks = route.hooks as Hooks
		references[route.path] = {
			...references[route.path],
			[method]: { ...hooks, body: undefined, detail: undefined },
		}
		details.set(`${method} ${toOpenApiPath(route.path)}`, { ...hooks.detail, ...requestBody(hooks.body) })
	}
	// The core's pages and documents are described where they are served (their `detail` hook).
	for (const route of app.routes) {
		const detail = (route.hooks as Hooks).detail
		const key = `${route.method.toLowerCase()} ${toOpenApiPath(route.path)}`
		if (detail && !details.has(key)) details.set(key, detail)
	}
	const { paths, components } = toOpenAPISchema(
		app,
		{ methods: ['options', 'all', 'ws', 'head'], staticFile: false },
		[references as never],
		// Every valibot schema (parameters, answers) as the documents show it (src/server/http/schema-json.ts).
		{ valibot: schemaJson },
	)
	const documented: Record<string, Record<string, unknown>> = {}
	for (const [path, item] of Object.entries(
		paths as Record<string, Record<string, Record<string, unknown>>>,
	)) {
		for (const [method, operation] of Object.entries(item)) {
			const key = `${method} ${path}`
			// A route no route data describes (a plugin's without `api`) is listed as it is.
			const detail = details.get(key) ?? {}
			const id = typeof detail.operationId === 'string' ? detail.operationId : undefined
			documented[path] = {
				...documented[path],
				[method]: lintReady(
					key,
					{ ...withoutEmptyBodies(withoutServedBody(operation, detail)), ...detail },
					id,
				),
			}
		}
	}
	return {
		openapi: '3.1.0',
		info: {
			title: `${pkg.name} REST API`,
			version: pkg.version,
			description:
				'Accounts (Django REST framework shapes: field errors `{"<field>": [...]}`, other errors `{detail, code?}`), login against a main server, and the userbots of a company. The WebSocket command channel is described by GET /api/commands/ and GET /api/asyncapi.json.',
		},
		servers: [{ url: '/', description: 'The server that serves this document' }],
		tags: TAGS.filter((tag) => usedTags(documented).has(tag.name)),
		paths: documented,
		components: {
			...components,
			securitySchemes: {
				bearer: {
					type: 'http',
					scheme: 'bearer',
					bearerFormat: 'JWT',
					description: 'an access token from /accounts/token/',
				},
				session: {
					type: 'apiKey',
					in: 'cookie',
					name: 'sessionid',
					description: 'a session from /accounts/login/; unsafe requests also need Origin or X-CSRFToken',
				},
			},
		},
	}
}

/**
 * A 204 or 304 has no body (the generator writes a `void` schema where OpenAPI wants no content); a
 * binary answer (a file) is any type, not the `text/plain` the generator gives every string.
 */
function withoutEmptyBodies(operation: Record<string, unknown>): Record<string, unknown> {
	const responses = { ...(operation.responses as Record<string, Record<string, unknown>> | undefined) }
	if (responses['204']) responses['204'] = { description: 'No content' }
	if (responses['304']) responses['304'] = { description: 'Not modified: the ETag matched' }
	for (const [status, answer] of Object.entries(responses)) {
		const text = (answer.content as Record<string, { schema?: JsonSchema }> | undefined)?.['text/plain']
		if (text?.schema?.format === 'binary')
			responses[status] = { ...answer, content: { 'application/octet-stream': { schema: text.schema } } }
	}
	return { ...operation, responses }
}

/**
 * The body as the route data says it, where the generator read it from the served route (a route
 * defined once validates its body): in the place the document has always shown it, after the answers.
 */
function withoutServedBody(operation: Record<string, unknown>, detail: Record<string, unknown>) {
	if (!('requestBody' in detail)) return operation
	const { requestBody: _served, ...rest } = operation
	return rest
}

const usedTags = (paths: Record<string, Record<string, unknown>>) =>
	new Set(
		Object.values(paths).flatMap((item) =>
			Object.values(item).flatMap((op) => (op as { tags?: string[] }).tags ?? []),
		),
	)

/**
 * `GET /api/openapi.json` (made at the first request, once every route is in) and `GET /api/docs`, a
 * page of our own that shows it (docs-page.ts). **Decision:** public, like the catalog.
 */
export function openApiRoutes(app: () => AnyElysia, core: AnyElysia, plugins: readonly Described[]) {
	let json: string | undefined
	let page: string | undefined
	return new Elysia({ name: 'openapi' })
		.get(
			'/api/openapi.json',
			() => {
				json ??= JSON.stringify(openApiDocument(app(), core, plugins))
				return new Response(json, { headers: { 'content-type': 'application/json' } })
			},
			policyHook(PUBLIC_READ, {
				operationId: 'getOpenApiDocument',
				summary: 'This document',
				tags: ['documentation'],
				responses: { '200': jsonAnswer('The OpenAPI 3.1 document') },
			}),
		)
		.get(
			'/api/docs',
			() => {
				page ??= renderDocsPage(openApiDocument(app(), core, plugins))
				return new Response(page, {
					headers: {
						'content-type': 'text/html; charset=utf-8',
						// Nothing but the page and its own style: no script, no other origin.
						'content-security-policy':
							"default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
					},
				})
			},
			policyHook(PUBLIC_READ, {
				operationId: 'getApiDocsPage',
				summary: 'This document, to read in a browser',
				tags: ['documentation'],
				responses: { '200': textAnswer('text/html', 'A page that shows this document') },
			}),
		)
}
