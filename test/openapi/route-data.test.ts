import { afterEach, describe, expect, it } from 'bun:test'
import { Elysia } from 'elysia'
import * as v from 'valibot'
import { accountsApi } from '../../plugins/accounts/api'
import { userbotsApi } from '../../plugins/userbots/api'
import { builtInPlugins } from '../../src/app'
import {
	BEARER_OR_SESSION,
	documentedOnly,
	PUBLIC_WRITE,
	policyHook,
	ROUTE_ERRORS,
} from '../../src/server/plugin/api'
import { definePlugin } from '../../src/server/plugin/define'
import { getTestInstance, type TestInstance } from '../helpers'

type Operation = {
	summary?: string
	security?: unknown
	requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> }
	responses: Record<string, unknown>
}
type Doc = { paths: Record<string, Record<string, Operation>> }

/** A third party's plugin: one route it serves, and that route as data (its `api`). */
const greeter = (withData: boolean) =>
	definePlugin({
		id: 'greeter',
		build: () =>
			new Elysia({ name: 'greeter' }).post(
				'/api/greet/',
				() => ({ greeting: 'hello' }),
				policyHook(PUBLIC_WRITE),
			),
		...(withData
			? {
					api: new Elysia({ name: 'greeter-api' }).post('/api/greet/', documentedOnly, {
						body: v.object({ name: v.pipe(v.string(), v.maxLength(40)) }),
						response: { 200: v.object({ greeting: v.string() }), ...ROUTE_ERRORS.authed },
						detail: { summary: 'Greets the caller', tags: ['greeter'], security: BEARER_OR_SESSION },
					}),
				}
			: {}),
	})

let instance: TestInstance | undefined
afterEach(async () => {
	await instance?.stop()
	instance = undefined
})

const documentOf = async (plugins: Parameters<typeof getTestInstance>[1]) => {
	instance = await getTestInstance({}, plugins)
	const res = await fetch(`${instance.url}/api/openapi.json`)
	expect(res.status).toBe(200)
	return (await res.json()) as Doc
}

describe('routes as data, in their plugin', () => {
	it("a plugin's own route is described from its `api`: summary, body, answers, auth", async () => {
		const doc = await documentOf({ plugins: [...builtInPlugins, greeter(true)] })
		const op = doc.paths['/api/greet/']?.post
		expect(op?.summary).toBe('Greets the caller')
		expect(op?.security).toEqual(BEARER_OR_SESSION)
		expect(Object.keys(op?.responses ?? {}).sort()).toEqual(['200', '401', '403'])
		expect(Object.keys(op?.requestBody?.content['application/json']?.schema.properties ?? {})).toEqual([
			'name',
		])
	})

	it('a served route no plugin describes is listed bare', async () => {
		const doc = await documentOf({ plugins: [...builtInPlugins, greeter(false)] })
		const op = doc.paths['/api/greet/']?.post
		expect(op).toBeDefined()
		expect(op?.summary).toBeUndefined()
		expect(op?.requestBody).toBeUndefined()
	})

	it("the built-in routes are described by their plugin's data, only when that plugin is loaded", async () => {
		const doc = await documentOf({ plugins: builtInPlugins.filter((p) => p.id !== 'userbots') })
		const register = accountsApi.routes.find((r) => r.path === '/accounts/register/')
		const summary = (register?.hooks.detail as { summary?: string } | undefined)?.summary
		expect(summary).toStartWith('Registers a user')
		expect(doc.paths['/accounts/register/']?.post?.summary).toBe(summary as string)
		const userbotPaths = userbotsApi.routes.map((r) => r.path.replace(/:([^/]+)/g, '{$1}'))
		expect(userbotPaths.length).toBeGreaterThan(5)
		expect(Object.keys(doc.paths).filter((p) => userbotPaths.includes(p))).toEqual([])
	})
})
