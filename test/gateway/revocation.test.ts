import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { userProfile } from '../../db/schema'
import { readClaims } from '../../src/server/auth/tokens'
import { getTestInstance, type TestInstance } from '../helpers'
import {
	connectWs,
	createMessagingFixture,
	type MessagingFixture,
	registerUser,
	sessionCookie,
	type TestUser,
	type WsClient,
} from '../helpers-ws'

/**
 * A socket is only as good as the credential it was opened with (docs/protocol.md#close-codes). Logout, a
 * blacklisted or reused refresh token, a password reset and the access token's expiry close it with 1008.
 */
const GET = 'get_default_message_auto_delete_time'
const REVOKED = { code: 1008, reason: 'credentials revoked' }
const EXPIRED = { code: 1008, reason: 'credentials expired' }

const post = (t: TestInstance, path: string, body: unknown, headers: Record<string, string> = {}) =>
	fetch(`${t.url}${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...headers },
		body: JSON.stringify(body),
	})

async function tokenPair(t: TestInstance, user: TestUser): Promise<{ access: string; refresh: string }> {
	const res = await post(t, '/accounts/token/', { email: user.email, password: user.password })
	expect(res.status).toBe(200)
	return (await res.json()) as { access: string; refresh: string }
}

/** The close of `c`, or a failure after a generous bound. */
function closeOf(c: WsClient, ms = 4000) {
	let timer: ReturnType<typeof setTimeout> | undefined
	const bound = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(new Error(`socket still open after ${ms} ms`)), ms)
	})
	return Promise.race([c.closed, bound]).finally(() => clearTimeout(timer))
}

const open = (c: WsClient) => c.ws.readyState === WebSocket.OPEN

describe('open sockets end with their credentials', () => {
	let f: MessagingFixture
	beforeAll(async () => {
		f = await createMessagingFixture()
	})
	afterAll(() => f.stop())

	it('closes a bearer socket when its refresh token is blacklisted, and nothing more is pushed', async () => {
		const pair = await tokenPair(f.t, f.alice)
		const victim = await connectWs(f.t.url, { bearer: pair.access })
		const bystander = await f.connect()
		expect((await victim.command({ action: GET, userbot_id: f.userbotId })).payload.type).toBe(GET)

		expect((await post(f.t, '/accounts/token/blacklist/', { refresh: pair.refresh })).status).toBe(200)
		expect(await closeOf(victim)).toEqual(REVOKED)

		const before = victim.received.length
		f.t.ctx.publish({ companyId: f.alice.companyId, message: { type: 'after_revocation' } })
		expect(await bystander.next()).toEqual({ type: 'after_revocation' } as never)
		expect(victim.received.length).toBe(before)
		// Another family of the same user is untouched.
		expect((await bystander.command({ action: GET, userbot_id: f.userbotId })).payload.type).toBe(GET)
		bystander.close()
	})

	it('closes a bearer socket when its refresh token is presented twice (reuse revokes the family)', async () => {
		const pair = await tokenPair(f.t, f.alice)
		const c = await connectWs(f.t.url, { bearer: pair.access })
		expect((await post(f.t, '/accounts/token/refresh/', { refresh: pair.refresh })).status).toBe(200)
		// A rotation keeps the family alive: the socket stays.
		expect((await c.command({ action: GET, userbot_id: f.userbotId })).payload.type).toBe(GET)
		expect((await post(f.t, '/accounts/token/refresh/', { refresh: pair.refresh })).status).toBe(401)
		expect(await closeOf(c)).toEqual(REVOKED)
	})

	it('closes a bearer socket at the logout of its token', async () => {
		const pair = await tokenPair(f.t, f.alice)
		const c = await connectWs(f.t.url, { bearer: pair.access })
		const res = await post(f.t, '/accounts/logout/', {}, { authorization: `Bearer ${pair.access}` })
		expect(res.status).toBe(200)
		expect(await closeOf(c)).toEqual(REVOKED)
	})

	it('closes a session socket at logout, and only that session', async () => {
		const cookie = await sessionCookie(f.t, f.alice)
		const other = await sessionCookie(f.t, f.alice)
		const c = await connectWs(f.t.url, { cookie, origin: f.t.url })
		const stays = await connectWs(f.t.url, { cookie: other, origin: f.t.url })
		expect((await c.command({ action: GET, userbot_id: f.userbotId })).payload.type).toBe(GET)
		const res = await post(f.t, '/accounts/logout/', {}, { cookie, origin: f.t.url })
		expect(res.status).toBe(200)
		expect(await closeOf(c)).toEqual(REVOKED)
		expect((await stays.command({ action: GET, userbot_id: f.userbotId })).payload.type).toBe(GET)
		stays.close()
	})

	it("closes every socket of the user at a password reset, and no other user's", async () => {
		const bob = await registerUser(f.t, `bob-revoked-${Date.now()}@example.com`)
		const cookie = await sessionCookie(f.t, bob)
		const bySession = await connectWs(f.t.url, { cookie, origin: f.t.url })
		const byBearer = await connectWs(f.t.url, { bearer: bob.access })
		const mallory = await f.connect(f.mallory)

		const token = await f.t.auth.resetTokens.issue(bob.userId, 3600)
		const res = await post(f.t, '/accounts/reset-password/', {
			email: bob.email,
			token,
			new_password: 'Another-Horse-77!',
		})
		expect(res.status).toBe(200)
		expect(await closeOf(bySession)).toEqual(REVOKED)
		expect(await closeOf(byBearer)).toEqual(REVOKED)
		expect((await mallory.command({ action: GET, userbot_id: 999_999 })).payload.error).toBe(
			'userbot not found',
		)
		expect(open(mallory)).toBe(true)
	})

	it('closes the sockets of a user who is deactivated, once the profile change is announced', async () => {
		const carol = await registerUser(f.t, `carol-revoked-${Date.now()}@example.com`)
		const c = await connectWs(f.t.url, { bearer: carol.access })
		const core = f.t.auth
		await f.t.ctx.db.update(userProfile).set({ active: false }).where(eq(userProfile.id, carol.userId))
		core.invalidateUser(carol.userId)
		expect(await closeOf(c)).toEqual(REVOKED)
	})

	it('checks the credential before a command even when no revocation was announced', async () => {
		const pair = await tokenPair(f.t, f.alice)
		const c = await connectWs(f.t.url, { bearer: pair.access })
		const fam = readClaims(pair.access)?.fam ?? ''
		// Marked dead behind the cache's back: no event reaches the gateway.
		f.t.auth.cache.families.set(fam, { alive: false, userId: f.alice.userId })
		c.send({ action: GET, userbot_id: f.userbotId, request_id: 'refused' })
		expect(await closeOf(c)).toEqual(REVOKED)
		// Answered before the close, never run: a client is never left without a reply.
		expect(c.received.filter((m) => m.payload?.request_id === 'refused')).toEqual([
			{
				type: 'chat_update',
				userbot_id: f.userbotId,
				payload: {
					userbot_id: f.userbotId,
					type: `${GET}_error`,
					error: 'credentials revoked',
					request_id: 'refused',
				},
			},
		])
	})

	it('checks the credential before a publish even when no revocation was announced', async () => {
		const pair = await tokenPair(f.t, f.alice)
		const c = await connectWs(f.t.url, { bearer: pair.access })
		const fam = readClaims(pair.access)?.fam ?? ''
		f.t.auth.cache.families.set(fam, { alive: false, userId: f.alice.userId })
		f.t.ctx.publish({
			companyId: f.alice.companyId,
			message: { type: 'qr_link', link: 'tg://login?token=x' },
		})
		expect(await closeOf(c)).toEqual(REVOKED)
		expect(c.received).toEqual([])
	})

	it('re-reads a credential that memory forgot, and keeps a live one open', async () => {
		const pair = await tokenPair(f.t, f.alice)
		const c = await connectWs(f.t.url, { bearer: pair.access })
		const cookie = await sessionCookie(f.t, f.alice)
		const s = await connectWs(f.t.url, { cookie, origin: f.t.url })
		const cache = f.t.auth.cache
		cache.families.clear()
		cache.sessions.clear()
		cache.profiles.clear()
		expect((await c.command({ action: GET, userbot_id: f.userbotId })).payload.type).toBe(GET)
		expect((await s.command({ action: GET, userbot_id: f.userbotId })).payload.type).toBe(GET)
		expect(open(c) && open(s)).toBe(true)
		c.close()
		s.close()
	})
})

describe('a bearer socket ends with its access token', () => {
	let t: TestInstance
	beforeAll(async () => {
		// 2 s: a 1 s token may already be over by the time the upgrade is made (exp is in whole seconds).
		t = await getTestInstance({ ACCESS_TOKEN_LIFETIME: '2' })
	})
	afterAll(() => t.stop())

	it('closes at the expiry of the access token, while a session socket stays open', async () => {
		const user = await registerUser(t, `expiry-${Date.now()}@example.com`)
		const cookie = await sessionCookie(t, user)
		const session = await connectWs(t.url, { cookie, origin: t.url })
		const pair = await tokenPair(t, user)
		const bearer = await connectWs(t.url, { bearer: pair.access })
		expect(await closeOf(bearer, 10_000)).toEqual(EXPIRED)

		// The session's own access token is past its expiry too: the session refreshes it itself.
		const entry = [...t.auth.cache.sessions.values()].find((e) => e.userId === user.userId)
		await Bun.sleep(Math.max(0, (entry?.accessExpiresAt ?? 0) - Date.now() + 50))
		const reply = await session.command({ action: GET, userbot_id: 999_999 })
		expect(reply.payload.error).toBe('userbot not found')
		expect(open(session)).toBe(true)
		session.close()
	}, 20_000)
})
