import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { rateLimit, resetToken } from '../../../db/schema'
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

const resetPassword = (on: AccountsApp, email: string, token: string, newPassword: string) =>
	on.post('/accounts/reset-password/', { email, token, new_password: newPassword })

async function requestToken(email: string) {
	const res = await app.post('/accounts/request-reset/', { email })
	expect(res.status).toBe(200)
	const link = resetLinkOf((await inbox.next(email)).text)
	return { link, token: link.params.get('token') ?? '' }
}

describe('POST /accounts/request-reset/', () => {
	it('answers the same for a known and an unknown email, and mails a link on PUBLIC_URL', async () => {
		const user = await registerAccount(app)
		// Bun's fetch sends the forged Host as given: the server's request.url names evil.example.net.
		const known = await app.post(
			'/accounts/request-reset/',
			{ email: user.email },
			{
				host: 'evil.example.net',
				'x-forwarded-host': 'evil.example.net',
				'x-forwarded-proto': 'https',
				origin: 'https://evil.example.net',
			},
		)
		const unknown = await app.post('/accounts/request-reset/', { email: uniqueEmail('ghost') })
		expect(known.status).toBe(200)
		expect(unknown.status).toBe(200)
		expect(await known.json()).toEqual(await unknown.json())
		const link = resetLinkOf((await inbox.next(user.email)).text)
		expect(link.url.origin).toBe(new URL(app.config.publicUrl).origin)
		expect(link.url.pathname).toBe('/reset-password')
		// No token in the path or the query, which servers and proxies log: only in the fragment.
		expect(link.url.search).toBe('')
		expect(link.params.get('email')).toBe(user.email)
		// At least 128 bits: 32 random bytes, base64url.
		expect((link.params.get('token') ?? '').length).toBeGreaterThanOrEqual(43)
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
		const second = await requestToken(user.email)
		expect(
			(await app.post('/accounts/request-reset/', { email: user.email, token: first.token })).status,
		).toBe(400)
		const old = await resetPassword(app, user.email, first.token, NEW_PASSWORD)
		expect(old.status).toBe(400)
		expect(await old.json()).toEqual({ token: ['Invalid or expired token.'] })
		const current = await resetPassword(app, user.email, second.token, NEW_PASSWORD)
		expect(current.status).toBe(200)
	})

	it('answers the 4th request for one email within the hour with 429', async () => {
		const email = uniqueEmail('limited')
		for (let i = 0; i < 3; i++)
			expect((await app.post('/accounts/request-reset/', { email })).status).toBe(200)
		const res = await app.post('/accounts/request-reset/', { email })
		expect(res.status).toBe(429)
		const wait = Number(res.headers.get('retry-after'))
		expect(wait).toBeGreaterThan(3500)
		expect(wait).toBeLessThanOrEqual(3600)
		expect(((await res.json()) as { code: string }).code).toBe('throttled')
		// The limit is per email: another address from the same client is still served.
		expect((await app.post('/accounts/request-reset/', { email: uniqueEmail() })).status).toBe(200)
	})

	it('counts the email in any case and with spaces as one address', async () => {
		const email = uniqueEmail('cased')
		for (const variant of [email, email.toUpperCase(), ` ${email} `])
			expect((await app.post('/accounts/request-reset/', { email: variant })).status).toBe(200)
		expect((await app.post('/accounts/request-reset/', { email })).status).toBe(429)
	})
})

describe('POST /accounts/request-reset/ per client address', () => {
	it('answers the 21st request from one address within the hour with 429 and Retry-After', async () => {
		const fresh = await startAccounts()
		try {
			for (let i = 0; i < 20; i++) {
				const res = await fresh.post('/accounts/request-reset/', { email: uniqueEmail('ip') })
				expect(res.status).toBe(200)
			}
			const res = await fresh.post('/accounts/request-reset/', { email: uniqueEmail('ip') })
			expect(res.status).toBe(429)
			expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(3500)
		} finally {
			await fresh.stop()
		}
	})
})

describe('POST /accounts/request-reset/ past the per-address limit', () => {
	it('writes no counter for the emails of refused requests', async () => {
		const fresh = await startAccounts({ RESET_RATE_LIMIT_IP: '3' })
		try {
			const statuses: number[] = []
			for (let i = 0; i < 12; i++)
				statuses.push((await fresh.post('/accounts/request-reset/', { email: uniqueEmail('flood') })).status)
			expect(statuses).toEqual([200, 200, 200, ...Array(9).fill(429)])
			const rows = await fresh.ctx.db.select().from(rateLimit)
			// One counter for the address, one per email it was allowed to ask for.
			expect(rows.length).toBeLessThanOrEqual(3 + 1)
			expect(rows.filter((r) => r.key.startsWith('reset-email:'))).toHaveLength(3)
		} finally {
			await fresh.stop()
		}
	})
})

