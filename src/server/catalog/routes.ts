import { Elysia } from 'elysia'
import type { JsonSchema } from '../commands/fields'
import { jsonAnswer } from '../http/answers'
import { PUBLIC_READ, policyHook } from '../policy/entry'
import type { Catalog } from './catalog'

/**
 * `GET /api/commands/` (the catalog) and `GET /api/asyncapi.json`. **Decision:** both are public, as
 * API documents usually are: they say which commands this server offers and what each takes and
 * answers, nothing about any account or userbot. Built once, when the app is made.
 */
export function catalogRoutes(catalog: Catalog, asyncapi: JsonSchema) {
	const catalogJson = JSON.stringify(catalog)
	const asyncapiJson = JSON.stringify(asyncapi)
	const headers = { 'content-type': 'application/json' }
	return new Elysia({ name: 'catalog' })
		.get(
			'/api/commands/',
			() => new Response(catalogJson, { headers }),
			policyHook(PUBLIC_READ, {
				operationId: 'getCommandCatalog',
				summary: 'The command catalog: every WebSocket command, its input (JSON Schema), result and errors',
				tags: ['documentation'],
				responses: { '200': jsonAnswer('The catalog (docs/commands.json)') },
			}),
		)
		.get(
			'/api/asyncapi.json',
			() => new Response(asyncapiJson, { headers }),
			policyHook(PUBLIC_READ, {
				operationId: 'getAsyncApiDocument',
				summary: 'The WebSocket channel as an AsyncAPI 3 document',
				tags: ['documentation'],
				responses: { '200': jsonAnswer('The AsyncAPI 3.0 document') },
			}),
		)
}
