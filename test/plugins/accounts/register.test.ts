import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { type AccountsApp, login, PASSWORD, registerAccount, startAccounts, uniqueEmail } from './support'

let app: AccountsApp
beforeAll(async () => {
	app = await startAccounts()
})
afterAll(() => app.stop())

describe('POST /accounts/register/', () => {
	it('creates the user as owner of a new company, status Active', async () => {
		const email = uniqueEmail('Grace')
		const res = await app.post('/accounts/register/', {
			email,
			password: PASSWORD,
			first_name: 'Grace',
			last_name: 'Hopper',
		})
		expect(res.status).toBe(201)
		const user = (await res.json()) as Record<string, unknown> & { id: number }
		expect(user).toEqual({
			id: user.id,
			email: email.toLowerCase(),
			first_name: 'Grace',
			last_name: 'Hopper',
		})
		const s = await login(app, email)
		const profile = (await (await app.get('/accounts/me/', { cookie: s.cookie })).json()) as Record<
			string,
			unknown
		>
		expect(profile).toEqual({
			id: user.id,
			email: email.toLowerCase(),
			first_name: 'Grace',
			last_name: 'Hopper',
			status: { code: 'active', name: 'Active' },
			company: { id: (profile.company as { id: number }).id, name: "Grace's company", active: true },
			is_owner: true,
		})
	})

	it('refuses a duplicate email, whatever its case', async () => {
		const user = await registerAccount(app)
		const res = await app.post('/accounts/register/', { email: user.email.toUpperCase(), password: PASSWORD })
		expect(res.status).toBe(400)
		expect(await res.json()).toEqual({ email: ['A user with that email already exists.'] })
	})

	it('applies the password policy', async () => {
		const cases: Array<[string, string]> = [
			['password123', 'This password is too common.'],
			['83749265019', 'This password is entirely numeric.'],
			['Xy7#a', 'This password is too short. It must contain at least 8 characters.'],
		]
		for (const [password, message] of cases) {
			const res = await app.post('/accounts/register/', { email: uniqueEmail(), password })
			expect(res.status).toBe(400)
			const body = (await res.json()) as { password: string[] }
			expect(body.password).toContain(message)
		}
		const similar = await app.post('/accounts/register/', {
			email: 'johnathan.doe@example.com',
			password: 'johnathandoe',
		})
		expect(similar.status).toBe(400)
		expect(((await similar.json()) as { password: string[] }).password).toContain(
			'The password is too similar to the email address.',
		)
		const byName = await app.post('/accounts/register/', {
			email: uniqueEmail(),
			password: 'Montgomery1',
			first_name: 'Montgomery',
		})
		expect(((await byName.json()) as { password: string[] }).password).toContain(
			'The password is too similar to the first name.',
		)
	})

	it('refuses an invalid email and over-long names on their fields', async () => {
		const res = await app.post('/accounts/register/', {
			email: 'not-an-email',
			password: PASSWORD,
			first_name: 'x'.repeat(151),
		})
		expect(res.status).toBe(400)
		expect(await res.json()).toEqual({
			email: ['Enter a valid email address.'],
			first_name: ['Ensure this field has no more than 150 characters.'],
		})
	})
})

describe('POST /accounts/check-password/', () => {
	it('answers 200 with empty lists when email and password are fine, creating nothing', async () => {
		const rows = async () => {
			const counts = []
			for (const table of ['user_profile', 'company', 'session', 'refresh_token', 'invite']) {
				const r = await app.handle.client.execute(`select count(*) as n from ${table}`)
				counts.push(Number(r.rows[0]?.n))
			}
			return counts
		}
		const before = await rows()
		const email = uniqueEmail()
		const res = await app.post('/accounts/check-password/', {
			email,
			password: PASSWORD,
			first_name: 'Ada',
			last_name: 'Lovelace',
		})
		expect(res.status).toBe(200)
		expect(await res.json()).toEqual({ email: [], password: [] })
		expect(await rows()).toEqual(before)
		expect((await app.post('/accounts/login/', { email, password: PASSWORD })).status).toBe(401)
	})

	it('checks the password against the names it is given', async () => {
		const res = await app.post('/accounts/check-password/', {
			email: uniqueEmail(),
			password: 'lovelace1815',
			first_name: 'Ada',
			last_name: 'Lovelace',
		})
		expect(res.status).toBe(400)
		expect(await res.json()).toEqual({
			email: [],
			password: ['The password is too similar to the last name.'],
		})
	})

	it('lists the problems of both fields with 400', async () => {
		const user = await registerAccount(app)
		const res = await app.post('/accounts/check-password/', { email: user.email, password: '12345678' })
		expect(res.status).toBe(400)
		const body = (await res.json()) as { email: string[]; password: string[] }
		expect(body.email).toEqual(['A user with that email already exists.'])
		expect(body.password).toContain('This password is too common.')
		expect(body.password).toContain('This password is entirely numeric.')
		const invalid = await app.post('/accounts/check-password/', { email: 'nope', password: PASSWORD })
		expect(invalid.status).toBe(400)
		expect(await invalid.json()).toEqual({ email: ['Enter a valid email address.'], password: [] })
	})
})

describe('POST /accounts/check-password/ per client address', () => {
	it('answers past RESET_RATE_LIMIT_IP email lookups within the window with 429 and Retry-After', async () => {
		const fresh = await startAccounts({ RESET_RATE_LIMIT_IP: '3' })
		try {
			const check = () =>
				fresh.post('/accounts/check-password/', { email: uniqueEmail('probe'), password: PASSWORD })
			for (let i = 0; i < 3; i++) expect((await check()).status).toBe(200)
			const res = await check()
			expect(res.status).toBe(429)
			expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(3500)
			expect(((await res.json()) as { code: string }).code).toBe('throttled')
			// Its own counter: request-reset/ from the same address is still served.
			expect((await fresh.post('/accounts/request-reset/', { email: uniqueEmail() })).status).toBe(200)
		} finally {
			await fresh.stop()
		}
	})
})

describe('POST /accounts/register/ per client address', () => {
	it('answers past REGISTER_RATE_LIMIT_IP registrations within the window with 429, before the lookup', async () => {
		const fresh = await startAccounts({ REGISTER_RATE_LIMIT_IP: '3' })
		try {
			const taken = (await registerAccount(fresh)).email
			const probe = () =>
				fresh.post('/accounts/register/', {
					email: taken,
					password: PASSWORD,
					first_name: 'A',
					last_name: 'B',
				})
			for (let i = 0; i < 2; i++) expect((await probe()).status).toBe(400)
			const res = await probe()
			expect(res.status).toBe(429)
			expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(3500)
			// Nothing about the address: the limit answers before it is looked up.
			expect(await res.json()).toEqual({
				detail: expect.stringMatching(/^Request was throttled\./),
				code: 'throttled',
			})
			// A body that is not even well formed does not count, and is still answered on its fields.
			expect((await fresh.post('/accounts/register/', { email: 'nope' })).status).toBe(400)
			// Its own counter: check-password/ from the same address is still served.
			expect(
				(await fresh.post('/accounts/check-password/', { email: uniqueEmail(), password: PASSWORD })).status,
			).toBe(200)
		} finally {
			await fresh.stop()
		}
	})
})
