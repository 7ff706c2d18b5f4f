import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { userbot } from '../../db/schema'
import { userbots } from '../../plugins/userbots'
import { builtInPlugins } from '../../src/app'
import { type Company, startCompany } from '../gateway/company'
import { registerUser } from '../helpers-ws'

/**
 * Issue 28, a proxy per userbot over REST on the emulator: validated strictly (nothing echoed),
 * stored sealed, shown without its password, applied to the client (TDLib's proxy list), checked
 * with `pingProxy`, and changed only by those who may change the company's userbots.
 */
const PASSWORD = 'proxy-pass-Qx7-unique'
const SOCKS = { type: 'socks5', server: 'proxy.example.net', port: 1080, username: 'bob', password: PASSWORD }
const SECRET = 'ee0123456789abcdef0123456789abcdef6578616d706c652e636f6d'
/** Where `proxy.example.net` resolves: the proxy's server is checked, and TDLib given this address. */
const RESOLVED = '93.184.216.34'
const lookup = async (host: string) => {
	if (host === 'proxy.example.net') return [{ address: RESOLVED, family: 4 }]
	throw new Error('ENOTFOUND')
}

let c: Company
/** A userbot made and logged in through REST, so that its keys are sealed as the service seals them. */
let botId: number
let otherId: number
const loggedIn = async (name: string) => {
	const made = await c.call('POST', '/api/userbots/', c.owner.access, { name })
	const { id } = (await made.json()) as { id: number }
	await c.call('POST', `/api/userbots/${id}/phone/`, c.owner.access, { phone_number: '9996621234' })
	const code = await c.call('POST', `/api/userbots/${id}/code/`, c.owner.access, { code: '22222' })
	expect(((await code.json()) as { authorization_state: string }).authorization_state).toBe(
		'authorizationStateReady',
	)
	return id
}
beforeAll(async () => {
	const plugins = [...builtInPlugins.filter((p) => p.id !== 'userbots'), userbots({ lookup })]
	c = await startCompany({}, { plugins })
	botId = await loggedIn('proxied')
	otherId = await loggedIn('other')
})
afterAll(() => c.stop())

const path = (id = botId) => `/api/userbots/${id}/proxy/`
/** TDLib's own list of the client's proxies (the emulator keeps it as TDLib does). */
const tdlibProxies = async (id = botId) =>
	(
		(await c.t.ctx.runtime!.invoke(id, { _: 'getProxies' })) as {
			proxies: Array<{ is_enabled: boolean; proxy: { server: string; port: number; type: { _: string } } }>
		}
	).proxies
const auditLines = async () =>
	(await (await c.call('GET', '/api/audit/?limit=100', c.owner.access)).json()) as Array<{
		action: string
		target: string | null
		detail: Record<string, unknown> | null
		client: string | null
	}>

