import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { statusOnWork, userbot, userProfile } from '../../db/schema'
import { connectWs, registerUser, sessionCookie, type WsClient } from '../helpers-ws'
import { type Company, joinCompany, startCompany } from './company'

/**
 * A member's work status is enforced on every path (owners exempt): at the change to a status that
 * does not allow work, the member's open sockets close with 1008, and from then on every REST route,
 * the token views, the login, the WebSocket upgrade and every command refuse them, until a status
 * that allows work lets them in again. Removing a member from the company ends their sessions,
 * tokens and sockets for good; their userbots stay with the company.
 */
const GET = 'get_default_message_auto_delete_time'
const REVOKED = { code: 1008, reason: 'credentials revoked' }
const REFUSED = { detail: 'Permission denied', code: 'status_not_allowed' }
/** Routes a refused member may still use, or that name no caller. */
const OPEN_ROUTES = new Set([
	'GET /health',
	'POST /accounts/register/',
	'POST /accounts/check-password/',
	'POST /accounts/logout/',
	'POST /accounts/request-reset/',
	'POST /accounts/reset-password/',
	'POST /accounts/token/blacklist/',
	'GET /api/commands/',
	'GET /api/asyncapi.json',
	'GET /api/openapi.json',
	'GET /api/docs',
	'GET /',
	'GET /reset-password',
	'GET /console/app.js',
	'GET /console/app.css',
	// The Bot API face reads no header credential: its token is in the path, a key of the owner (docs/bot-api.md).
	'GET /bot:token/:method',
	'POST /bot:token/:method',
	'GET /file/bot:token/:file_path',
	// The MCP face takes an API key alone (docs/mcp.md): a member's session is no credential there.
	'POST /mcp',
	'GET /mcp',
	'DELETE /mcp',
])
const WS_UPGRADE = {
	upgrade: 'websocket',
	connection: 'Upgrade',
	'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
	'sec-websocket-version': '13',
}

let c: Company
const sockets: WsClient[] = []
beforeAll(async () => {
	c = await startCompany()
})
afterAll(async () => {
	for (const s of sockets) s.close()
	await c.stop()
})

const setStatus = (id: number, status: string) =>
	c.call('POST', `/accounts/members/${id}/status/`, c.owner.access, { status })
const connect = async (auth: Parameters<typeof connectWs>[1]) => {
	const s = await connectWs(c.t.url, auth)
	sockets.push(s)
	return s
}
const works = async (s: WsClient) => {
	const reply = await s.command({ action: GET, userbot_id: c.userbotId })
	return reply.payload.type === GET
}

