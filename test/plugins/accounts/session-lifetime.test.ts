import { afterAll, afterEach, beforeAll, describe, expect, it, setSystemTime } from 'bun:test'
import { readClaims } from '../../../src/server/auth/tokens'
import { type AccountsApp, login, PASSWORD, registerAccount, startAccounts, storedSession } from './support'

/**
 * A cookie session lives SESSION_LIFETIME from its login, however long it sits idle: its refresh
 * tokens expire with it, not after REFRESH_TOKEN_LIFETIME. Time is moved with bun:test's
 * `setSystemTime` (Date.now), which the token signer, the session table's expiry and the refresh
 * family's liveness all read, so nothing sleeps.
 */
const REFRESH = 60
const SESSION = 3600
let app: AccountsApp
beforeAll(async () => {
	app = await startAccounts({
		ACCESS_TOKEN_LIFETIME: '30',
		REFRESH_TOKEN_LIFETIME: String(REFRESH),
		SESSION_LIFETIME: String(SESSION),
	})
})
afterEach(() => setSystemTime())
afterAll(() => app.stop())

/** Moves the clock to `seconds` after `from`. */
const at = (from: number, seconds: number) => setSystemTime(new Date(from + seconds * 1000))

describe('a cookie session left idle', () => {
	it('outlives REFRESH_TOKEN_LIFETIME and ends at SESSION_LIFETIME', async () => {
		const user = await registerAccount(app)
		const start = Date.now()
		setSystemTime(new Date(start))
		const s = await login(app, user.email)
		at(start, REFRESH * 2)
		expect((await app.me(s)).status).toBe(200)
		// Idle again, longer than a refresh token lives, after a rotation.
		at(start, SESSION - 10)
		expect((await app.me(s)).status).toBe(200)
		at(start, SESSION + 1)
		const ended = await app.me(s)
		expect(ended.status).toBe(401)
		expect(await storedSession(app, s.sessionId)).toBeUndefined()
	})

	it('issues and rotates its refresh tokens to expire with the session, not before', async () => {
		const user = await registerAccount(app)
		const start = Date.now()
		setSystemTime(new Date(start))
		const s = await login(app, user.email)
		const first = await storedSession(app, s.sessionId)
		const sessionEnd = Math.ceil((first?.expiresAt ?? 0) / 1000)
		expect(readClaims(first?.refreshToken ?? '')?.exp).toBe(sessionEnd)
		at(start, REFRESH * 3)
		expect((await app.me(s)).status).toBe(200)
		const rotated = await storedSession(app, s.sessionId)
		expect(rotated?.refreshToken).not.toBe(first?.refreshToken)
		expect(readClaims(rotated?.refreshToken ?? '')?.exp).toBe(sessionEnd)
	})

	it('still ends at once on logout, on reuse of its refresh token, and on reset', async () => {
		const start = Date.now()
		setSystemTime(new Date(start))
		// Logout.
		const a = await registerAccount(app)
		const byLogout = await login(app, a.email)
		expect(
			(await app.post('/accounts/logout/', {}, { cookie: byLogout.cookie, origin: app.url })).status,
		).toBe(200)
		at(start, REFRESH * 2)
		expect((await app.me(byLogout)).status).toBe(401)
		// Reuse: a thief rotates the stored refresh token first; the session's next refresh presents
		// the used one, and the whole family (the thief's tokens too) dies.
		setSystemTime(new Date(start))
		const b = await registerAccount(app)
		const stolenFrom = await login(app, b.email)
		const stolen = (await storedSession(app, stolenFrom.sessionId))?.refreshToken ?? ''
		const thief = await app.post('/accounts/token/refresh/', { refresh: stolen })
		expect(thief.status).toBe(200)
		const { access } = (await thief.json()) as { access: string }
		at(start, REFRESH * 2)
		expect((await app.me(stolenFrom)).status).toBe(401)
		expect((await app.me({ access })).status).toBe(401)
		// Reset.
		setSystemTime(new Date(start))
		const c = await registerAccount(app)
		const byReset = await login(app, c.email)
		const token = await app.core.resetTokens.issue(c.id, 3600)
		const reset = await app.post('/accounts/reset-password/', {
			email: c.email,
			token,
			new_password: `${PASSWORD}-new`,
		})
		expect(reset.status).toBe(200)
		expect((await app.me(byReset)).status).toBe(401)
	})
})

describe('a bearer pair from token/', () => {
	it('keeps REFRESH_TOKEN_LIFETIME: only sessions hold their family longer', async () => {
		const user = await registerAccount(app)
		const res = await app.post('/accounts/token/', { email: user.email, password: PASSWORD })
		const { refresh } = (await res.json()) as { refresh: string }
		const claims = readClaims(refresh)
		expect((claims?.exp ?? 0) - (claims?.iat ?? 0)).toBe(REFRESH)
	})
})
