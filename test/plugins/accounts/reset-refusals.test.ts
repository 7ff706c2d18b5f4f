import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { type Inbox, resetLinkOf, startInbox } from './smtp'
import {
	type Account,
	type AccountsApp,
	type LoggedIn,
	login,
	PASSWORD,
	registerAccount,
	startAccounts,
	storedSession,
	tokenPair,
} from './support'

/**
 * A refused reset attempt never voids the token (issue 43): after a wrong token, the right token
 * with another account's e-mail, or a weak new password, and after the user logged in to see that
 * the password is still the old one, the mailed link still sets the password, and that ends every
 * session, access token and refresh family opened before. The link stays single use.
 */
let app: AccountsApp
let inbox: Inbox
beforeAll(async () => {
	inbox = await startInbox()
	app = await startAccounts({ SMTP_URL: inbox.url })
})
afterAll(async () => {
	await app.stop()
	await inbox.close()
})

const NEW_PASSWORD = 'Fresh-Start-2024!x'
const INVALID = { token: ['Invalid or expired token.'] }

const resetPassword = (email: string, token: string, newPassword: string) =>
	app.post('/accounts/reset-password/', { email, token, new_password: newPassword })

async function requestToken(email: string): Promise<string> {
	expect((await app.post('/accounts/request-reset/', { email })).status).toBe(200)
	return resetLinkOf((await inbox.next(email)).text).params.get('token') ?? ''
}

/** What the user holds before the reset: two cookie sessions, the JWT pair of one, a token pair. */
interface Held {
	sessions: LoggedIn[]
	sessionPair: { access: string; refresh: string }
	pair: { access: string; refresh: string }
}

async function holdCredentials(user: Account): Promise<Held> {
	const sessions = [await login(app, user.email), await login(app, user.email)]
	const pair = await tokenPair(app, user.email)
	for (const s of sessions) expect((await app.me(s)).status).toBe(200)
	expect((await app.me(pair)).status).toBe(200)
	const row = await storedSession(app, sessions[0]?.sessionId ?? '')
	const sessionPair = { access: row?.accessToken ?? '', refresh: row?.refreshToken ?? '' }
	expect((await app.me({ access: sessionPair.access })).status).toBe(200)
	return { sessions, sessionPair, pair }
}

/** The user checks nothing changed: the old password still logs in (login/ and token/). */
async function oldPasswordStillWorks(user: Account): Promise<Held> {
	return holdCredentials(user)
}

/** The right attempt sets the password and ends everything held; the link then works no more. */
async function succeedsAndRevokes(user: Account, token: string, held: Held[]) {
	const ok = await resetPassword(user.email, token, NEW_PASSWORD)
	expect(ok.status).toBe(200)
	expect(await ok.json()).toEqual({ detail: 'Password has been reset with the new password.' })
	for (const h of held) {
		for (const s of h.sessions) expect((await app.me(s)).status).toBe(401)
		for (const access of [h.pair.access, h.sessionPair.access])
			expect((await app.me({ access })).status).toBe(401)
		for (const refresh of [h.pair.refresh, h.sessionPair.refresh])
			expect((await app.post('/accounts/token/refresh/', { refresh })).status).toBe(401)
	}
	expect((await app.post('/accounts/login/', { email: user.email, password: PASSWORD })).status).toBe(401)
	await login(app, user.email, NEW_PASSWORD)
	// Single use.
	const again = await resetPassword(user.email, token, 'Another-one-99!x')
	expect(again.status).toBe(400)
	expect(await again.json()).toEqual(INVALID)
}

const stillValid = async (email: string, token: string) =>
	expect(await (await app.post('/accounts/request-reset/', { email, token })).json()).toEqual({ valid: true })

describe('a refused reset attempt, then the right one', () => {
	it('a wrong token', async () => {
		const user = await registerAccount(app)
		const before = await holdCredentials(user)
		const token = await requestToken(user.email)
		const wrong = await resetPassword(user.email, `${token.slice(0, -2)}xx`, NEW_PASSWORD)
		expect(wrong.status).toBe(400)
		expect(await wrong.json()).toEqual(INVALID)
		const after = await oldPasswordStillWorks(user)
		await stillValid(user.email, token)
		await succeedsAndRevokes(user, token, [before, after])
	})

	it("the right token with another account's e-mail (whose password stays)", async () => {
		const user = await registerAccount(app)
		const other = await registerAccount(app)
		const before = await holdCredentials(user)
		const token = await requestToken(user.email)
		const crossed = await resetPassword(other.email, token, NEW_PASSWORD)
		expect(crossed.status).toBe(400)
		expect(await crossed.json()).toEqual(INVALID)
		const after = await oldPasswordStillWorks(user)
		await login(app, other.email)
		await stillValid(user.email, token)
		await succeedsAndRevokes(user, token, [before, after])
		// The other account was not touched.
		await login(app, other.email)
	})

	it('a weak new password (400 on new_password)', async () => {
		const user = await registerAccount(app)
		const before = await holdCredentials(user)
		const token = await requestToken(user.email)
		const weak = await resetPassword(user.email, token, 'password123')
		expect(weak.status).toBe(400)
		expect(await weak.json()).toEqual({ new_password: ['This password is too common.'] })
		const after = await oldPasswordStillWorks(user)
		await stillValid(user.email, token)
		await succeedsAndRevokes(user, token, [before, after])
	})

	it('all three in a row, as the independent client tried them', async () => {
		const user = await registerAccount(app)
		const other = await registerAccount(app)
		const before = await holdCredentials(user)
		const token = await requestToken(user.email)
		expect((await resetPassword(user.email, 'x'.repeat(43), NEW_PASSWORD)).status).toBe(400)
		expect((await resetPassword(other.email, token, NEW_PASSWORD)).status).toBe(400)
		const weak = await resetPassword(user.email, token, 'password123')
		expect(Object.keys(await weak.json())).toEqual(['new_password'])
		const after = await oldPasswordStillWorks(user)
		await succeedsAndRevokes(user, token, [before, after])
	})

	it('weak passwords tried again and again: no limit counts them as guesses of the token', async () => {
		const user = await registerAccount(app)
		const token = await requestToken(user.email)
		// More tries than any limit in use (5 failed logins, 3 reset mails).
		for (const weak of ['password123', '12345678', user.email, 'qwertyuiop', 'iloveyou1', 'abc', 'letmein1'])
			expect(Object.keys(await (await resetPassword(user.email, token, weak)).json())).toEqual([
				'new_password',
			])
		await succeedsAndRevokes(user, token, [])
	})
})
