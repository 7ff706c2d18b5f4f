import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import {
	connectWs,
	createMessagingFixture,
	type MessagingFixture,
	type TestUser,
	type WsClient,
} from '../helpers-ws'
import { heldCommands, pluginsWith, testCommands } from './fixtures'

const held = heldCommands()

/**
 * Issue 7, item 6: a bearer socket renews its credential in band before the access token expires
 * (`authenticate`), and whatever ends a socket, its commands in flight are answered first.
 * Access tokens live 3 s here (exp is in whole seconds: 2 s may be nearly over at the upgrade).
 */
const GET = 'get_default_message_auto_delete_time'
const EXPIRED = { code: 1008, reason: 'credentials expired' }
const REVOKED = { code: 1008, reason: 'credentials revoked' }

const post = (url: string, path: string, body: unknown) =>
	fetch(`${url}${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	})

function closeOf(c: WsClient, ms = 8000) {
	let timer: ReturnType<typeof setTimeout> | undefined
	const bound = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(new Error(`socket still open after ${ms} ms`)), ms)
	})
	return Promise.race([c.closed, bound]).finally(() => clearTimeout(timer))
}

describe('a bearer socket and its access token', () => {
	let f: MessagingFixture
	const pair = async (user: TestUser) => {
		const res = await post(f.t.url, '/accounts/token/', { email: user.email, password: user.password })
		return (await res.json()) as { access: string; refresh: string }
	}
	const secondsLeft = (expiresAt: number) => expiresAt * 1000 - Date.now()
	beforeAll(async () => {
		f = await createMessagingFixture(
			{ ACCESS_TOKEN_LIFETIME: '3', LOGIN_RATE_LIMIT: '1000' },
			{ plugins: pluginsWith(testCommands, held.group) },
		)
	})
	afterAll(() => f.stop())

	it('renews in band with a fresh token of the same user, and lives past the first expiry', async () => {
		const first = await pair(f.alice)
		const c = await connectWs(f.t.url, { bearer: first.access })
		const opened = Date.now()
		// Renewed with a token issued later than the first, so that it outlives it.
		await Bun.sleep(1500)
		const fresh = await pair(f.alice)
		const renewed = await c.command({ action: 'authenticate', access: fresh.access })
		expect(renewed.payload.type).toBe('authenticate')
		const { expires_at } = renewed.payload.result as { expires_at: number }
		expect(secondsLeft(expires_at)).toBeGreaterThan(0)
		// Past the first token's expiry (3 s after the upgrade at most), the socket still works.
		await Bun.sleep(Math.max(0, opened + 3200 - Date.now()))
		expect((await c.command({ action: GET, userbot_id: f.userbotId })).payload.type).toBe(GET)
		// Not renewed again, it ends at the second token's expiry.
		expect(await closeOf(c)).toEqual(EXPIRED)
	}, 20_000)

	it("refuses a missing, a broken, and another user's token, and keeps the socket", async () => {
		const c = await connectWs(f.t.url, { bearer: (await pair(f.alice)).access })
		const error = async (frame: Record<string, unknown>) =>
			(await c.command({ action: 'authenticate', ...frame })).payload
		expect(await error({})).toMatchObject({ type: 'authenticate_error', error: 'access is required' })
		expect(await error({ access: 'not.a.token' })).toMatchObject({
			type: 'authenticate_error',
			error: 'access token is not valid',
		})
		expect(await error({ access: (await pair(f.mallory)).access })).toMatchObject({
			type: 'authenticate_error',
			error: 'access token is for another user',
		})
		expect((await c.command({ action: GET, userbot_id: f.userbotId })).payload.type).toBe(GET)
		c.close()
	})

	it('at expiry answers the commands in flight, refuses new ones, then closes', async () => {
		held.hold()
		const c = await connectWs(f.t.url, { bearer: (await pair(f.alice)).access })
		// Held across the expiry, however long the machine takes to get there: its reply comes before
		// the close.
		const slow = c.command({ action: 'test_held', userbot_id: f.userbotId, request_id: 'slow' }, 15_000)
		// The expiry is the event waited for: commands are answered until one is refused for it.
		let late = await c.command({ action: GET, userbot_id: f.userbotId })
		while (late.payload.type === GET) {
			await Bun.sleep(100)
			late = await c.command({ action: GET, userbot_id: f.userbotId })
		}
		expect(late.payload).toMatchObject({ type: `${GET}_error`, error: 'credentials expired' })
		expect(c.ws.readyState).toBe(WebSocket.OPEN)
		held.release()
		expect((await slow).payload.type).toBe('test_held')
		expect(await closeOf(c)).toEqual(EXPIRED)
	}, 20_000)

	it('at a revocation answers the commands in flight with an error, then closes at once', async () => {
		held.hold()
		const tokens = await pair(f.alice)
		const c = await connectWs(f.t.url, { bearer: tokens.access })
		const slow = c.command({ action: 'test_held', userbot_id: f.userbotId }, 15_000)
		// A later frame answered: the held one runs (frames are handled in order).
		await c.command({ action: 'no_such_action', userbot_id: f.userbotId })
		expect((await post(f.t.url, '/accounts/token/blacklist/', { refresh: tokens.refresh })).status).toBe(200)
		expect((await slow).payload).toMatchObject({ type: 'test_held_error', error: 'credentials revoked' })
		expect(await closeOf(c, 2000)).toEqual(REVOKED)
		held.release()
	})
})
