import { afterAll, afterEach, beforeAll, describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { refreshToken, userProfile } from '../../../db/schema'
import {
	type AccountsApp,
	login,
	PASSWORD,
	registerAccount,
	startAccounts,
	storedSession,
	uniqueEmail,
} from './support'

/**
 * A write that fails (here a trigger refuses it) answers 500 and logs the error without the
 * query's parameters: tokens and password hashes stay out of the log and the answer.
 */
let app: AccountsApp
const lines: string[] = []
beforeAll(async () => {
	app = await startAccounts({ ACCESS_TOKEN_LIFETIME: '1' }, { logLines: lines })
})
afterAll(() => app.stop())
afterEach(async () => {
	for (const name of [
		'refuse_session_insert',
		'refuse_session_update',
		'refuse_user_update',
		'refuse_user_insert',
	])
		await app.handle.client.execute(`drop trigger if exists ${name}`)
})

const refuse = (name: string, event: string, table: string) =>
	app.handle.client.execute(
		`create trigger ${name} before ${event} on ${table} begin select raise(abort, '${name}'); end`,
	)

/** The error lines logged since `from`; each must name the refused write and hold no parameter. */
function errorLines(from: number, trigger: string) {
	const found = lines.slice(from).filter((l) => l.includes('"level":"error"'))
	expect(found.length).toBeGreaterThan(0)
	for (const line of found) {
		expect(line).not.toContain('params')
		expect(line).not.toContain('eyJ') // no JWT
		expect(line).not.toContain('$argon2')
	}
	expect(found.some((l) => l.includes(trigger))).toBe(true)
	return found
}

describe('a failed session insert at login', () => {
	it('answers 500 with no token, logs no parameter, and leaves no refresh token behind', async () => {
		const user = await registerAccount(app)
		await refuse('refuse_session_insert', 'insert', 'session')
		const from = lines.length
		const res = await app.post('/accounts/login/', { email: user.email, password: PASSWORD })
		expect(res.status).toBe(500)
		expect(res.headers.getSetCookie()).toEqual([])
		const body = await res.text()
		expect(JSON.parse(body)).toEqual({ detail: 'Internal server error.' })
		expect(body).not.toContain('eyJ')
		errorLines(from, 'refuse_session_insert')
		// The family and its refresh token were issued in the session's transaction: rolled back.
		const rows = await app.ctx.db.select().from(refreshToken).where(eq(refreshToken.userId, user.id))
		expect(rows).toEqual([])
	})
})

describe('a failed rehash at login', () => {
	it('logs neither the old nor the new password hash', async () => {
		const user = await registerAccount(app)
		// Valid, but with other argon2 parameters: login rehashes it.
		const old = await Bun.password.hash(PASSWORD, { algorithm: 'argon2id', memoryCost: 4096, timeCost: 2 })
		await app.ctx.db.update(userProfile).set({ passwordHash: old }).where(eq(userProfile.id, user.id))
		await refuse('refuse_user_update', 'update', 'user_profile')
		const from = lines.length
		const res = await app.post('/accounts/login/', { email: user.email, password: PASSWORD })
		expect(res.status).toBe(500)
		expect(await res.text()).not.toContain('$argon2')
		errorLines(from, 'refuse_user_update')
	})
})

describe('a failed registration insert', () => {
	it('logs no password hash', async () => {
		await refuse('refuse_user_insert', 'insert', 'user_profile')
		const from = lines.length
		const res = await app.post('/accounts/register/', {
			email: uniqueEmail('refused'),
			password: PASSWORD,
			first_name: 'Ada',
			last_name: 'Lovelace',
		})
		expect(res.status).toBe(500)
		expect(await res.text()).not.toContain('$argon2')
		errorLines(from, 'refuse_user_insert')
	})
})

describe('a failed session update on refresh', () => {
	it('logs no token, and rolls the rotation back so the session still works afterwards', async () => {
		const user = await registerAccount(app)
		const s = await login(app, user.email)
		const before = await storedSession(app, s.sessionId)
		await Bun.sleep(2100)
		await refuse('refuse_session_update', 'update', 'session')
		const from = lines.length
		const failed = await app.me(s)
		expect(failed.status).toBe(500)
		const body = await failed.text()
		for (const token of [before?.accessToken, before?.refreshToken, s.sessionId, s.csrfToken])
			expect(body).not.toContain(token ?? '')
		const found = errorLines(from, 'refuse_session_update')
		for (const line of found) expect(line).not.toContain(before?.refreshToken ?? '')
		// The stored refresh token is still the live one: no self-inflicted reuse kills the family.
		await app.handle.client.execute('drop trigger refuse_session_update')
		expect((await app.me(s)).status).toBe(200)
	})
})
