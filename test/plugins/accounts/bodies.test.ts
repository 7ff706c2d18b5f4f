import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { type AccountsApp, login, PASSWORD, registerAccount, startAccounts, uniqueEmail } from './support'

let app: AccountsApp
let ownerHeaders: Record<string, string>
beforeAll(async () => {
	app = await startAccounts()
	const owner = await registerAccount(app)
	ownerHeaders = { cookie: (await login(app, owner.email)).cookie, origin: app.url }
})
afterAll(() => app.stop())

const SECRET = 'Sup3rSecretValue!'

const expectNoEcho = async (res: Response) => {
	const text = await res.text()
	expect(text).not.toContain(SECRET)
	expect(text.length).toBeLessThan(1000)
	return JSON.parse(text) as Record<string, unknown>
}

describe('request bodies', () => {
	it('answers invalid JSON with a DRF parse error that quotes nothing', async () => {
		const res = await app.post('/accounts/login/', `{"email": "a@b.c", "password": "${SECRET}"`)
		expect(res.status).toBe(400)
		expect(((await expectNoEcho(res)).detail as string).startsWith('JSON parse error - ')).toBe(true)
	})

	it('answers a non-JSON content type and bytes that are not UTF-8 as parse errors', async () => {
		const form = await fetch(`${app.url}/accounts/login/`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: `email=a%40b.c&password=${SECRET}`,
		})
		expect(form.status).toBe(400)
		expect(((await expectNoEcho(form)).detail as string).startsWith('JSON parse error - ')).toBe(true)
		const bytes = await fetch(`${app.url}/accounts/login/`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
		})
		expect(bytes.status).toBe(400)
		expect(await bytes.json()).toEqual({ detail: 'JSON parse error - the request body is not valid UTF-8' })
	})

	// DRF parses these (they are JSON) and its serializer refuses them: not a parse error.
	it("answers JSON that is not an object as DRF's serializer does, on non_field_errors", async () => {
		const cases: Array<[string, string]> = [
			['[1, 2]', 'Invalid data. Expected a dictionary, but got list.'],
			[`"${SECRET}"`, 'Invalid data. Expected a dictionary, but got str.'],
			['42', 'Invalid data. Expected a dictionary, but got int.'],
			['4.5', 'Invalid data. Expected a dictionary, but got float.'],
			['true', 'Invalid data. Expected a dictionary, but got bool.'],
			['null', 'No data provided'],
		]
		for (const [body, message] of cases) {
			for (const path of ['/accounts/register/', '/accounts/login/', '/accounts/token/refresh/']) {
				const res = await app.post(path, body)
				expect(res.status).toBe(400)
				expect(await expectNoEcho(res)).toEqual({ non_field_errors: [message] })
			}
		}
	})

	it('treats an empty body as an empty object: the fields say what is missing', async () => {
		const res = await fetch(`${app.url}/accounts/token/`, { method: 'POST' })
		expect(res.status).toBe(400)
		expect(await res.json()).toEqual({
			email: ['This field is required.'],
			password: ['This field is required.'],
		})
	})

	it('never quotes a submitted password or token in an error of any endpoint', async () => {
		const email = 'nobody@example.com'
		const attempts: Array<[string, Record<string, unknown>]> = [
			['/accounts/login/', { email, password: SECRET }],
			['/accounts/token/', { email, password: SECRET }],
			['/accounts/register/', { email: 'not-an-email', password: SECRET, first_name: SECRET }],
			['/accounts/register/', { email: uniqueEmail(), password: PASSWORD, invite: SECRET }],
			['/accounts/check-password/', { email: SECRET, password: SECRET }],
			['/accounts/request-reset/', { email, token: SECRET }],
			['/accounts/reset-password/', { email, token: SECRET, new_password: SECRET }],
			['/accounts/token/refresh/', { refresh: SECRET }],
			['/accounts/token/blacklist/', { refresh: `${SECRET}.${SECRET}.${SECRET}` }],
		]
		for (const [path, body] of attempts) {
			const res = await app.post(path, body)
			expect(res.status).toBeGreaterThanOrEqual(400)
			await expectNoEcho(res)
		}
	})

	it('reports a wrong type on its field without echoing it', async () => {
		const res = await app.post('/accounts/register/', { email: { nested: SECRET }, password: [SECRET] })
		expect(res.status).toBe(400)
		expect(await expectNoEcho(res)).toEqual({
			email: ['Not a valid string.'],
			password: ['Not a valid string.'],
		})
	})

	it('answers a 1 MB value in any field of any endpoint with a clean 400 on that field', async () => {
		const huge = `${SECRET}${'a'.repeat(1024 * 1024)}`
		const base = { email: 'a@example.com', password: 'x', refresh: 'x', token: 'x', new_password: 'x' }
		const cases: Array<[string, string, number, Record<string, string>?]> = [
			['/accounts/register/', 'email', 254],
			['/accounts/register/', 'password', 128],
			['/accounts/register/', 'first_name', 150],
			['/accounts/register/', 'last_name', 150],
			['/accounts/register/', 'invite', 512],
			['/accounts/check-password/', 'email', 254],
			['/accounts/check-password/', 'password', 128],
			['/accounts/check-password/', 'first_name', 150],
			['/accounts/login/', 'email', 254],
			['/accounts/login/', 'password', 128],
			['/accounts/request-reset/', 'email', 254],
			['/accounts/request-reset/', 'token', 512],
			['/accounts/reset-password/', 'email', 254],
			['/accounts/reset-password/', 'token', 512],
			['/accounts/reset-password/', 'new_password', 128],
			['/accounts/token/', 'email', 254],
			['/accounts/token/', 'password', 128],
			['/accounts/token/refresh/', 'refresh', 512],
			['/accounts/token/blacklist/', 'refresh', 512],
			['/accounts/invites/', 'email', 254, ownerHeaders],
		]
		for (const [path, field, max, headers] of cases) {
			const res = await app.post(path, { ...base, [field]: huge }, headers)
			expect(`${path} ${field} ${res.status}`).toBe(`${path} ${field} 400`)
			expect((await expectNoEcho(res))[field]).toEqual([
				`Ensure this field has no more than ${max} characters.`,
			])
		}
		expect((await registerAccount(app)).id).toBeGreaterThan(0)
	})

	it('answers a 10 MB body with 413 without reading it all, and keeps serving', async () => {
		const tenMb = JSON.stringify({
			email: 'a@example.com',
			password: `${SECRET}${'a'.repeat(10 * 1024 * 1024)}`,
		})
		const sized = await app.post('/accounts/login/', tenMb)
		expect(sized.status).toBe(413)
		expect(await expectNoEcho(sized)).toEqual({
			detail: 'Request body is too large.',
			code: 'request_entity_too_large',
		})
		// Chunked, with no Content-Length to refuse up front: reading stops past the limit.
		const chunk = new TextEncoder().encode('a'.repeat(1024 * 1024))
		const stream = new ReadableStream<Uint8Array>({
			start(controller) {
				for (let i = 0; i < 10; i++) controller.enqueue(chunk)
				controller.close()
			},
		})
		const chunked = await fetch(`${app.url}/accounts/register/`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: stream,
			duplex: 'half',
		} as RequestInit)
		expect(chunked.status).toBe(413)
		const user = await registerAccount(app)
		expect((await app.me(await login(app, user.email))).status).toBe(200)
	})
})
