import { describe, expect, it } from 'bun:test'
import * as v from 'valibot'
import { bodyJson } from '../../src/server/http/body-schema'
import {
	AccountFields,
	describeRoutes,
	drfBody,
	faulted,
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
 * A third party's plugin written with the REST toolkit: each route one definition, its body one
 * valibot schema (issue 44: the language of every body of the app's own routes), the only
 * validation it writes: validated once, before the handler, DRF's field errors worded from the
 * schema's own messages (never quoting a value), the handler given its output, and the document's
 * body converted from the same schema.
 */
const SECRET = 'do-not-echo-4343'
const seen: unknown[] = []
const Nickname = drfBody({
	email: AccountFields.email(),
	nickname: v.pipe(
		v.string('Not a valid string.'),
		v.maxLength(5, 'Ensure this field has no more than 5 characters.'),
	),
	adult: v.optional(v.boolean('Must be a valid boolean.')),
	note: v.optional(AccountFields.name()),
	// A rule JSON Schema cannot word as DRF does: checked and worded by the plugin's own function.
	tags: v.optional(
		faulted<string[]>((x) => (Array.isArray(x) && x.length <= 2 ? null : 'At most two tags.'), {
			type: 'array',
			items: { type: 'string' },
		}),
	),
})
const routes = [
	restRoute({
		method: 'post',
		path: '/api/vnick/',
		policy: PUBLIC_WRITE,
		body: Nickname,
		response: { 200: v.object({ ok: v.boolean() }), ...ROUTE_ERRORS.badRequest },
		detail: { operationId: 'takeNicknameValibot', summary: 'Takes a nickname (valibot)', tags: ['nick'] },
		handle: async (_ctx: RestContext, { body }) => {
			seen.push(body)
			return { ok: true }
		},
	}),
	restRoute({
		method: 'post',
		path: '/api/vnick/guarded/',
		policy: PUBLIC_WRITE,
		body: v.object({ nickname: v.pipe(v.string(), v.maxLength(5, 'Too long.')) }),
		response: { 200: v.object({ by: v.string() }), ...ROUTE_ERRORS.badRequest, ...ROUTE_ERRORS.authed },
		detail: {
			operationId: 'takeNicknameFromCallerValibot',
			summary: 'Takes a nickname from a caller who says who they are',
			tags: ['nick'],
		},
		// Refuses before the body is read: a stranger learns nothing from the body's checks.
		before: async (_ctx: RestContext, { request }) => {
			const who = request.headers.get('x-who')
			if (!who) throw new HttpError(401, { detail: 'Authentication credentials were not provided.' })
			return who
		},
		handle: async (_ctx: RestContext, { pre, body }) => ({ by: `${pre}:${body.nickname}` }),
	}),
] as const
const nick = definePlugin({
	id: 'vnick',
	api: describeRoutes('vnick-api', routes),
	build: (ctx) => serveRoutes(ctx, routes, ctx.auth.guard()),
})

const served = serveWith(nick)
const post = served.post

describe("a plugin's route with a valibot body", () => {
	it("answers a body that fails its schema with DRF's field errors, the handler never called", async () => {
		await expectRefusals('/api/vnick/', post, seen, SECRET)
	})

	it("hands the handler the schema's output: the e-mail trimmed and lower-cased, an optional null and unknown fields absent", async () => {
		seen.length = 0
		const ok = await post(
			'/api/vnick/',
			JSON.stringify({ email: ' Ann@Example.ORG ', nickname: 'ann', note: null, other: 1 }),
		)
		expect(ok.status).toBe(200)
		expect(seen).toEqual([{ email: 'ann@example.org', nickname: 'ann' }])
	})

	it("answers a body that is no JSON object as DRF's parser and serializer do", async () => {
		await expectNoObject('/api/vnick/', post)
	})

	it('runs `before` ahead of reading the body: a stranger with a broken or bad body gets the 401', async () => {
		const long = JSON.stringify({ nickname: 'far too long' })
		expect((await post('/api/vnick/guarded/', '{broken')).status).toBe(401)
		expect((await post('/api/vnick/guarded/', long)).status).toBe(401)
		expect((await post('/api/vnick/guarded/', '{broken', { 'x-who': 'ann' })).status).toBe(400)
		expect(JSON.parse((await post('/api/vnick/guarded/', long, { 'x-who': 'ann' })).text)).toEqual({
			nickname: ['Too long.'],
		})
		const ok = await post('/api/vnick/guarded/', JSON.stringify({ nickname: 'ann' }), { 'x-who': 'ann' })
		expect(JSON.parse(ok.text)).toEqual({ by: 'ann:ann' })
	})

	it('documents the body from the schema that validates it: a field added there is in both at once', async () => {
		const doc = (await (await fetch(`${served.url()}/api/openapi.json`)).json()) as {
			paths: Record<string, Record<string, { summary?: string; requestBody?: unknown }>>
		}
		expect(doc.paths['/api/vnick/']?.post?.summary).toBe('Takes a nickname (valibot)')
		const body = doc.paths['/api/vnick/']?.post?.requestBody as
			| { content: Record<string, { schema: unknown }> }
			| undefined
		const schema = body?.content['application/json']?.schema
		expect(schema).toEqual(bodyJson(Nickname))
		expect(schema).toEqual({
			type: 'object',
			required: ['email', 'nickname'],
			properties: {
				email: { maxLength: 254, type: 'string' },
				nickname: { type: 'string', maxLength: 5 },
				adult: { type: 'boolean' },
				note: { maxLength: 150, type: 'string' },
				tags: { type: 'array', items: { type: 'string' } },
			},
		})
	})
})