describe("an owner's power over a member's work status", () => {
	it('closes the member’s open sockets with 1008 at a status that does not allow work, and refuses every path', async () => {
		const m = c.member
		const cookie = await sessionCookie(c.t, m)
		const byBearer = await connect({ bearer: m.access })
		const bySession = await connect({ cookie, origin: c.t.url })
		const owners = await connect({ bearer: c.owner.access })
		expect(await works(byBearer)).toBe(true)
		expect(await works(bySession)).toBe(true)

		expect((await setStatus(m.userId, 'on_leave')).status).toBe(200)
		expect(await byBearer.closed).toEqual(REVOKED)
		expect(await bySession.closed).toEqual(REVOKED)
		// The owner's socket is not the member's.
		expect(await works(owners)).toBe(true)

		// Every route that names its caller refuses the member, whatever it does.
		const refusedRoutes: string[] = []
		const routes = c.t.app.routes.filter((r) => !['ALL', 'HEAD', 'OPTIONS'].includes(r.method))
		for (const r of routes) {
			const key = `${r.method} ${r.path}`
			if (OPEN_ROUTES.has(key)) continue
			const ws = r.method === 'WS'
			const res = await fetch(
				c.t.url + r.path.replace(':permission', 'security.password').replace(/:\w+/g, String(c.userbotId)),
				{
					method: ws ? 'GET' : r.method,
					headers: {
						authorization: `Bearer ${m.access}`,
						...(ws ? WS_UPGRADE : {}),
						...(r.method === 'POST' ? { 'content-type': 'application/json' } : {}),
					},
					...(r.method === 'POST'
						? { body: JSON.stringify({ email: m.email, password: m.password, refresh: m.refresh }) }
						: {}),
				},
			)
			const body = await res.text()
			if (res.status === 403 && body === JSON.stringify(REFUSED)) refusedRoutes.push(key)
			else refusedRoutes.push(`${key}: ${res.status} ${body}`)
		}
		expect(refusedRoutes.filter((line) => line.includes(': '))).toEqual([])
		expect(refusedRoutes).toContain('POST /accounts/login/')
		expect(refusedRoutes).toContain('POST /accounts/token/')
		expect(refusedRoutes).toContain('POST /accounts/token/refresh/')
		expect(refusedRoutes).toContain('WS /ws')
		expect(refusedRoutes).toContain('GET /accounts/me/')
		// The session is refused as the bearer token is.
		const me = await fetch(`${c.t.url}/accounts/me/`, { headers: { cookie } })
		expect(me.status).toBe(403)

		// Back at work: the same refresh token, session and password serve again.
		expect((await setStatus(m.userId, 'active')).status).toBe(200)
		expect((await fetch(`${c.t.url}/accounts/me/`, { headers: { cookie } })).status).toBe(200)
		const pair = await c.call('POST', '/accounts/token/refresh/', undefined, { refresh: m.refresh })
		expect(pair.status).toBe(200)
		const again = await connect({ bearer: ((await pair.json()) as { access: string }).access })
		expect(await works(again)).toBe(true)
	})

	it('refuses every command of a member whose status changed even when no change was announced', async () => {
		const m = await joinCompany(c.t, c.owner, `quiet-${Date.now()}@example.com`)
		const s = await connect({ bearer: m.access })
		expect(await works(s)).toBe(true)
		// Written behind the gateway's back (another process, a missed bus message): only the check
		// made before each command can see it, once memory has forgotten the profile.
		const [dismissed] = await c.t.ctx.db.select().from(statusOnWork).where(eq(statusOnWork.code, 'dismissed'))
		await c.t.ctx.db
			.update(userProfile)
			.set({ statusId: dismissed?.id as number })
			.where(eq(userProfile.id, m.userId))
		c.t.auth.cache.profiles.delete(m.userId)
		s.send({ action: GET, userbot_id: c.userbotId, request_id: 'after' })
		expect(await s.closed).toEqual(REVOKED)
		expect(s.received.filter((r) => r.payload?.request_id === 'after').map((r) => r.payload.error)).toEqual([
			'credentials revoked',
		])
	})

	it('lets a member on leave log out, which ends the session for their return too', async () => {
		const m = await joinCompany(c.t, c.owner, `leave-logout-${Date.now()}@example.com`)
		const cookie = await sessionCookie(c.t, m)
		expect((await setStatus(m.userId, 'on_leave')).status).toBe(200)
		const out = await fetch(`${c.t.url}/accounts/logout/`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', cookie, origin: c.t.url },
			body: '{}',
		})
		expect(out.status).toBe(200)
		expect(out.headers.getSetCookie().some((line) => line.startsWith('sessionid=;'))).toBe(true)
		expect((await setStatus(m.userId, 'active')).status).toBe(200)
		expect((await fetch(`${c.t.url}/accounts/me/`, { headers: { cookie } })).status).toBe(401)
	})

	it('lets an owner work whatever the owner’s own status says', async () => {
		expect((await setStatus(c.owner.userId, 'on_leave')).status).toBe(200)
		const s = await connect({ bearer: c.owner.access })
		expect(await works(s)).toBe(true)
		expect((await c.call('GET', '/accounts/me/', c.owner.access)).status).toBe(200)
		expect((await setStatus(c.owner.userId, 'active')).status).toBe(200)
	})
})

