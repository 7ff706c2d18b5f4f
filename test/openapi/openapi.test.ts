import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import Ajv from 'ajv'
import { restApi } from '../../src/app/rest-api'
import { getTestInstance, type TestInstance } from '../helpers'
import { mainAccount, PASSWORD, startPair } from '../plugins/api-accounts/support'

/**
 * The OpenAPI document against the app: every route it serves is in it with a summary, and the real
 * answers of the main routes (successes and errors) match the schemas documented for their status.
 */
type Operation = {
	summary?: string
	requestBody?: { content: Record<string, { schema: object }> }
	responses: Record<string, { content?: Record<string, { schema: object }> }>
}
type Doc = { openapi: string; paths: Record<string, Record<string, Operation>> }

let t: TestInstance
let doc: Doc
beforeAll(async () => {
	t = await getTestInstance({})
	const res = await fetch(`${t.url}/api/openapi.json`)
	expect(res.status).toBe(200)
	doc = (await res.json()) as Doc
})
afterAll(() => t?.stop())

const ajv = new Ajv({ strict: false, allErrors: true })
	// OpenAPI's integer formats, checked: an id is an integer JSON keeps exact.
	.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) })
	.addFormat('int32', {
		type: 'number',
		validate: (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 31,
	})

/**
 * Sends a request to `base` and checks its answer against `document`'s schema for that path, method and
 * status (a status the document does not list fails too).
 */
async function conformsTo(
	base: string,
	document: Doc,
	method: string,
	path: string,
	template: string,
	init: RequestInit = {},
) {
	const res = await fetch(`${base}${path}`, { ...init, method })
	const operation = document.paths[template]?.[method.toLowerCase()]
	if (!operation) throw new Error(`${method} ${template} is not documented`)
	const documented = operation.responses[String(res.status)]
	if (!documented) throw new Error(`${method} ${template}: status ${res.status} is not documented`)
	const text = await res.text()
	const schema = documented.content?.['application/json']?.schema
	if (!schema) {
		expect(text).toBe('')
		return { status: res.status, body: undefined }
	}
	const body = JSON.parse(text) as unknown
	const validate = ajv.compile(schema)
	if (!validate(body))
		throw new Error(`${method} ${template} ${res.status}: ${ajv.errorsText(validate.errors)} in ${text}`)
	return { status: res.status, body: body as Record<string, unknown> }
}

const conforms = (method: string, path: string, template: string, init: RequestInit = {}) =>
	conformsTo(t.url, doc, method, path, template, init)

const json = (body: unknown, access?: string): RequestInit => ({
	headers: { 'content-type': 'application/json', ...(access ? { authorization: `Bearer ${access}` } : {}) },
	body: JSON.stringify(body),
})
const bearer = (access: string): RequestInit => ({ headers: { authorization: `Bearer ${access}` } })

describe('the OpenAPI document', () => {
	it('is OpenAPI 3.1 and lists every route the app serves, each with a summary', () => {
		expect(doc.openapi).toBe('3.1.0')
		// `/ws` is the command channel's (AsyncAPI's): its upgrade, and the plain GET refused as it is.
		// `/mcp` is the MCP protocol's (JSON-RPC over Streamable HTTP, docs/mcp.md): not REST either.
		const served = t.app.routes
			.filter(
				(r) =>
					!['ALL', 'WS', 'HEAD', 'OPTIONS'].includes(r.method.toUpperCase()) &&
					r.path !== '/ws' &&
					r.path !== '/mcp',
			)
			.map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:([^/]+)/g, '{$1}')}`)
		const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
			Object.entries(item).map(([method, op]) => ({ key: `${method} ${path}`, summary: op.summary })),
		)
		expect(documented.map((d) => d.key).sort()).toEqual([...new Set(served)].sort())
		for (const d of documented)
			expect({ route: d.key, summary: (d.summary?.length ?? 0) > 5 }).toEqual({ route: d.key, summary: true })
		expect(doc.paths['/accounts/register/']?.post?.requestBody?.content['application/json']).toBeDefined()
		expect(
			doc.paths['/api/userbots/{id}/files/']?.post?.requestBody?.content['multipart/form-data'],
		).toBeDefined()
	})

	it('matches the real answers of the accounts routes, errors included', async () => {
		const email = 'openapi@example.com'
		const password = 'Correct-Horse-42'
		const made = await conforms(
			'POST',
			'/accounts/register/',
			'/accounts/register/',
			json({ email, password, first_name: 'Open', last_name: 'Api' }),
		)
		expect(made.status).toBe(201)
		expect(
			(await conforms('POST', '/accounts/register/', '/accounts/register/', json({ email: 'nope' }))).status,
		).toBe(400)
		const pair = await conforms('POST', '/accounts/token/', '/accounts/token/', json({ email, password }))
		expect(pair.status).toBe(200)
		expect(
			(
				await conforms(
					'POST',
					'/accounts/token/',
					'/accounts/token/',
					json({ email, password: 'wrong-password-1' }),
				)
			).status,
		).toBe(401)
		const access = String(pair.body?.access)
		expect((await conforms('GET', '/accounts/me/', '/accounts/me/', bearer(access))).status).toBe(200)
		expect((await conforms('GET', '/accounts/me/', '/accounts/me/')).status).toBe(401)
		const refreshed = await conforms(
			'POST',
			'/accounts/token/refresh/',
			'/accounts/token/refresh/',
			json({ refresh: pair.body?.refresh }),
		)
		expect(refreshed.status).toBe(200)
		expect(
			(await conforms('POST', '/accounts/login/', '/accounts/login/', json({ email, password }))).status,
		).toBe(200)
		const invite = await conforms(
			'POST',
			'/accounts/invites/',
			'/accounts/invites/',
			json({ email: 'friend@example.com' }, String(refreshed.body?.access)),
		)
		expect(invite.status).toBe(201)
		expect(
			(
				await conforms(
					'GET',
					'/accounts/invites/',
					'/accounts/invites/',
					bearer(String(refreshed.body?.access)),
				)
			).status,
		).toBe(200)
		const revoked = await conforms(
			'POST',
			`/accounts/invites/${invite.body?.id}/revoke/`,
			'/accounts/invites/{id}/revoke/',
			bearer(String(refreshed.body?.access)),
		)
		expect(revoked.status).toBe(200)
		expect(
			(
				await conforms(
					'POST',
					'/accounts/check-password/',
					'/accounts/check-password/',
					json({ email: 'x@example.com', password: '12345678' }),
				)
			).status,
		).toBe(400)
		expect((await conforms('GET', '/health', '/health')).status).toBe(200)
		const owner = String(refreshed.body?.access)
		expect((await conforms('GET', '/accounts/statuses/', '/accounts/statuses/', bearer(owner))).status).toBe(
			200,
		)
		const members = await conforms('GET', '/accounts/members/', '/accounts/members/', bearer(owner))
		expect(members.status).toBe(200)
		const self = (members.body as unknown as Array<{ id: number }>)[0]?.id
		const changed = await conforms(
			'POST',
			`/accounts/members/${self}/status/`,
			'/accounts/members/{id}/status/',
			json({ status: 'on_leave' }, owner),
		)
		expect(changed.status).toBe(200)
		const unknown = await conforms(
			'POST',
			`/accounts/members/${self}/status/`,
			'/accounts/members/{id}/status/',
			json({ status: 'no-such-status' }, owner),
		)
		expect(unknown.status).toBe(400)
		expect(
			(
				await conforms(
					'POST',
					'/accounts/members/999999/status/',
					'/accounts/members/{id}/status/',
					json({ status: 'active' }, owner),
				)
			).status,
		).toBe(404)
	})

	it('matches the real answers of the userbot routes, errors included', async () => {
		const email = 'openapi-bots@example.com'
		const password = 'Correct-Horse-42'
		await conforms(
			'POST',
			'/accounts/register/',
			'/accounts/register/',
			json({ email, password, first_name: 'Bot', last_name: 'Owner' }),
		)
		const access = String(
			(await conforms('POST', '/accounts/token/', '/accounts/token/', json({ email, password }))).body
				?.access,
		)
		const made = await conforms('POST', '/api/userbots/', '/api/userbots/', json({ name: 'docs' }, access))
		expect(made.status).toBe(201)
		const id = String(made.body?.id)
		expect((await conforms('GET', '/api/userbots/', '/api/userbots/', bearer(access))).status).toBe(200)
		expect(
			(await conforms('GET', `/api/userbots/${id}/`, '/api/userbots/{id}/', bearer(access))).status,
		).toBe(200)
		expect(
			(await conforms('GET', '/api/userbots/999999/', '/api/userbots/{id}/', bearer(access))).status,
		).toBe(404)
		expect(
			(
				await conforms(
					'POST',
					`/api/userbots/${id}/code/`,
					'/api/userbots/{id}/code/',
					json({ code: '22222' }, access),
				)
			).status,
		).toBe(400)
		expect(
			(await conforms('POST', `/api/userbots/${id}/phone/`, '/api/userbots/{id}/phone/', json({}, access)))
				.status,
		).toBe(400)
		expect(
			(
				await conforms(
					'POST',
					`/api/userbots/${id}/phone/`,
					'/api/userbots/{id}/phone/',
					json({ phone_number: '9996621234' }, access),
				)
			).status,
		).toBe(200)
		expect(
			(
				await conforms(
					'POST',
					`/api/userbots/${id}/code/`,
					'/api/userbots/{id}/code/',
					json({ code: '22222' }, access),
				)
			).status,
		).toBe(200)
		const proxy = { type: 'socks5', server: '93.184.216.34', port: 1080, password: 'p' }
		const put = (body: unknown) =>
			conforms('PUT', `/api/userbots/${id}/proxy/`, '/api/userbots/{id}/proxy/', {
				...json(body, access),
			})
		expect((await put(proxy)).status).toBe(200)
		expect((await put({ ...proxy, port: 0 })).status).toBe(400)
		expect(
			(await conforms('GET', `/api/userbots/${id}/`, '/api/userbots/{id}/', bearer(access))).body?.proxy,
		).toMatchObject({ type: 'socks5', has_password: true })
		expect(
			(
				await conforms(
					'POST',
					`/api/userbots/${id}/proxy/check/`,
					'/api/userbots/{id}/proxy/check/',
					bearer(access),
				)
			).status,
		).toBe(200)
		for (const status of [204, 404])
			expect(
				(await conforms('DELETE', `/api/userbots/${id}/proxy/`, '/api/userbots/{id}/proxy/', bearer(access)))
					.status,
			).toBe(status)
		expect(
			(await conforms('DELETE', `/api/userbots/${id}/`, '/api/userbots/{id}/', bearer(access))).status,
		).toBe(204)
	})

	it('documents every route of the contract once all of their plugins are loaded, family B included', async () => {
		const pair = await startPair()
		try {
			const res = await fetch(`${pair.edge.url}/api/openapi.json`)
			const edgeDoc = (await res.json()) as Doc
			const routes = (document: Doc) =>
				Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m} ${path}`))
			const contract = restApi.routes.map(
				(r) => `${r.method.toLowerCase()} ${r.path.replace(/:([^/]+)/g, '{$1}')}`,
			)
			// The built-in app (docs/openapi.json) and an app with family B, together, serve the whole contract.
			const served = new Set([...routes(doc), ...routes(edgeDoc)])
			expect(contract.filter((r) => !served.has(r))).toEqual([])
			expect(routes(edgeDoc)).toContain('post /api/accounts/login/')

			// Family B's real answers: a body that is no login, credentials the main server refuses, a login
			// and a logout.
			const owner = await mainAccount(pair.main)
			const at = (method: string, path: string, init: RequestInit = {}) =>
				conformsTo(pair.edge.url, edgeDoc, method, path, path, init)
			expect((await at('POST', '/api/accounts/login/', json({ email: owner.email }))).status).toBe(400)
			expect(
				(await at('POST', '/api/accounts/login/', json({ email: owner.email, password: 'Wrong-password-9' })))
					.status,
			).toBe(401)
			const login = await at('POST', '/api/accounts/login/', json({ email: owner.email, password: PASSWORD }))
			expect(login.status).toBe(200)
			const sessionid = String(login.body?.sessionid)
			const out = await at('POST', '/api/accounts/logout/', {
				headers: { cookie: `sessionid=${sessionid}`, origin: pair.edge.url },
			})
			expect(out.status).toBe(200)
		} finally {
			await pair.stop()
		}
	})
})
