import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { userbotRouteList } from '../../../plugins/userbots/routes'
import { bodyJson } from '../../../src/server/http/body-schema'
import { createUserbot, type FreshServer, type Member, serveFresh, signUp } from './support'

/**
 * The userbot routes as definitions (docs/plugins.md#routes-as-data): each body validated by its
 * route's schema, the failures answered in DRF's field errors without the value sent, the caller
 * checked before the body is read, and the document's bodies read from the same definitions.
 */
const SECRET = 'do-not-echo-7731'

let server: FreshServer
let owner: Member
let id: number
beforeAll(async () => {
	server = await serveFresh()
	owner = await signUp(server.url)
	id = await createUserbot(owner)
})
afterAll(() => server.dispose())

const stranger = (method: string, path: string, body: string, type = 'application/json') =>
	fetch(server.url + path, { method, headers: { 'content-type': type }, body })

describe('userbot route bodies', () => {
	it("answers a malformed body to each route that takes one with DRF's field errors, never echoing it", async () => {
		const long = (n: number) => SECRET.repeat(Math.ceil(n / SECRET.length) + 1)
		const cases: Array<[string, string, unknown, Record<string, unknown>]> = [
			[
				'POST',
				'/api/userbots/',
				{ name: long(128) },
				{ name: ['Ensure this field has no more than 128 characters.'] },
			],
			['PATCH', `/api/userbots/${id}/`, { other: SECRET }, { name: ['This field is required.'] }],
			['PATCH', `/api/userbots/${id}/`, { name: [SECRET] }, { name: ['Not a valid string.'] }],
			[
				'POST',
				`/api/userbots/${id}/phone/`,
				{ phone_number: SECRET },
				{ phone_number: ['Enter a valid phone number.'] },
			],
			[
				'POST',
				`/api/userbots/${id}/code/`,
				{ code: long(32) },
				{ code: ['Ensure this field has no more than 32 characters.'] },
			],
			['POST', `/api/userbots/${id}/password/`, { password: 5 }, { password: ['Not a valid string.'] }],
			[
				'POST',
				`/api/userbots/${id}/register/`,
				{ last_name: `${SECRET}\u0000` },
				{ first_name: ['This field is required.'], last_name: ['Control characters are not allowed.'] },
			],
			[
				'PUT',
				`/api/userbots/${id}/proxy/`,
				{ type: SECRET, server: 'proxy.example.com', port: 1080 },
				{ type: ['Select a valid choice. That choice is not one of the available choices.'] },
			],
		]
		for (const [method, path, body, expected] of cases) {
			const res = await owner.call(method, path, body)
			const text = await res.text()
			expect({ method, path, status: res.status, body: JSON.parse(text) }).toEqual({
				method,
				path,
				status: 400,
				body: expected,
			})
			expect(text).not.toContain(SECRET)
		}
	})

	it('checks the whole body of a new userbot at once; a proxy’s own fields nest under `proxy`', async () => {
		const both = await owner.call('POST', '/api/userbots/', { name: 5, proxy: SECRET })
		const bothText = await both.text()
		expect(both.status).toBe(400)
		expect(JSON.parse(bothText)).toEqual({
			name: ['Not a valid string.'],
			proxy: ['Invalid data. Expected a dictionary.'],
		})
		expect(bothText).not.toContain(SECRET)
		const nested = await owner.call('POST', '/api/userbots/', {
			name: 'desk',
			proxy: { type: 'socks5', server: 'proxy.example.com', port: 1080, secret: SECRET },
		})
		expect(nested.status).toBe(400)
		expect(await nested.json()).toEqual({
			proxy: { secret: ['This field is not allowed for this type of proxy.'] },
		})
		// `null` is no proxy, as DRF reads an optional nested serializer.
		const none = await owner.call('POST', '/api/userbots/', { name: 'desk', proxy: null })
		expect(none.status).toBe(201)
		const made = (await none.json()) as { id: number }
		const view = (await (await owner.call('GET', `/api/userbots/${made.id}/`)).json()) as { proxy: unknown }
		expect(view.proxy).toBeNull()
	})

	it('checks the caller before the body: a stranger with a broken or oversized body gets the 401', async () => {
		for (const path of ['/api/userbots/', `/api/userbots/${id}/phone/`, `/api/userbots/${id}/proxy/`]) {
			const method = path.endsWith('proxy/') ? 'PUT' : 'POST'
			for (const body of ['{"phone_number":', '[1, 2]', JSON.stringify({ name: 5 })]) {
				const res = await stranger(method, path, body)
				expect({ path, body, status: res.status }).toEqual({ path, body, status: 401 })
				expect(await res.json()).toEqual({
					detail: 'Authentication credentials were not provided.',
					code: 'not_authenticated',
				})
			}
		}
		const big = 'x'.repeat(3 * 1024 * 1024)
		expect((await stranger('POST', `/api/userbots/${id}/code/`, big)).status).toBe(401)
		const tooLarge = await owner.call('POST', `/api/userbots/${id}/code/`, JSON.stringify({ code: big }))
		expect(tooLarge.status).toBe(413)
		// Another company's userbot is a 404 before its body is looked at.
		const other = await signUp(server.url, 'other')
		const theirs = await other.call('PATCH', `/api/userbots/${id}/`, { name: [SECRET] })
		expect(theirs.status).toBe(404)
	})

	it('leaves a multipart upload to its handler: the form is read there, not parsed as JSON', async () => {
		const form = new FormData()
		form.append('file', new File(['hello'], 'hello.txt', { type: 'text/plain' }))
		const res = await fetch(`${server.url}/api/userbots/${id}/files/`, {
			method: 'POST',
			headers: { authorization: `Bearer ${owner.access}` },
			body: form,
		})
		expect(res.status).toBe(201)
		expect(((await res.json()) as { size: number }).size).toBe(5)
		const json = await owner.call('POST', `/api/userbots/${id}/files/`, { file: SECRET })
		expect(json.status).toBe(415)
		expect(await json.json()).toEqual({ detail: 'Unsupported media type: send multipart/form-data.' })
		expect((await stranger('POST', `/api/userbots/${id}/files/`, '{')).status).toBe(401)
	})

	it('documents each body from the schema its route validates', async () => {
		const doc = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as {
			paths: Record<
				string,
				Record<string, { requestBody?: { content: Record<string, { schema: unknown }> } }>
			>
		}
		const withBodies = userbotRouteList.filter((r) => 'body' in r && r.body !== undefined)
		expect(withBodies.map((r) => `${r.method} ${r.path}`)).toEqual([
			'post /api/userbots/',
			'patch /api/userbots/:id/',
			'post /api/userbots/:id/phone/',
			'post /api/userbots/:id/code/',
			'post /api/userbots/:id/password/',
			'post /api/userbots/:id/register/',
			'post /api/userbots/:id/files/',
			'put /api/userbots/:id/proxy/',
		])
		for (const route of withBodies) {
			const template = route.path.replace(/:([^/]+)/g, '{$1}')
			const content = doc.paths[template]?.[route.method]?.requestBody?.content ?? {}
			const schema = content['application/json']?.schema ?? content['multipart/form-data']?.schema
			expect({ route: template, schema }).toEqual({
				route: template,
				schema: bodyJson((route as { body: unknown }).body),
			})
		}
		// What the routes check, the document says: the log-in steps' lengths.
		const phone = doc.paths['/api/userbots/{id}/phone/']?.post?.requestBody?.content['application/json']
		expect(phone?.schema).toMatchObject({ properties: { phone_number: { type: 'string', maxLength: 32 } } })
	})
})
