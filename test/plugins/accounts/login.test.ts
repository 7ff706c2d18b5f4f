import { afterAll, beforeAll, describe, expect, it, spyOn } from 'bun:test'
import { eq } from 'drizzle-orm'
import { userProfile } from '../../../db/schema'
import {
	type AccountsApp,
	login,
	PASSWORD,
	registerAccount,
	startAccounts,
	tokenPair,
	uniqueEmail,
} from './support'

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

	it('stores argon2id hashes (19 MiB, 2 passes) and rehashes one made otherwise at login', async () => {
		const user = await registerAccount(app)
		const hashOf = async () => {
			const [row] = await app.ctx.db
				.select({ hash: userProfile.passwordHash })
				.from(userProfile)
				.where(eq(userProfile.id, user.id))
			return row?.hash ?? ''
		}
		expect(await hashOf()).toStartWith('$argon2id$v=19$m=19456,t=2,')
		const weaker = await Bun.password.hash(PASSWORD, { algorithm: 'argon2id', memoryCost: 8192, timeCost: 1 })
		await app.ctx.db.update(userProfile).set({ passwordHash: weaker }).where(eq(userProfile.id, user.id))
		await login(app, user.email)
		const rehashed = await hashOf()
		expect(rehashed).not.toBe(weaker)
		expect(rehashed).toStartWith('$argon2id$v=19$m=19456,t=2,')
		await login(app, user.email)
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

	it('counts login/ and token/ failures together, and answers token/ 429 with Retry-After', async () => {
		const user = await registerAccount(app)
		const bad = { email: user.email, password: 'Wrong-password-1' }
		for (let i = 0; i < 3; i++) expect((await app.post('/accounts/token/', bad)).status).toBe(401)
		for (let i = 0; i < 2; i++) expect((await app.post('/accounts/login/', bad)).status).toBe(401)
		for (const path of ['/accounts/token/', '/accounts/login/']) {
			const res = await app.post(path, { email: user.email, password: PASSWORD })
			expect(res.status).toBe(429)
			const wait = Number(res.headers.get('retry-after'))
			expect(wait).toBeGreaterThan(0)
			expect(wait).toBeLessThanOrEqual(15 * 60)
			expect(await res.json()).toEqual({
				detail: `Request was throttled. Expected available in ${wait} seconds.`,
				code: 'throttled',
			})
		}
	})

	it('lets no more than 5 of many concurrent guesses reach the password hasher', async () => {
		const user = await registerAccount(app)
		const verify = spyOn(app.core.hasher, 'verify')
		try {
			const answers = await Promise.all(
				Array.from({ length: 12 }, () =>
					app.post('/accounts/login/', { email: user.email, password: 'Wrong-password-1' }),
				),
			)
			const statuses = answers.map((r) => r.status).sort()
			expect(statuses.filter((s) => s === 401)).toHaveLength(5)
			expect(statuses.filter((s) => s === 429)).toHaveLength(7)
			expect(verify.mock.calls.length).toBe(5)
		} finally {
			verify.mockRestore()
		}
	})

	it('serves many concurrent good logins of one account, refusing none', async () => {
		const user = await registerAccount(app)
		const answers = await Promise.all(
			Array.from({ length: 8 }, () =>
				app.post('/accounts/login/', { email: user.email, password: PASSWORD }),
			),
		)
		expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200))
	})

	it('does not count successful logins toward the limit', async () => {
		const user = await registerAccount(app)
		const bad = { email: user.email, password: 'Wrong-password-1' }
		for (let i = 0; i < 4; i++) expect((await app.post('/accounts/login/', bad)).status).toBe(401)
		for (let i = 0; i < 3; i++) await login(app, user.email)
		expect((await app.post('/accounts/login/', bad)).status).toBe(401)
		expect((await app.post('/accounts/login/', bad)).status).toBe(429)
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

	it('revokes the family of a bearer access token', async () => {
		const user = await registerAccount(app)
		const pair = await tokenPair(app, user.email)
		expect((await app.me(pair)).status).toBe(200)
		const res = await app.post('/accounts/logout/', {}, { authorization: `Bearer ${pair.access}` })
		expect(res.status).toBe(200)
		expect((await app.me(pair)).status).toBe(401)
		expect((await app.post('/accounts/token/refresh/', { refresh: pair.refresh })).status).toBe(401)
	})

	it('answers 200 and clears the cookies even without a live session', async () => {
		const res = await app.post('/accounts/logout/', {}, { cookie: 'sessionid=gone; csrftoken=gone' })
		expect(res.status).toBe(200)
		expect(res.headers.getSetCookie().filter((c) => c.includes('Max-Age=0'))).toHaveLength(2)
	})

	it('refuses a cross-site logout', async () => {
		const user = await registerAccount(app)
		const s = await login(app, user.email)
		const res = await app.post('/accounts/logout/', {}, { cookie: s.cookie, 'sec-fetch-site': 'cross-site' })
		expect(res.status).toBe(403)
		expect((await app.get('/accounts/me/', { cookie: s.cookie })).status).toBe(200)
	})
})

describe('cookies with COOKIE_SECURE=true', () => {
	it('marks both cookies Secure, HttpOnly, SameSite=Lax, Path=/, for the session lifetime', async () => {
		const secure = await startAccounts({ COOKIE_SECURE: 'true' })
		try {
			const user = await registerAccount(secure)
			const s = await login(secure, user.email)
			expect(s.setCookies).toHaveLength(2)
			for (const c of s.setCookies) {
				const attributes = c
					.split(';')
					.slice(1)
					.map((a) => a.trim())
				expect(attributes).toContain('Secure')
				expect(attributes).toContain('HttpOnly')
				expect(attributes).toContain('SameSite=Lax')
				expect(attributes).toContain('Path=/')
				expect(attributes).toContain(`Max-Age=${14 * 24 * 3600}`)
			}
			const out = await secure.post('/accounts/logout/', {}, { cookie: s.cookie, origin: secure.url })
			for (const c of out.headers.getSetCookie()) expect(c).toContain('; Secure')
		} finally {
			await secure.stop()
		}
	})
})
