import { afterAll, beforeAll, describe, expect, it, spyOn } from 'bun:test'
import { type AccountsApp, login, PASSWORD, registerAccount, startAccounts, uniqueEmail } from './support'

let app: AccountsApp
beforeAll(async () => {
	app = await startAccounts()
})
afterAll(() => app.stop())

describe('POST /accounts/login/', () => {
	it('returns the session id and user and sets HttpOnly Lax cookies', async () => {
		const user = await registerAccount(app)
		const res = await app.post('/accounts/login/', { email: user.email, password: PASSWORD })
		expect(res.status).toBe(200)
		const body = (await res.json()) as { sessionid: string; user: { id: number; email: string } }
		expect(body.user).toEqual({ id: user.id, email: user.email })
		expect(body.sessionid.length).toBeGreaterThanOrEqual(43)
		const cookies = res.headers.getSetCookie()
		const session = cookies.find((c) => c.startsWith('sessionid='))
		const csrf = cookies.find((c) => c.startsWith('csrftoken='))
		expect(session).toContain(`sessionid=${body.sessionid};`)
		for (const c of [session, csrf]) {
			expect(c).toContain('HttpOnly')
			expect(c).toContain('SameSite=Lax')
			expect(c).toContain('Path=/')
			expect(c).not.toContain('Secure')
		}
	})

	it('accepts the email in any case', async () => {
		const user = await registerAccount(app)
		const res = await app.post('/accounts/login/', { email: user.email.toUpperCase(), password: PASSWORD })
		expect(res.status).toBe(200)
	})

	it('issues a new session id at every login and ends the one the cookie named', async () => {
		const user = await registerAccount(app)
		const first = await login(app, user.email)
		const second = await login(app, user.email, PASSWORD, { cookie: first.cookie })
		expect(second.sessionId).not.toBe(first.sessionId)
		expect((await app.get('/accounts/me/', { cookie: first.cookie })).status).toBe(401)
		expect((await app.get('/accounts/me/', { cookie: second.cookie })).status).toBe(200)
	})

	it('refuses a wrong password and an unknown email with the same 401', async () => {
		const user = await registerAccount(app)
		const wrong = await app.post('/accounts/login/', { email: user.email, password: 'Wrong-password-1' })
		const unknown = await app.post('/accounts/login/', {
			email: uniqueEmail('ghost'),
			password: 'Wrong-password-1',
		})
		expect(wrong.status).toBe(401)
		expect(unknown.status).toBe(401)
		const expected = {
			detail: 'No active account found with the given credentials',
			code: 'no_active_account',
		}
		expect(await wrong.json()).toEqual(expected)
		expect(await unknown.json()).toEqual(expected)
	})

	it('runs the password hasher as often for an unknown email as for a known one', async () => {
		const user = await registerAccount(app)
		const verify = spyOn(app.core.hasher, 'verify')
		try {
			await app.post('/accounts/login/', { email: user.email, password: 'Wrong-password-1' })
			const known = verify.mock.calls.length
			await app.post('/accounts/login/', { email: uniqueEmail('ghost'), password: 'Wrong-password-1' })
			const unknown = verify.mock.calls.length - known
			await app.post('/accounts/token/', { email: uniqueEmail('ghost'), password: 'Wrong-password-1' })
			const token = verify.mock.calls.length - known - unknown
			expect(known).toBe(1)
			expect(unknown).toBe(known)
			expect(token).toBe(known)
		} finally {
			verify.mockRestore()
		}
	})

	it('answers the 6th failed login of an email from one address with 429 and Retry-After', async () => {
		const user = await registerAccount(app)
		for (let i = 0; i < 5; i++) {
			const res = await app.post('/accounts/login/', { email: user.email, password: 'Wrong-password-1' })
			expect(res.status).toBe(401)
		}
		const res = await app.post('/accounts/login/', { email: user.email, password: PASSWORD })
		expect(res.status).toBe(429)
		expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
		const body = (await res.json()) as { detail: string; code: string }
		expect(body.code).toBe('throttled')
		// Another email from the same address is not affected.
		const other = await registerAccount(app)
		expect((await app.post('/accounts/login/', { email: other.email, password: PASSWORD })).status).toBe(200)
	})

	it('reports missing and wrongly typed fields on the field', async () => {
		const missing = await app.post('/accounts/login/', {})
		expect(missing.status).toBe(400)
		expect(await missing.json()).toEqual({
			email: ['This field is required.'],
			password: ['This field is required.'],
		})
		const typed = await app.post('/accounts/login/', { email: 'a@example.com', password: 12345678 })
		expect(typed.status).toBe(400)
		expect(await typed.json()).toEqual({ password: ['Not a valid string.'] })
	})
})

describe('POST /accounts/logout/', () => {
	it('ends the session, clears the cookies, and /me is then 401', async () => {
		const user = await registerAccount(app)
		const s = await login(app, user.email)
		expect((await app.get('/accounts/me/', { cookie: s.cookie })).status).toBe(200)
		const res = await app.post('/accounts/logout/', {}, { cookie: s.cookie, origin: app.url })
		expect(res.status).toBe(200)
		expect(((await res.json()) as { message: string }).message).toBeString()
		const cleared = res.headers.getSetCookie()
		expect(cleared.some((c) => c.startsWith('sessionid=;') && c.includes('Max-Age=0'))).toBe(true)
		expect(cleared.some((c) => c.startsWith('csrftoken=;') && c.includes('Max-Age=0'))).toBe(true)
		expect((await app.get('/accounts/me/', { cookie: s.cookie })).status).toBe(401)
	})

	it('refuses a cross-site logout', async () => {
		const user = await registerAccount(app)
		const s = await login(app, user.email)
		const res = await app.post('/accounts/logout/', {}, { cookie: s.cookie, 'sec-fetch-site': 'cross-site' })
		expect(res.status).toBe(403)
		expect((await app.get('/accounts/me/', { cookie: s.cookie })).status).toBe(200)
	})
})
