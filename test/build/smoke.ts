import { expect } from 'bun:test'
import { connectWs } from '../helpers-ws'

/**
 * The smoke test every deployment target runs against a server it started as a process: the
 * account family A from register to logout, and `/health`. `wsSmoke` adds a userbot logged in on
 * the emulator and one command over `/ws`.
 */
const PASSWORD = 'Lamp-Orbit-4821'

async function call(
	url: string,
	method: string,
	path: string,
	opts: { body?: unknown; headers?: Record<string, string> } = {},
) {
	const res = await fetch(url + path, {
		method,
		headers: { 'content-type': 'application/json', ...opts.headers },
		body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
	})
	const text = await res.text()
	return { res, status: res.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> }
}

export interface RestSmoke {
	email: string
	access: string
}

export async function restSmoke(url: string, email = 'smoke@example.com'): Promise<RestSmoke> {
	const health = await call(url, 'GET', '/health')
	expect(health.status).toBe(200)
	expect(health.body).toMatchObject({ status: 'ok', database: 'ok' })

	const registered = await call(url, 'POST', '/accounts/register/', {
		body: { email, password: PASSWORD, first_name: 'Smoke', last_name: 'Test' },
	})
	expect(registered.status).toBe(201)
	expect(registered.body).toMatchObject({ email, first_name: 'Smoke' })

	const wrong = await call(url, 'POST', '/accounts/login/', { body: { email, password: 'not-the-password' } })
	expect(wrong.status).toBe(401)

	const login = await call(url, 'POST', '/accounts/login/', { body: { email, password: PASSWORD } })
	expect(login.status).toBe(200)
	const cookies = Object.fromEntries(
		login.res.headers.getSetCookie().map((c) => c.split(';')[0]!.split('=') as [string, string]),
	)
	expect(cookies.sessionid).toBeTruthy()
	const cookie = `sessionid=${cookies.sessionid}; csrftoken=${cookies.csrftoken}`
	const me = await call(url, 'GET', '/accounts/me/', { headers: { cookie } })
	expect(me.status).toBe(200)
	expect(me.body).toMatchObject({ email, is_owner: true })

	const pair = await call(url, 'POST', '/accounts/token/', { body: { email, password: PASSWORD } })
	expect(pair.status).toBe(200)
	const refreshed = await call(url, 'POST', '/accounts/token/refresh/', {
		body: { refresh: pair.body.refresh },
	})
	expect(refreshed.status).toBe(200)
	const access = String(refreshed.body.access)
	const bearerMe = await call(url, 'GET', '/accounts/me/', { headers: { authorization: `Bearer ${access}` } })
	expect(bearerMe.status).toBe(200)
	expect(bearerMe.body).toMatchObject({ email })

	const logout = await call(url, 'POST', '/accounts/logout/', {
		headers: { cookie, 'x-csrftoken': String(cookies.csrftoken) },
	})
	expect(logout.status).toBe(200)
	expect((await call(url, 'GET', '/accounts/me/', { headers: { cookie } })).status).toBe(401)
	return { email, access }
}

/** A userbot logged in to emulated Bob Baker (test-DC phone, code 22222) sends one message over `/ws`. */
export async function wsSmoke(url: string, access: string): Promise<void> {
	const id = await logInUserbot(url, access)
	const ws = await connectWs(url, { bearer: access })
	try {
		const reply = await ws.command({ action: 'send_message', userbot_id: id, chat_id: -2001, text: 'smoke' })
		expect(reply.payload.type).toBe('send_message')
		expect(reply.payload.result).toMatchObject({ _: 'message', chat_id: -2001 })
	} finally {
		ws.close()
	}
	const health = await call(url, 'GET', '/health')
	expect(health.body).toEqual({
		status: 'ok',
		database: 'ok',
		supervisor: 'ok',
		// One userbot runs (the one above), and the descriptor or memory limit leaves room: no counts.
		capacity: { room: true },
	})
}

/** A new userbot, logged in to emulated Bob Baker (test-DC phone, code 22222): its id. */
export async function logInUserbot(url: string, access: string): Promise<number> {
	const auth = { authorization: `Bearer ${access}` }
	const created = await call(url, 'POST', '/api/userbots/', { body: { name: 'smoke' }, headers: auth })
	expect(created.status).toBe(201)
	const id = Number(created.body.id)
	const phone = await call(url, 'POST', `/api/userbots/${id}/phone/`, {
		body: { phone_number: '9996621234' },
		headers: auth,
	})
	expect(phone.body).toEqual({ authorization_state: 'authorizationStateWaitCode' })
	const code = await call(url, 'POST', `/api/userbots/${id}/code/`, {
		body: { code: '22222' },
		headers: auth,
	})
	expect(code.body).toEqual({ authorization_state: 'authorizationStateReady' })
	return id
}

/**
 * The web console as a deployment serves it: the page with its policy, its script and its style sheet,
 * which a binary carries built (it has no sources to bundle from).
 */
export async function consoleSmoke(url: string): Promise<void> {
	const page = await fetch(`${url}/`)
	expect(page.status).toBe(200)
	expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
	expect(await page.text()).toContain('src="/console/app.js"')
	const script = await fetch(`${url}/console/app.js`)
	expect(script.status).toBe(200)
	expect(script.headers.get('content-type')).toContain('javascript')
	expect(await script.text()).toContain('ubg-families')
	const style = await fetch(`${url}/console/app.css`)
	expect(style.headers.get('content-type')).toContain('text/css')
	expect(await style.text()).toContain('.card')
}
