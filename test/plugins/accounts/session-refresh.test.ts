import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { refreshToken } from '../../../db/schema'
import { type AccountsApp, login, registerAccount, startAccounts, storedSession } from './support'

let app: AccountsApp
beforeAll(async () => {
	app = await startAccounts({ ACCESS_TOKEN_LIFETIME: '1' })
})
afterAll(() => app.stop())

const stored = (sessionId: string) => storedSession(app, sessionId)

describe('session with an expired access token', () => {
	it('is refreshed from the stored refresh token without the client noticing', async () => {
		const user = await registerAccount(app)
		const s = await login(app, user.email)
		const before = await stored(s.sessionId)
		expect(before).toBeDefined()
		await Bun.sleep(2100)
		const res = await app.get('/accounts/me/', { cookie: s.cookie })
		expect(res.status).toBe(200)
		const after = await stored(s.sessionId)
		expect(after?.accessToken).not.toBe(before?.accessToken)
		expect(after?.refreshToken).not.toBe(before?.refreshToken)
	})

	it('ends with 401 when the stored refresh token is dead', async () => {
		const user = await registerAccount(app)
		const s = await login(app, user.email)
		await app.ctx.db.update(refreshToken).set({ state: 'revoked' }).where(eq(refreshToken.userId, user.id))
		await Bun.sleep(2100)
		expect((await app.get('/accounts/me/', { cookie: s.cookie })).status).toBe(401)
		expect(await stored(s.sessionId)).toBeUndefined()
	})

	it('ends, and takes the thief down with it, when a stolen refresh token was rotated first', async () => {
		const user = await registerAccount(app)
		const s = await login(app, user.email)
		const stolen = (await stored(s.sessionId))?.refreshToken ?? ''
		const thief = await app.post('/accounts/token/refresh/', { refresh: stolen })
		expect(thief.status).toBe(200)
		const { access } = (await thief.json()) as { access: string }
		await Bun.sleep(2100)
		// The session presents its (now rotated) refresh token: reuse, the family dies.
		expect((await app.me(s)).status).toBe(401)
		expect((await app.me({ access })).status).toBe(401)
	})
})
