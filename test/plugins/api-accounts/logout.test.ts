import { afterAll, beforeAll, describe, expect, it, setSystemTime } from 'bun:test'
import { eq } from 'drizzle-orm'
import { session } from '../../../db/schema'
import { getTestInstance } from '../../helpers'
import { connectWs, createLoggedInUserbot } from '../../helpers-ws'
import {
	edgeSession,
	edgeUser,
	liveMainTokens,
	loggedIn,
	logout,
	mainAccount,
	PASSWORD,
	type Pair,
	post,
	startEdge,
	startPair,
} from './support'

let pair: Pair
beforeAll(async () => {
	pair = await startPair()
})
afterAll(() => pair.stop())

const cleared = (setCookies: string[]) =>
	['sessionid', 'csrftoken'].every((name) =>
		setCookies.some((c) => c.startsWith(`${name}=;`) && c.includes('Max-Age=0')),
	)

describe('POST /api/accounts/logout/', () => {
	it('ends the session on the main (its refresh token is dead there), here, and clears the cookies', async () => {
		const owner = await mainAccount(pair.main)
		const login = await loggedIn(pair.edge, owner.email)
		const row = await edgeSession(pair.edge, login.sessionId)
		const mainRefresh = row?.mainRefreshToken as string
		const res = await logout(pair.edge, login.cookie)
		expect(res.status).toBe(200)
		expect(await res.json()).toEqual({ message: 'Successfully logged out.' })
		expect(cleared(res.headers.getSetCookie())).toBe(true)
		// Local session and the cached main tokens: gone.
		expect(await edgeSession(pair.edge, login.sessionId)).toBeUndefined()
		const me = await fetch(`${pair.edge.url}/accounts/me/`, { headers: { cookie: login.cookie } })
		expect(me.status).toBe(401)
		// On the main, the refresh token cannot be used again.
		const reuse = await post(pair.main.url, '/accounts/token/refresh/', { refresh: mainRefresh })
		expect(reuse.status).toBe(401)
		const blacklistAgain = await post(pair.main.url, '/accounts/token/blacklist/', { refresh: mainRefresh })
		expect(blacklistAgain.status).toBe(401)
	})

	it('ends the main session of a local session that expired on its own', async () => {
		const owner = await mainAccount(pair.main)
		const login = await loggedIn(pair.edge, owner.email)
		const row = await edgeSession(pair.edge, login.sessionId)
		await pair.edge.ctx.db
			.update(session)
			.set({ expiresAt: Date.now() - 1000 })
			.where(eq(session.idHash, row?.idHash as string))
		pair.edgeCore.cache.dropSession(row?.idHash as string)
		const res = await logout(pair.edge, login.cookie)
		expect(res.status).toBe(200)
		expect(await res.json()).toEqual({ message: 'Successfully logged out.' })
		const reuse = await post(pair.main.url, '/accounts/token/refresh/', { refresh: row?.mainRefreshToken })
		expect(reuse.status).toBe(401)
	})

	it("keeps the main's pair sealed with the local one through its refresh, and ends it at logout", async () => {
		const owner = await mainAccount(pair.main)
		const login = await loggedIn(pair.edge, owner.email)
		const before = await edgeSession(pair.edge, login.sessionId)
		// The local access token expires: the next request rotates the local pair, resealing the row.
		setSystemTime(new Date(Date.now() + 2 * pair.edge.config.accessTokenLifetime * 1000))
		try {
			const me = await fetch(`${pair.edge.url}/accounts/me/`, { headers: { cookie: login.cookie } })
			expect(me.status).toBe(200)
		} finally {
			setSystemTime()
		}
		const after = await edgeSession(pair.edge, login.sessionId)
		expect(after?.refreshToken).not.toBe(before?.refreshToken)
		expect(after?.mainRefreshToken).toBe(before?.mainRefreshToken as string)
		expect(after?.csrfToken).toBe(login.csrfToken)
		expect((await logout(pair.edge, login.cookie)).status).toBe(200)
		const reuse = await post(pair.main.url, '/accounts/token/refresh/', { refresh: after?.mainRefreshToken })
		expect(reuse.status).toBe(401)
	})

	it('refuses a cross-site logout with the session cookie, keeping both sessions', async () => {
		const owner = await mainAccount(pair.main)
		const login = await loggedIn(pair.edge, owner.email)
		const res = await post(
			pair.edge.url,
			'/api/accounts/logout/',
			{},
			{ cookie: login.cookie, origin: 'https://evil.example.net' },
		)
		expect(res.status).toBe(403)
		expect(((await res.json()) as { detail: string }).detail).toStartWith('CSRF Failed: ')
		const row = await edgeSession(pair.edge, login.sessionId)
		expect(row).toBeDefined()
		const live = await liveMainTokens(pair, owner.id)
		expect(live.length).toBe(2)
	})

	it('logs a family A session out as family A would, without calling the main', async () => {
		const reg = await post(pair.edge.url, '/accounts/register/', {
			email: `local-${Date.now()}@example.com`,
			password: PASSWORD,
			first_name: 'Local',
			last_name: 'Only',
		})
		const { email } = (await reg.json()) as { email: string }
		const login = await post(pair.edge.url, '/accounts/login/', { email, password: PASSWORD })
		const cookie = login.headers
			.getSetCookie()
			.map((c) => c.split(';')[0])
			.join('; ')
		const sessionId = ((await login.clone().json()) as { sessionid: string }).sessionid
		const res = await logout(pair.edge, cookie)
		expect(res.status).toBe(200)
		expect(await res.json()).toEqual({ message: 'Successfully logged out.' })
		expect(await edgeSession(pair.edge, sessionId)).toBeUndefined()
	})

	it('answers 200 and clears the cookies without a session, and takes an empty body', async () => {
		const res = await post(pair.edge.url, '/api/accounts/logout/', '')
		expect(res.status).toBe(200)
		expect(cleared(res.headers.getSetCookie())).toBe(true)
		const list = await post(pair.edge.url, '/api/accounts/logout/', [])
		expect(list.status).toBe(400)
	})
})