describe('removing a member from the company', () => {
	it('ends their sessions, tokens and sockets; their userbots stay with the company', async () => {
		const m = await joinCompany(c.t, c.owner, `leaving-${Date.now()}@example.com`)
		// Granted the right to add userbots, the member adds one.
		const grant = await c.call('POST', `/accounts/members/${m.userId}/grants/`, c.owner.access, {
			permission: 'userbots.manage',
		})
		expect(grant.status).toBe(201)
		const created = await c.call('POST', '/api/userbots/', m.access, { name: 'members bot' })
		expect(created.status).toBe(201)
		const { id: theirs } = (await created.json()) as { id: number }
		const cookie = await sessionCookie(c.t, m)
		const byBearer = await connect({ bearer: m.access })
		const bySession = await connect({ cookie, origin: c.t.url })

		const removed = await c.call('DELETE', `/accounts/members/${m.userId}/`, c.owner.access)
		expect(removed.status).toBe(204)
		expect(await byBearer.closed).toEqual(REVOKED)
		expect(await bySession.closed).toEqual(REVOKED)
		// Their tokens and session are dead (401), and no new ones come (403: dismissed, no company).
		expect((await c.call('GET', '/accounts/me/', m.access)).status).toBe(401)
		expect((await fetch(`${c.t.url}/accounts/me/`, { headers: { cookie } })).status).toBe(401)
		expect((await c.call('POST', '/accounts/token/refresh/', undefined, { refresh: m.refresh })).status).toBe(
			401,
		)
		const login = await c.call('POST', '/accounts/token/', undefined, {
			email: m.email,
			password: m.password,
		})
		expect(login.status).toBe(403)
		expect(await login.json()).toEqual(REFUSED)
		const [row] = await c.t.ctx.db.select().from(userProfile).where(eq(userProfile.id, m.userId))
		expect(row).toMatchObject({ companyId: null, isOwner: false })
		// Not listed, its grants gone, and a second removal finds nobody.
		const members = (await (await c.call('GET', '/accounts/members/', c.owner.access)).json()) as Array<{
			id: number
		}>
		expect(members.map((x) => x.id)).not.toContain(m.userId)
		expect((await c.call('GET', `/accounts/members/${m.userId}/grants/`, c.owner.access)).status).toBe(404)
		expect((await c.call('DELETE', `/accounts/members/${m.userId}/`, c.owner.access)).status).toBe(404)
		// The userbot they added is the company's: listed and usable by the owner.
		const [bot] = await c.t.ctx.db.select().from(userbot).where(eq(userbot.id, theirs))
		expect(bot).toMatchObject({ companyId: c.owner.companyId, deletedAt: null })
		const list = (await (await c.call('GET', '/api/userbots/', c.owner.access)).json()) as Array<{
			id: number
		}>
		expect(list.map((b) => b.id)).toContain(theirs)
	})

	it('is for the owner alone, never removes an owner, and answers 404 outside the company', async () => {
		const m = await joinCompany(c.t, c.owner, `stays-${Date.now()}@example.com`)
		expect((await c.call('DELETE', `/accounts/members/${c.member.userId}/`, m.access)).status).toBe(403)
		const owner = await c.call('DELETE', `/accounts/members/${c.owner.userId}/`, c.owner.access)
		expect(owner.status).toBe(400)
		expect(await owner.json()).toEqual({
			detail: 'An owner cannot be removed from the company.',
			code: 'owner_not_removable',
		})
		const otherOwner = await registerUser(c.t, `other-owner-${Date.now()}@example.com`)
		const stranger = await joinCompany(c.t, otherOwner, `stranger-${Date.now()}@example.com`)
		const res = await c.call('DELETE', `/accounts/members/${stranger.userId}/`, c.owner.access)
		expect(res.status).toBe(404)
		expect((await c.call('GET', '/accounts/me/', stranger.access)).status).toBe(200)
	})
})
