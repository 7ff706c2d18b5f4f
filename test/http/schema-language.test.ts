import { describe, expect, it } from 'bun:test'
import { Elysia, t } from 'elysia'
import * as v from 'valibot'
import { builtInPlugins } from '../../src/app'
import {
	definePlugin,
	documentedOnly,
	PUBLIC_WRITE,
	policyHook,
	type RestContext,
	type RestRoute,
	restRoute,
	serveRoutes,
} from '../../src/server/plugin/api'
import { getTestInstance } from '../helpers'

/**
 * Issue 44, one schema language: bodies, parameters and answers are valibot schemas. A plugin that
 * still hands a TypeBox one (Elysia's `t.Object`) past the types (a cast, a plugin loaded by path)
 * does not start: one line names the route and the part, before any request (docs/plugins.md#routes-as-data).
 */
const startFails = async (plugin: ReturnType<typeof definePlugin>) => {
	const err = await getTestInstance({}, { plugins: [...builtInPlugins, plugin], listen: false }).then(
		async (i) => {
			await i.stop()
			return undefined
		},
		(e: unknown) => e as Error,
	)
	if (!err) throw new Error('the app started')
	return err.message
}
const RULE = 'bodies, parameters and answers are valibot schemas (docs/plugins.md#routes-as-data)'

describe('a TypeBox schema where a valibot one belongs', () => {
	it("stops the start: a route definition's TypeBox body, named with its route", async () => {
		const route = restRoute({
			method: 'post',
			path: '/api/tb/',
			policy: PUBLIC_WRITE,
			body: v.object({ name: v.string() }),
			response: { 200: v.object({ ok: v.boolean() }) },
			detail: { operationId: 'takeTb', summary: 'Takes a name', tags: ['tb'] },
			handle: () => ({ ok: true }),
		})
		// The types refuse a TypeBox body; a plugin loaded by path is not type-checked.
		const typebox = { ...route, body: t.Object({ name: t.String() }) } as unknown as RestRoute
		const plugin = definePlugin({
			id: 'tb',
			build: (ctx) => serveRoutes(ctx as RestContext, [typebox], ctx.auth.guard()),
		})
		expect(await startFails(plugin)).toBe(`route POST /api/tb/ has a TypeBox schema as its body: ${RULE}`)
	})

	it('stops the start: a plain route with a TypeBox body or query, named with its plugin', async () => {
		// A plugin loaded by path: its hooks are whatever it wrote, no type checks them.
		const plain = (hooks: Record<string, unknown>) =>
			definePlugin({
				id: 'tb-plain',
				build: () =>
					new Elysia().post(
						'/api/tb-plain/',
						(() => 'ok') as never,
						{
							...policyHook(PUBLIC_WRITE),
							...hooks,
						} as never,
					),
			})
		expect(await startFails(plain({ body: t.Object({ name: t.String() }) }))).toBe(
			`route POST /api/tb-plain/ of plugin 'tb-plain' has a TypeBox schema as its body: ${RULE}`,
		)
		expect(await startFails(plain({ query: t.Object({ q: t.String() }) }))).toBe(
			`route POST /api/tb-plain/ of plugin 'tb-plain' has a TypeBox schema as its query: ${RULE}`,
		)
	})

	it("stops the start: a plugin's route data (`api`) with a TypeBox answer", async () => {
		const plugin = definePlugin({
			id: 'tb-api',
			build: () => new Elysia().post('/api/tb-api/', () => ({ greeting: 'hi' }), policyHook(PUBLIC_WRITE)),
			api: new Elysia().post('/api/tb-api/', documentedOnly, {
				body: v.object({ name: v.string() }),
				response: { 200: t.Object({ greeting: t.String() }) },
			} as never),
		})
		expect(await startFails(plugin)).toBe(
			`route POST /api/tb-api/ of plugin 'tb-api' has a TypeBox schema as its 200 answer: ${RULE}`,
		)
	})
})

describe("a plain route's valibot body", () => {
	it("is answered with DRF's field errors worded from the schema, never the value sent", async () => {
		const plugin = definePlugin({
			id: 'vb-plain',
			build: () =>
				new Elysia().post('/api/vb-plain/', ({ body }) => body, {
					...policyHook(PUBLIC_WRITE),
					body: v.object({ name: v.pipe(v.string('Not a valid string.'), v.maxLength(3, 'Too long.')) }),
				}),
		})
		const instance = await getTestInstance({}, { plugins: [...builtInPlugins, plugin] })
		try {
			const post = (body: unknown) =>
				fetch(`${instance.url}/api/vb-plain/`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify(body),
				})
			const long = await post({ name: 'secret-4545' })
			expect(long.status).toBe(400)
			const text = await long.text()
			expect(JSON.parse(text)).toEqual({ name: ['Too long.'] })
			expect(text).not.toContain('secret-4545')
			expect(await (await post({ name: 'ann' })).json()).toEqual({ name: 'ann' })
		} finally {
			await instance.stop()
		}
	})
})