describe('a userbot’s proxy over REST', () => {
	it('refuses a bad proxy field by field, quoting nothing that was sent', async () => {
		const bad = await c.call('PUT', path(), c.owner.access, {
			type: 'socks5x',
			server: 'bad host!',
			port: 70000,
		})
		expect(bad.status).toBe(400)
		const text = await bad.text()
		expect(JSON.parse(text)).toEqual({
			type: ['Select a valid choice. That choice is not one of the available choices.'],
			server: ['Enter a valid host name or IP address.'],
			port: ['Ensure this value is less than or equal to 65535.'],
		})
		expect(text).not.toContain('socks5x')
		expect(text).not.toContain('bad host')

		const cases: Array<[Record<string, unknown>, Record<string, string[]>]> = [
			[
				{ type: 'socks5', server: 'a.example', port: 0 },
				{ port: ['Ensure this value is greater than or equal to 1.'] },
			],
			[{ type: 'socks5', server: 'a.example', port: 1.5 }, { port: ['A valid integer is required.'] }],
			[
				{ type: 'http', server: '1.2.3.4.5', port: 80 },
				{ server: ['Enter a valid host name or IP address.'] },
			],
			[
				{ type: 'socks5', server: 'a.example', port: 1, secret: SECRET },
				{ secret: ['This field is not allowed for this type of proxy.'] },
			],
			[{ type: 'mtproto', server: 'a.example', port: 443 }, { secret: ['This field is required.'] }],
			[
				{ type: 'mtproto', server: 'a.example', port: 443, secret: 'zz-not-a-secret-zz' },
				{ secret: ['Enter a valid MTProto proxy secret (hexadecimal or base64url).'] },
			],
			[
				{ type: 'socks5', server: 'a.example', port: 1, password: 'x'.repeat(256) },
				{ password: ['Ensure this field has no more than 255 bytes.'] },
			],
			[{ server: 'a.example', port: 1 }, { type: ['This field is required.'] }],
		]
		for (const [body, errors] of cases) {
			const res = await c.call('PUT', path(), c.owner.access, body)
			expect({ body, status: res.status, errors: await res.json() }).toEqual({ body, status: 400, errors })
		}
		expect((await tdlibProxies()).length).toBe(0)
	})

	it('sets a SOCKS5 proxy: applied to the client, checked, shown without its password, stored sealed', async () => {
		const res = await c.call('PUT', path(), c.owner.access, SOCKS)
		expect(res.status).toBe(200)
		const text = await res.text()
		expect(text).not.toContain(PASSWORD)
		const view = JSON.parse(text)
		expect(view).toMatchObject({
			type: 'socks5',
			server: 'proxy.example.net',
			port: 1080,
			username: 'bob',
			has_password: true,
			check: { ok: true, latency_ms: 50 },
		})
		expect(Date.parse(view.check.checked_at)).toBeGreaterThan(0)

		const got = await c.call('GET', `/api/userbots/${botId}/`, c.owner.access)
		const shown = await got.text()
		expect(shown).not.toContain(PASSWORD)
		expect(JSON.parse(shown).proxy).toEqual(view)
		// The client was started again behind it, logged in as before.
		expect(JSON.parse(shown).authorization_state).toBe('authorizationStateReady')
		const listed = await tdlibProxies()
		expect(listed).toHaveLength(1)
		expect(listed[0]).toMatchObject({
			is_enabled: true,
			// TDLib connects to the address checked, never to the name (which could resolve elsewhere later).
			proxy: { server: RESOLVED, port: 1080, type: { _: 'proxyTypeSocks5', password: PASSWORD } },
		})

		const [row] = await c.t.ctx.db.select().from(userbot).where(eq(userbot.id, botId))
		expect(row?.proxySecret).toMatch(/^v1\./)
		expect(JSON.stringify(row)).not.toContain(PASSWORD)

		const line = (await auditLines()).find((l) => l.action === 'userbot.proxy_set')
		expect(line).toMatchObject({
			target: `userbot:${botId}`,
			detail: { type: 'socks5', server: 'proxy.example.net', port: 1080 },
			client: '127.0.0.1',
		})
		expect(JSON.stringify(await auditLines())).not.toContain(PASSWORD)
	})

	it('checks again on demand, and shows TDLib’s error when the check fails', async () => {
		const runtime = c.t.ctx.runtime!
		await runtime.invoke(botId, {
			_: 'emulatorFailNext',
			method: 'pingProxy',
			code: 400,
			message: 'Connection refused',
		} as never)
		const res = await c.call('POST', `${path()}check/`, c.owner.access)
		expect(res.status).toBe(200)
		expect((await res.json()).check).toMatchObject({ ok: false, error: 'Connection refused' })
		const again = await c.call('POST', `${path()}check/`, c.owner.access)
		expect((await again.json()).check).toMatchObject({ ok: true, latency_ms: 50 })
	})

	it('replaces it with an MTProto proxy, then removes it from the row and from TDLib', async () => {
		const res = await c.call('PUT', path(), c.owner.access, {
			type: 'mtproto',
			server: '1.0.0.1',
			port: 443,
			secret: SECRET,
		})
		expect(res.status).toBe(200)
		const text = await res.text()
		expect(text).not.toContain(SECRET)
		expect(JSON.parse(text)).toMatchObject({ type: 'mtproto', server: '1.0.0.1', port: 443 })
		const listed = await tdlibProxies()
		expect(listed.map((p) => [p.proxy.server, p.is_enabled])).toEqual([['1.0.0.1', true]])

		expect((await c.call('DELETE', path(), c.owner.access)).status).toBe(204)
		expect((await tdlibProxies()).length).toBe(0)
		const got = (await (await c.call('GET', `/api/userbots/${botId}/`, c.owner.access)).json()) as {
			proxy: unknown
		}
		expect(got.proxy).toBeNull()
		expect((await c.call('DELETE', path(), c.owner.access)).status).toBe(404)
		expect((await auditLines())[0]).toMatchObject({
			action: 'userbot.proxy_removed',
			target: `userbot:${botId}`,
		})
	})

	it('starts a new userbot behind the proxy given at its creation', async () => {
		const res = await c.call('POST', '/api/userbots/', c.owner.access, { name: 'behind', proxy: SOCKS })
		expect(res.status).toBe(201)
		const { id } = (await res.json()) as { id: number }
		expect((await tdlibProxies(id)).map((p) => [p.proxy.server, p.is_enabled])).toEqual([[RESOLVED, true]])
		const bad = await c.call('POST', '/api/userbots/', c.owner.access, {
			name: 'x',
			proxy: { ...SOCKS, port: 0 },
		})
		expect(bad.status).toBe(400)
		expect(await bad.json()).toEqual({
			proxy: { port: ['Ensure this value is greater than or equal to 1.'] },
		})
	})

	it('is the business of those who manage userbots: a member is refused, another company finds nothing', async () => {
		const member = await c.call('PUT', path(), c.member.access, SOCKS)
		expect(member.status).toBe(403)
		const stranger = await registerUser(c.t, `proxy-stranger-${Date.now()}@example.com`)
		for (const [method, body] of [
			['PUT', SOCKS],
			['DELETE', undefined],
			['POST', undefined],
		] as const) {
			const url = method === 'POST' ? `${path()}check/` : path()
			expect((await c.call(method, url, stranger.access, body)).status).toBe(404)
		}
	})

	it('takes an API key only with the userbots group, never a read-only one', async () => {
		const key = async (scopes: Record<string, unknown>) => {
			const res = await c.call('POST', '/api/keys/', c.owner.access, { name: 'proxy', ...scopes })
			expect(res.status).toBe(201)
			return ((await res.json()) as { key: string }).key
		}
		const put = (k: string) =>
			fetch(`${c.t.url}${path()}`, {
				method: 'PUT',
				headers: { 'x-api-key': k, 'content-type': 'application/json' },
				body: JSON.stringify(SOCKS),
			})
		expect((await put(await key({ groups: ['commands-messages'] }))).status).toBe(403)
		expect((await put(await key({ read_only: true }))).status).toBe(403)
		expect((await put(await key({ userbot_ids: [otherId] }))).status).toBe(404)
		expect((await put(await key({ groups: ['userbots'] }))).status).toBe(200)
	})
})
