import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import {
	createUserbot,
	type FreshServer,
	logInOverRest,
	type Member,
	openSocket,
	PASSWORD,
	serveFresh,
	signUp,
	until,
} from './support'

let server: FreshServer
let owner: Member
let id: number

beforeAll(async () => {
	server = await serveFresh()
	owner = await signUp(server.url)
	id = await createUserbot(owner)
	await logInOverRest(owner, id)
})

afterAll(() => server.dispose())

describe('a logged-in userbot', () => {
	it('runs again after the supervisor process dies, without a new log-in', async () => {
		const runtime = server.ctx.runtime as (typeof server.ctx.runtime & { pid?: number }) | null
		const pid = runtime?.pid
		expect(pid).toBeNumber()
		process.kill(pid ?? 0, 'SIGKILL')
		await until(() => {
			const h = server.ctx.runtime?.health()
			return !!h?.up && h.restarts > 0
		}, 20_000)
		const ws = await openSocket(server.url, owner.access)
		const reply = await ws.command('get_default_message_auto_delete_time', id)
		ws.close()
		expect(reply.error).toBeUndefined()
		const got = await owner.call('GET', `/api/userbots/${id}/`)
		expect(((await got.json()) as { authorization_state: string }).authorization_state).toBe(
			'authorizationStateReady',
		)
	})

	it('is served to a session-cookie login too', async () => {
		const login = await fetch(`${server.url}/accounts/login/`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ email: owner.email, password: PASSWORD }),
		})
		expect(login.status).toBe(200)
		const cookie = login.headers
			.getSetCookie()
			.map((c) => c.split(';')[0])
			.join('; ')
		const list = await fetch(`${server.url}/api/userbots/`, { headers: { cookie } })
		expect(((await list.json()) as Array<{ id: number }>).map((b) => b.id)).toEqual([id])
		// An unsafe request by cookie from another site is refused (CSRF), from the server's own origin taken.
		const foreign = await fetch(`${server.url}/api/userbots/`, {
			method: 'POST',
			headers: { cookie, origin: 'https://evil.example', 'content-type': 'application/json' },
			body: '{}',
		})
		expect(foreign.status).toBe(403)
		const own = await fetch(`${server.url}/api/userbots/`, {
			method: 'POST',
			headers: { cookie, origin: server.url, 'content-type': 'application/json' },
			body: '{}',
		})
		expect(own.status).toBe(201)
	})
})
