import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { readClaims } from '../../../src/server/auth/tokens'
import {
	type AccountsApp,
	login,
	PASSWORD,
	registerAccount,
	startAccounts,
	storedSession,
	tokenPair,
} from './support'

let app: AccountsApp
beforeAll(async () => {
	app = await startAccounts()
})
afterAll(() => app.stop())

const me = (access: string) => app.me({ access })
const refresh = (token: string) => app.post('/accounts/token/refresh/', { refresh: token })

describe('POST /accounts/token/', () => {
	it('returns an access and a refresh token for good credentials', async () => {
		const user = await registerAccount(app)
		const res = await app.post('/accounts/token/', { email: user.email, password: PASSWORD })
		expect(res.status).toBe(200)
		const pair = (await res.json()) as { access: string; refresh: string }
		expect(pair.access.split('.')).toHaveLength(3)
		expect(pair.refresh.split('.')).toHaveLength(3)
		const profile = await me(pair.access)
		expect(profile.status).toBe(200)
		expect(((await profile.json()) as { id: number }).id).toBe(user.id)
	})

	it('issues an access token for 5 minutes and a refresh token for a day, of one family', async () => {
		const user = await registerAccount(app)
		const pair = await tokenPair(app, user.email)
		const access = readClaims(pair.access)
		const refreshClaims = readClaims(pair.refresh)
		expect(access?.exp && access.exp - access.iat).toBe(5 * 60)
		expect(refreshClaims?.exp && refreshClaims.exp - refreshClaims.iat).toBe(24 * 3600)
		expect(access?.token_type).toBe('access')
		expect(refreshClaims?.token_type).toBe('refresh')
		expect(access?.fam).toBe(refreshClaims?.fam ?? '')
		expect(access?.user_id).toBe(user.id)
	})

	it('refuses bad credentials with 401', async () => {
		const user = await registerAccount(app)
		const res = await app.post('/accounts/token/', { email: user.email, password: 'Wrong-password-1' })
		expect(res.status).toBe(401)
		expect(await res.json()).toEqual({
			detail: 'No active account found with the given credentials',
			code: 'no_active_account',
		})
	})

	it('refuses a refresh token used as an access token, and garbage', async () => {
		const user = await registerAccount(app)
		const pair = await tokenPair(app, user.email)
		expect((await me(pair.refresh)).status).toBe(401)
		expect((await me('abc.def.ghi')).status).toBe(401)
		expect((await app.get('/accounts/me/')).status).toBe(401)
	})
})

describe('POST /accounts/token/refresh/', () => {
	it('rotates: a new pair, and the old refresh token is dead', async () => {
		const user = await registerAccount(app)
		const first = await tokenPair(app, user.email)
		const res = await refresh(first.refresh)
		expect(res.status).toBe(200)
		const second = (await res.json()) as { access: string; refresh: string }
		expect(second.refresh).not.toBe(first.refresh)
		expect((await me(second.access)).status).toBe(200)
	})

	it('revokes the whole family when a rotated refresh token comes back', async () => {
		const user = await registerAccount(app)
		const first = await tokenPair(app, user.email)
		const second = (await (await refresh(first.refresh)).json()) as { access: string; refresh: string }
		expect((await me(second.access)).status).toBe(200)
		const reuse = await refresh(first.refresh)
		expect(reuse.status).toBe(401)
		expect(((await reuse.json()) as { code: string }).code).toBe('token_not_valid')
		// The family's other refresh token and its access token die with it.
		expect((await refresh(second.refresh)).status).toBe(401)
		expect((await me(second.access)).status).toBe(401)
		// Another family of the same user lives on.
		const other = await tokenPair(app, user.email)
		expect((await me(other.access)).status).toBe(200)
	})

	it('ends at once a session whose family dies because its stolen refresh token came back', async () => {
		const user = await registerAccount(app)
		const s = await login(app, user.email)
		expect((await app.me(s)).status).toBe(200)
		const stolen = (await storedSession(app, s.sessionId))?.refreshToken ?? ''
		const thief = await refresh(stolen)
		expect(thief.status).toBe(200)
		const thiefPair = (await thief.json()) as { access: string }
		expect((await refresh(stolen)).status).toBe(401)
		// The session's access token has minutes left and sits in the cache: refused all the same.
		expect((await app.me(s)).status).toBe(401)
		expect(await storedSession(app, s.sessionId)).toBeUndefined()
		expect((await me(thiefPair.access)).status).toBe(401)
	})

	it('refuses a forged or missing token', async () => {
		expect((await refresh('x.y.z')).status).toBe(401)
		const missing = await app.post('/accounts/token/refresh/', {})
		expect(missing.status).toBe(400)
		expect(await missing.json()).toEqual({ refresh: ['This field is required.'] })
	})
})

describe('POST /accounts/token/blacklist/', () => {
	it('answers {} and the token can no longer refresh, nor its access token be used', async () => {
		const user = await registerAccount(app)
		const pair = await tokenPair(app, user.email)
		const res = await app.post('/accounts/token/blacklist/', { refresh: pair.refresh })
		expect(res.status).toBe(200)
		expect(await res.json()).toEqual({})
		expect((await refresh(pair.refresh)).status).toBe(401)
		expect((await me(pair.access)).status).toBe(401)
		expect((await app.post('/accounts/token/blacklist/', { refresh: pair.refresh })).status).toBe(401)
	})
})
