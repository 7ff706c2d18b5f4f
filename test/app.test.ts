import { afterEach, describe, expect, it } from 'bun:test'
import { definePlugin } from '../src/server/plugin/define'
import { getTestInstance, type TestInstance } from './helpers'
import { connectWs } from './helpers-ws'

let instance: TestInstance | undefined
afterEach(async () => {
	await instance?.stop()
	instance = undefined
})

const post = (url: string, path: string, body: unknown) =>
	fetch(`${url}${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	})

describe('createApp', () => {
	it('serves /health with the database and the supervisor', async () => {
		instance = await getTestInstance()
		const res = await fetch(`${instance.url}/health`)
		expect(res.status).toBe(200)
		expect(await res.json()).toEqual({
			status: 'ok',
			database: 'ok',
			supervisor: 'ok',
			capacity: { room: true },
		})
	})

	it('reports a database that answers reads but refuses writes: 503, read-only', async () => {
		instance = await getTestInstance()
		// Every write the probe could make is refused, as on a read-only file; reads go on.
		for (const event of ['insert', 'update'])
			await instance.handle.client.execute(
				`create trigger refuse_${event} before ${event} on rate_limit begin select raise(abort, 'read-only'); end`,
			)
		const res = await fetch(`${instance.url}/health`)
		expect(res.status).toBe(503)
		expect(await res.json()).toEqual({
			status: 'degraded',
			database: 'read-only',
			supervisor: 'ok',
			capacity: { room: true },
		})
	})

	it('reports a Telegram runtime that is not configured', async () => {
		instance = await getTestInstance({ TDLIB_BACKEND: 'tdlib' })
		const body = (await (await fetch(`${instance.url}/health`)).json()) as { supervisor: string }
		expect(body.supervisor).toBe('not configured')
		expect(instance.ctx.runtime).toBeNull()
	})

	it('seeds the work statuses', async () => {
		instance = await getTestInstance()
		const rows = await instance.handle.client.execute(
			'select code, name, allows_work from status_on_work order by id',
		)
		expect(rows.rows.map((r) => [r.code, r.name, Number(r.allows_work)])).toEqual([
			['active', 'Active', 1],
			['on_leave', 'On Leave', 0],
			['dismissed', 'Dismissed', 0],
		])
	})

	it('leaves no route and no command behind for a plugin that is not loaded', async () => {
		instance = await getTestInstance({ PLUGINS: 'accounts' })
		const userbots = await fetch(`${instance.url}/api/userbots/`)
		expect(userbots.status).toBe(404)
		const login = await fetch(`${instance.url}/accounts/login/`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ email: 'nobody@example.com', password: 'whatever-password' }),
		})
		expect(login.status).toBe(401)
		await post(instance.url, '/accounts/register/', {
			email: 'solo@example.com',
			password: 'Harbour-lights-42',
			first_name: 'S',
			last_name: 'O',
		})
		const token = (await (
			await post(instance.url, '/accounts/token/', {
				email: 'solo@example.com',
				password: 'Harbour-lights-42',
			})
		).json()) as { access: string }
		const ws = await connectWs(instance.url, { bearer: token.access })
		try {
			for (const action of ['send_message', 'userbot_get_state']) {
				const reply = await ws.command({ action, userbot_id: 1, chat_id: 1, text: 'x' })
				expect(reply.payload).toMatchObject({ type: `${action}_error`, error: 'unknown action' })
			}
		} finally {
			ws.close()
		}
	})

	it('refuses to start when a plugin asked for by name cannot load, and closes what it opened', async () => {
		const noCredentials = definePlugin({
			id: 'accounts',
			unavailable: () => 'needs something this test does not give',
			build: () => null,
		})
		await expect(getTestInstance({ PLUGINS: 'accounts' }, { plugins: [noCredentials] })).rejects.toThrow(
			'PLUGINS: accounts cannot load: needs something this test does not give',
		)
		// Left at the default, the same plugin is skipped and the app starts.
		instance = await getTestInstance({}, { plugins: [noCredentials] })
		expect((await fetch(`${instance.url}/health`)).status).toBe(200)
	})

	it('refuses a request body larger than an upload may be before any route reads it', async () => {
		instance = await getTestInstance({ UPLOAD_MAX_BYTES: '1000' })
		const big = new Uint8Array(3 * 1024 * 1024)
		const res = await fetch(`${instance.url}/api/userbots/1/files/`, { method: 'POST', body: big }).catch(
			(err: unknown) => err,
		)
		// Bun answers 413 and closes, or resets the connection while the body is still arriving.
		if (res instanceof Response) expect(res.status).toBe(413)
		else expect(String(res)).toMatch(/ECONNRESET|socket|closed/i)
		expect((await fetch(`${instance.url}/health`)).status).toBe(200)
	})

	it('serves concurrent writes from many callers without a database error', async () => {
		instance = await getTestInstance()
		const url = instance.url
		const emails = Array.from({ length: 6 }, (_, i) => `parallel-${i}@example.com`)
		const registered = await Promise.all(
			emails.map((email) =>
				post(url, '/accounts/register/', {
					email,
					password: 'Harbour-lights-42',
					first_name: 'P',
					last_name: 'Q',
				}),
			),
		)
		expect(registered.map((r) => r.status)).toEqual(emails.map(() => 201))
		const { access } = (await (
			await post(url, '/accounts/token/', { email: emails[0], password: 'Harbour-lights-42' })
		).json()) as { access: string }
		const created = await Promise.all(
			Array.from({ length: 5 }, () =>
				fetch(`${url}/api/userbots/`, {
					method: 'POST',
					headers: { authorization: `Bearer ${access}`, 'content-type': 'application/json' },
					body: '{}',
				}),
			),
		)
		expect(created.map((r) => r.status)).toEqual([201, 201, 201, 201, 201])
	})

	it('builds two apps side by side that share nothing', async () => {
		const a = await getTestInstance()
		const b = await getTestInstance()
		try {
			expect(a.ctx.db).not.toBe(b.ctx.db)
			expect(a.dataDir).not.toBe(b.dataDir)
			const reg = await fetch(`${a.url}/accounts/register/`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({
					email: 'side@example.com',
					password: 'Harbour-lights-42',
					first_name: 'A',
					last_name: 'B',
				}),
			})
			expect(reg.status).toBe(201)
			const count = await b.handle.client.execute('select count(*) as n from user_profile')
			expect(Number(count.rows[0]?.n)).toBe(0)
		} finally {
			await a.stop()
			await b.stop()
		}
	})
})
