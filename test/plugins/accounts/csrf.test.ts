import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { type AccountsApp, login, registerAccount, startAccounts, tokenPair } from './support'

let app: AccountsApp
let owner: { cookie: string; csrfToken: string; email: string }
beforeAll(async () => {
	app = await startAccounts({ ALLOWED_ORIGINS: 'https://spa.example.org' })
	const user = await registerAccount(app)
	owner = { ...(await login(app, user.email)), email: user.email }
})
afterAll(() => app.stop())

// Creating an invite is an unsafe, cookie-authenticated request the owner may make.
const invite = (headers: Record<string, string>) => app.post('/accounts/invites/', {}, headers)

describe('CSRF on session-authenticated requests', () => {
	it('refuses a cross-site POST with the session cookie', async () => {
		const res = await invite({ cookie: owner.cookie, 'sec-fetch-site': 'cross-site', origin: app.url })
		expect(res.status).toBe(403)
		const body = (await res.json()) as { detail: string }
		expect(body.detail.startsWith('CSRF Failed: ')).toBe(true)
	})

	it('refuses a POST from a foreign origin and one with no origin nor token', async () => {
		const foreign = await invite({ cookie: owner.cookie, origin: 'https://evil.example.net' })
		expect(foreign.status).toBe(403)
		expect(((await foreign.json()) as { detail: string }).detail).toStartWith('CSRF Failed: ')
		const bare = await invite({ cookie: owner.cookie })
		expect(bare.status).toBe(403)
	})

	it('accepts a same-origin POST, by Origin or by Referer', async () => {
		expect(
			(await invite({ cookie: owner.cookie, origin: app.url, 'sec-fetch-site': 'same-origin' })).status,
		).toBe(201)
		expect((await invite({ cookie: owner.cookie, referer: `${app.url}/some/page` })).status).toBe(201)
	})

	it('accepts an origin listed in ALLOWED_ORIGINS', async () => {
		expect((await invite({ cookie: owner.cookie, origin: 'https://spa.example.org' })).status).toBe(201)
	})

	it('accepts a POST carrying X-CSRFToken equal to the session token, and refuses a wrong one', async () => {
		expect((await invite({ cookie: owner.cookie, 'x-csrftoken': owner.csrfToken })).status).toBe(201)
		expect((await invite({ cookie: owner.cookie, 'x-csrftoken': 'not-the-token' })).status).toBe(403)
	})

	it('does not ask a bearer-token request for CSRF', async () => {
		const { access } = await tokenPair(app, owner.email)
		const res = await invite({ authorization: `Bearer ${access}`, 'sec-fetch-site': 'cross-site' })
		expect(res.status).toBe(201)
	})

	it('lets safe methods through without a check', async () => {
		const res = await app.get('/accounts/me/', { cookie: owner.cookie, 'sec-fetch-site': 'cross-site' })
		expect(res.status).toBe(200)
	})
})

describe('authenticateUpgrade', () => {
	it('accepts the session cookie only with an allowed Origin, and a bearer token alone', async () => {
		const ws = (headers: Record<string, string>) => new Request(`${app.url}/ws`, { headers })
		expect((await app.core.authenticateUpgrade(ws({ cookie: owner.cookie, origin: app.url }))).ok).toBe(true)
		const foreign = await app.core.authenticateUpgrade(
			ws({ cookie: owner.cookie, origin: 'https://evil.example.net' }),
		)
		// An upgrade that fails the Origin check is refused with 401, as any unauthenticated one
		// (docs/protocol.md#connecting).
		expect(foreign.ok ? 0 : foreign.status).toBe(401)
		const none = await app.core.authenticateUpgrade(ws({}))
		expect(none.ok ? 0 : none.status).toBe(401)
		const { access } = await tokenPair(app, owner.email)
		const bearer = await app.core.authenticateUpgrade(ws({ authorization: `Bearer ${access}` }))
		expect(bearer.ok && bearer.principal.via).toBe('bearer')
	})
})
