import { describe, expect, it } from 'bun:test'
import { t } from 'elysia'
import {
	checkedBy,
	describeRoutes,
	Fields,
	HttpError,
	PUBLIC_WRITE,
	type RestContext,
	ROUTE_ERRORS,
	restRoute,
	serveRoutes,
} from '../../src/server/plugin/api'
import { definePlugin } from '../../src/server/plugin/define'
import { expectNoObject, expectRefusals, serveWith } from './nickname-checks'

/**
 * A third party's plugin written with the REST toolkit: each route one definition, its body schema
 * the only validation it writes. What it gets for free: DRF's parse errors, DRF's field errors from
 * the app's one error handler (never quoting a value), and the document's body from the same schema.
 */
const SECRET = 'do-not-echo-4242'
const seen: unknown[] = []
const Nickname = t.Object({
	email: Fields.email(),
	nickname: t.String({ maxLength: 5 }),
	adult: t.Optional(t.Boolean()),
	note: t.Optional(Fields.name()),
	// A rule JSON Schema cannot word as DRF does: checked and worded by the plugin's own function.
	tags: t.Optional(
		checkedBy(t.Array(t.String()), (x) => (Array.isArray(x) && x.length <= 2 ? null : 'At most two tags.')),
	),
})
const routes = [
	restRoute({
		method: 'post',
		path: '/api/nick/',
		policy: PUBLIC_WRITE,
		body: Nickname,
		response: { 200: t.Object({ ok: t.Boolean() }), ...ROUTE_ERRORS.badRequest },
		detail: { operationId: 'takeNickname', summary: 'Takes a nickname', tags: ['nick'] },
		handle: async (_ctx: RestContext, { body }) => {
			seen.push(body)
			return { ok: true }
		},
	}),
	restRoute({
		method: 'post',
		path: '/api/nick/guarded/',
		policy: PUBLIC_WRITE,
		body: t.Object({ nickname: t.String({ maxLength: 5 }) }),
		response: { 200: t.Object({ by: t.String() }), ...ROUTE_ERRORS.badRequest, ...ROUTE_ERRORS.authed },
		detail: {
			operationId: 'takeNicknameFromCaller',
			summary: 'Takes a nickname from a caller who says who they are',
			tags: ['nick'],
		},
		// Refuses before the body is read: a stranger learns nothing from the body's checks.
		before: async (_ctx: RestContext, { request }) => {
			const who = request.headers.get('x-who')
			if (!who) throw new HttpError(401, { detail: 'Authentication credentials were not provided.' })
			return who
		},
		handle: async (_ctx: RestContext, { pre }) => ({ by: pre }),
	}),
] as const
const nick = definePlugin({
	id: 'nick',
	api: describeRoutes('nick-api', routes),
	build: (ctx) => serveRoutes(ctx, routes, ctx.auth.guard()),
})

const served = serveWith(nick)
const post = served.post
const send = (value: unknown, headers?: Record<string, string>) =>
	post('/api/nick/', JSON.stringify(value), headers)

describe("a plugin's route, one definition", () => {
	it("answers a body that fails its schema with DRF's field errors, the handler never called", async () => {
		await expectRefusals('/api/nick/', post, seen, SECRET)
	})

	it('hands the handler the body in its stored form: the e-mail trimmed and lower-cased, an optional null absent', async () => {
		seen.length = 0
		const ok = await send({ email: ' Ann@Example.ORG ', nickname: 'ann', note: null })
		expect(ok.status).toBe(200)
		expect(seen).toEqual([{ email: 'ann@example.org', nickname: 'ann' }])
	})

	it("answers a body that is no JSON object as DRF's parser and serializer do", async () => {
		await expectNoObject('/api/nick/', post)
	})

	it('runs `before` ahead of reading the body: a stranger with a broken body gets the 401', async () => {
		expect((await post('/api/nick/guarded/', '{broken')).status).toBe(401)
		expect((await post('/api/nick/guarded/', JSON.stringify({ nickname: 'far too long' }))).status).toBe(401)
		expect((await post('/api/nick/guarded/', '{broken', { 'x-who': 'ann' })).status).toBe(400)
		const ok = await post('/api/nick/guarded/', JSON.stringify({ nickname: 'ann' }), { 'x-who': 'ann' })
		expect(JSON.parse(ok.text)).toEqual({ by: 'ann' })
	})

	it('documents the body from the schema that validates it: a field added there is in both at once', async () => {
		const doc = (await (await fetch(`${served.url()}/api/openapi.json`)).json()) as {
			paths: Record<string, Record<string, { summary?: string; requestBody?: unknown }>>
		}
		const op = doc.paths['/api/nick/']?.post
		expect(op?.summary).toBe('Takes a nickname')
		const body = op?.requestBody as { content: Record<string, { schema: unknown }> } | undefined
		const schema = body?.content['application/json']?.schema
		expect(schema).toEqual(JSON.parse(JSON.stringify(Nickname)))
		// Serving the route (the requests above) left the definition as it was: Elysia's validator
		// works on a copy, so the document does not depend on which routes were served before it.
		expect(schema).not.toHaveProperty('additionalProperties')
		expect((schema as { properties: Record<string, unknown> }).properties.nickname).toEqual({
			maxLength: 5,
			type: 'string',
		})
		expect((schema as { required: string[] }).required).toEqual(['email', 'nickname'])
		// A field checked by its own function is documented as its plain JSON.
		expect((schema as { properties: Record<string, unknown> }).properties.tags).toEqual({
			type: 'array',
			items: { type: 'string' },
		})
	})
})