describe('POST /accounts/request-reset/ timing', () => {
	it('answers for a known email without waiting for the token to be issued', async () => {
		const user = await registerAccount(app)
		const { resetTokens } = app.core
		const original = resetTokens.issue
		let release = () => {}
		const gate = new Promise<void>((resolve) => {
			release = resolve
		})
		let started = 0
		let finished = 0
		resetTokens.issue = async (userId, lifetime) => {
			started++
			await gate
			const token = await original(userId, lifetime)
			finished++
			return token
		}
		try {
			const answer = app.post('/accounts/request-reset/', { email: user.email })
			const timeout = Bun.sleep(3000).then(() => 'timeout' as const)
			const first = await Promise.race([answer, timeout])
			// The answer came while issue() was still held at the gate.
			expect(first).not.toBe('timeout')
			expect((first as Response).status).toBe(200)
			expect(finished).toBe(0)
			release()
			// The mail still arrives, with a working token.
			const link = resetLinkOf((await inbox.next(user.email)).text)
			expect(started).toBe(1)
			expect(finished).toBe(1)
			const token = link.params.get('token') ?? ''
			const ok = await app.post('/accounts/request-reset/', { email: user.email, token })
			expect(await ok.json()).toEqual({ valid: true })
		} finally {
			release()
			resetTokens.issue = original
		}
	})
})

describe('a reset token and a login', () => {
	it('lives through a login with the password, by login/ or token/, after it was mailed', async () => {
		for (const logIn of [(email: string) => login(app, email), (email: string) => tokenPair(app, email)]) {
			const user = await registerAccount(app)
			const { token } = await requestToken(user.email)
			await logIn(user.email)
			const check = await app.post('/accounts/request-reset/', { email: user.email, token })
			expect(await check.json()).toEqual({ valid: true })
			expect((await resetPassword(app, user.email, token, NEW_PASSWORD)).status).toBe(200)
		}
	})

	it('lives through a failed login', async () => {
		const user = await registerAccount(app)
		const { token } = await requestToken(user.email)
		expect(
			(await app.post('/accounts/login/', { email: user.email, password: 'Wrong-password-1' })).status,
		).toBe(401)
		expect((await resetPassword(app, user.email, token, NEW_PASSWORD)).status).toBe(200)
	})
})

describe('POST /accounts/reset-password/', () => {
	it('sets the password once, and revokes every session and refresh token of the user', async () => {
		const user = await registerAccount(app)
		const session = await login(app, user.email)
		const other = await login(app, user.email)
		const pair = await tokenPair(app, user.email)
		// Both are served (and so held in the cache) before the reset.
		expect((await app.me(session)).status).toBe(200)
		expect((await app.me(pair)).status).toBe(200)
		const { token } = await requestToken(user.email)
		const res = await resetPassword(app, user.email, token, NEW_PASSWORD)
		expect(res.status).toBe(200)
		expect(((await res.json()) as { detail: string }).detail).toBeString()
		expect((await app.me(session)).status).toBe(401)
		expect((await app.me(other)).status).toBe(401)
		expect((await app.me(pair)).status).toBe(401)
		expect((await app.post('/accounts/token/refresh/', { refresh: pair.refresh })).status).toBe(401)
		expect((await app.post('/accounts/login/', { email: user.email, password: PASSWORD })).status).toBe(401)
		expect((await app.post('/accounts/login/', { email: user.email, password: NEW_PASSWORD })).status).toBe(
			200,
		)
		const again = await resetPassword(app, user.email, token, 'Another-one-99!')
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
		const res = await resetPassword(app, user.email, token, NEW_PASSWORD)
		expect(res.status).toBe(400)
		expect(await res.json()).toEqual({ token: ['Invalid or expired token.'] })
	})

	it('applies the password policy on new_password and keeps the token', async () => {
		const user = await registerAccount(app)
		const { token } = await requestToken(user.email)
		const weak = await resetPassword(app, user.email, token, 'password123')
		expect(weak.status).toBe(400)
		expect(((await weak.json()) as { new_password: string[] }).new_password).toContain(
			'This password is too common.',
		)
		const ok = await resetPassword(app, user.email, token, NEW_PASSWORD)
		expect(ok.status).toBe(200)
	})

	it('refuses a token presented with another email', async () => {
		const user = await registerAccount(app)
		const other = await registerAccount(app)
		const { token } = await requestToken(user.email)
		const res = await resetPassword(app, other.email, token, NEW_PASSWORD)
		expect(res.status).toBe(400)
	})
})

describe('reset without SMTP_URL', () => {
	it('writes the message to the log, whose link works, and no other line holds a secret', async () => {
		const lines: string[] = []
		const logged = await startAccounts({}, { logLines: lines })
		try {
			const user = await registerAccount(logged)
			await logged.post('/accounts/login/', { email: user.email, password: 'Wrong-password-1' })
			expect((await logged.post('/accounts/request-reset/', { email: user.email })).status).toBe(200)
			// The token is issued and mailed after the answer.
			for (let i = 0; i < 100 && !lines.some((l) => l.includes('/reset-password#')); i++) await Bun.sleep(10)
			const mailLines = lines.filter((l) => l.includes('/reset-password#'))
			expect(mailLines).toHaveLength(1)
			const record = JSON.parse(mailLines[0] ?? '{}') as { level: string; to: string; mail: string }
			expect(record.level).toBe('info')
			expect(record.to).toBe(user.email)
			const token = resetLinkOf(record.mail).params.get('token') ?? ''
			const res = await resetPassword(logged, user.email, token, NEW_PASSWORD)
			expect(res.status).toBe(200)
			for (const line of lines.filter((l) => l !== mailLines[0])) {
				for (const secret of [token, PASSWORD, NEW_PASSWORD, 'Wrong-password-1']) {
					expect(line).not.toContain(secret)
				}
			}
		} finally {
			await logged.stop()
		}
	})
})
