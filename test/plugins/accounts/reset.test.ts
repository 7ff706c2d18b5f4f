import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { resetToken } from '../../../db/schema'
import { type Inbox, resetLinkOf, startInbox } from './smtp'
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
let inbox: Inbox
beforeAll(async () => {
	inbox = await startInbox()
	app = await startAccounts({ SMTP_URL: inbox.url, RESET_RATE_LIMIT_IP: '1000' })
})
afterAll(async () => {
	await app.stop()
	await inbox.close()
})

const NEW_PASSWORD = 'Fresh-Start-2024!x'

async function requestToken(email: string) {
	const res = await app.post('/accounts/request-reset/', { email })
	expect(res.status).toBe(200)
	const link = resetLinkOf((await inbox.next(email)).text)
	return { link, token: link.searchParams.get('token') ?? '' }
}

describe('POST /accounts/request-reset/', () => {
	it('answers the same for a known and an unknown email, and mails a link on PUBLIC_URL', async () => {
		const user = await registerAccount(app)
		const known = await app.post(
			'/accounts/request-reset/',
			{ email: user.email },
			{ host: 'evil.example.net' },
		)
		const unknown = await app.post('/accounts/request-reset/', { email: uniqueEmail('ghost') })
		expect(known.status).toBe(200)
		expect(unknown.status).toBe(200)
		expect(await known.json()).toEqual(await unknown.json())
		const link = resetLinkOf((await inbox.next(user.email)).text)
		expect(link.origin).toBe(new URL(app.config.publicUrl).origin)
		expect(link.pathname).toBe('/reset-password')
		expect(link.searchParams.get('email')).toBe(user.email)
		// At least 128 bits: 32 random bytes, base64url.
		expect((link.searchParams.get('token') ?? '').length).toBeGreaterThanOrEqual(43)
	})

	it('says whether a token is valid', async () => {
		const user = await registerAccount(app)
		const { token } = await requestToken(user.email)
		const ok = await app.post('/accounts/request-reset/', { email: user.email, token })
		expect(ok.status).toBe(200)
		expect(await ok.json()).toEqual({ valid: true })
		const bad = await app.post('/accounts/request-reset/', { email: user.email, token: 'nope' })
		expect(bad.status).toBe(400)
		expect(await bad.json()).toEqual({ token: ['Invalid or expired token.'] })
	})

	it('voids older tokens when a new one is requested', async () => {
		const user = await registerAccount(app)
		const first = await requestToken(user.email)
		await requestToken(user.email)
		expect(
			(await app.post('/accounts/request-reset/', { email: user.email, token: first.token })).status,
		).toBe(400)
	})

	it('answers the 4th request for one email within the hour with 429', async () => {
		const email = uniqueEmail('limited')
		for (let i = 0; i < 3; i++)
			expect((await app.post('/accounts/request-reset/', { email })).status).toBe(200)
		const res = await app.post('/accounts/request-reset/', { email })
		expect(res.status).toBe(429)
		expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
	})
})

describe('POST /accounts/reset-password/', () => {
	it('sets the password once, and revokes every session and refresh token of the user', async () => {
		const user = await registerAccount(app)
		const session = await login(app, user.email)
		const pair = await tokenPair(app, user.email)
		const { token } = await requestToken(user.email)
		const res = await app.post('/accounts/reset-password/', {
			email: user.email,
			token,
			new_password: NEW_PASSWORD,
		})
		expect(res.status).toBe(200)
		expect(((await res.json()) as { detail: string }).detail).toBeString()
		expect((await app.get('/accounts/me/', { cookie: session.cookie })).status).toBe(401)
		expect((await app.get('/accounts/me/', { authorization: `Bearer ${pair.access}` })).status).toBe(401)
		expect((await app.post('/accounts/token/refresh/', { refresh: pair.refresh })).status).toBe(401)
		expect((await app.post('/accounts/login/', { email: user.email, password: PASSWORD })).status).toBe(401)
		expect((await app.post('/accounts/login/', { email: user.email, password: NEW_PASSWORD })).status).toBe(
			200,
		)
		const again = await app.post('/accounts/reset-password/', {
			email: user.email,
			token,
			new_password: 'Another-one-99!',
		})
		expect(again.status).toBe(400)
		expect(await again.json()).toEqual({ token: ['Invalid or expired token.'] })
	})

	it('refuses an expired token', async () => {
		const user = await registerAccount(app)
		const { token } = await requestToken(user.email)
		await app.ctx.db
			.update(resetToken)
			.set({ expiresAt: Date.now() - 1000 })
			.where(eq(resetToken.userId, user.id))
		const res = await app.post('/accounts/reset-password/', {
			email: user.email,
			token,
			new_password: NEW_PASSWORD,
		})
		expect(res.status).toBe(400)
		expect(await res.json()).toEqual({ token: ['Invalid or expired token.'] })
	})

	it('applies the password policy on new_password and keeps the token', async () => {
		const user = await registerAccount(app)
		const { token } = await requestToken(user.email)
		const weak = await app.post('/accounts/reset-password/', {
			email: user.email,
			token,
			new_password: 'password123',
		})
		expect(weak.status).toBe(400)
		expect(((await weak.json()) as { new_password: string[] }).new_password).toContain(
			'This password is too common.',
		)
		const ok = await app.post('/accounts/reset-password/', {
			email: user.email,
			token,
			new_password: NEW_PASSWORD,
		})
		expect(ok.status).toBe(200)
	})

	it('refuses a token presented with another email', async () => {
		const user = await registerAccount(app)
		const other = await registerAccount(app)
		const { token } = await requestToken(user.email)
		const res = await app.post('/accounts/reset-password/', {
			email: other.email,
			token,
			new_password: NEW_PASSWORD,
		})
		expect(res.status).toBe(400)
	})
})
