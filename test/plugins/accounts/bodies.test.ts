import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { type AccountsApp, registerAccount, startAccounts } from './support'

let app: AccountsApp
beforeAll(async () => {
	app = await startAccounts()
})
afterAll(() => app.stop())

const SECRET = 'Sup3rSecretValue!'

describe('request bodies', () => {
	it('answers invalid JSON with a DRF parse error that quotes nothing', async () => {
		const res = await app.post('/accounts/login/', `{"email": "a@b.c", "password": "${SECRET}"`)
		expect(res.status).toBe(400)
		const text = await res.text()
		expect(JSON.parse(text).detail).toStartWith('JSON parse error - ')
		expect(text).not.toContain(SECRET)
	})

	it('treats JSON that is not an object, and a non-JSON content type, as parse errors', async () => {
		for (const body of ['[1, 2]', '"text"', '42', 'null']) {
			const res = await app.post('/accounts/register/', body)
			expect(res.status).toBe(400)
			expect(((await res.json()) as { detail: string }).detail).toStartWith('JSON parse error - ')
		}
		const form = await fetch(`${app.url}/accounts/login/`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: `email=a%40b.c&password=${SECRET}`,
		})
		expect(form.status).toBe(400)
		const text = await form.text()
		expect(JSON.parse(text).detail).toStartWith('JSON parse error - ')
		expect(text).not.toContain(SECRET)
	})

	it('reports a wrong type on its field without echoing it', async () => {
		const res = await app.post('/accounts/register/', { email: { nested: SECRET }, password: [SECRET] })
		expect(res.status).toBe(400)
		const text = await res.text()
		expect(JSON.parse(text)).toEqual({ email: ['Not a valid string.'], password: ['Not a valid string.'] })
		expect(text).not.toContain(SECRET)
	})

	it('answers a 1 MB field with a clean 400 and keeps serving', async () => {
		const huge = `${SECRET}${'a'.repeat(1024 * 1024)}`
		for (const [path, field, max] of [
			['/accounts/login/', 'password', 128],
			['/accounts/register/', 'email', 254],
			['/accounts/token/refresh/', 'refresh', 512],
			['/accounts/check-password/', 'password', 128],
		] as const) {
			const res = await app.post(path, { email: 'a@example.com', password: 'x', refresh: 'x', [field]: huge })
			expect(res.status).toBe(400)
			const text = await res.text()
			expect(text.length).toBeLessThan(1000)
			expect(text).not.toContain(SECRET)
			expect((JSON.parse(text) as Record<string, string[]>)[field]).toEqual([
				`Ensure this field has no more than ${max} characters.`,
			])
		}
		const user = await registerAccount(app)
		expect(user.id).toBeGreaterThan(0)
	})
})