describe('family B session on the WebSocket channel', () => {
	it('authenticates /ws like a family A session, scopes it to its company, and closes at logout', async () => {
		const edge = await startEdge(pair.main.url, {
			TDLIB_BACKEND: 'emulator',
			PLUGINS: 'accounts,api-accounts,commands-messages',
		})
		try {
			const owner = await mainAccount(pair.main)
			const other = await mainAccount(pair.main)
			const login = await loggedIn(edge, owner.email)
			await loggedIn(edge, other.email)
			const mine = await createLoggedInUserbot(edge, (await edgeUser(edge, owner.email))?.companyId as number)
			const theirs = await createLoggedInUserbot(
				edge,
				(await edgeUser(edge, other.email))?.companyId as number,
				'9996614444',
			)
			// Without the Origin, a cookie upgrade is refused.
			await expect(connectWs(edge.url, { cookie: login.cookie })).rejects.toThrow('WebSocket upgrade failed')
			const ws = await connectWs(edge.url, { cookie: login.cookie, origin: edge.url })
			const action = 'get_default_message_auto_delete_time'
			const ok = await ws.command({ action, userbot_id: mine })
			expect(ok.payload.type).toBe(action)
			expect(ok.payload.error).toBeUndefined()
			const foreign = await ws.command({ action, userbot_id: theirs })
			expect(foreign.payload).toMatchObject({ type: `${action}_error`, error: 'userbot not found' })
			const res = await logout(edge, login.cookie)
			expect(res.status).toBe(200)
			expect(await ws.closed).toEqual({ code: 1008, reason: 'credentials revoked' })
		} finally {
			await edge.stop()
		}
	}, 30_000)
})

describe('plugin loading', () => {
	it('refuses to start when asked for by name without MAIN_SERVER_URL, naming the variable', async () => {
		await expect(
			getTestInstance({ TDLIB_BACKEND: 'tdlib', PLUGINS: 'accounts,api-accounts' }),
		).rejects.toThrow(/^PLUGINS: api-accounts cannot load: MAIN_SERVER_URL is not set/)
	})

	it('is skipped, leaving no route, when PLUGINS is left at its default', async () => {
		const lines: string[] = []
		const t = await getTestInstance({ TDLIB_BACKEND: 'tdlib' }, { logLines: lines })
		try {
			const res = await post(t.url, '/api/accounts/login/', { email: 'a@example.com', password: 'x' })
			expect(res.status).toBe(404)
			expect(lines.some((l) => l.includes('"plugin skipped"') && l.includes('api-accounts'))).toBe(true)
		} finally {
			await t.stop()
		}
	})
})
