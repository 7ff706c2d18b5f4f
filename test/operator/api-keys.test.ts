import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { apiKey } from '../../db/schema'
import { LAST_USE_EVERY_MS } from '../../src/server/auth/api-keys'
import { type Company, startCompany } from '../gateway/company'
import { connectWs, createLoggedInUserbot, type WsClient } from '../helpers-ws'

/**
 * API keys (docs/operator.md): made by the owner, shown once, stored as a hash; a key acts as its
 * owner narrowed by its scopes, on REST (`Authorization: Bearer` or `X-Api-Key`) and on the WebSocket
 * upgrade, never from a cookie or the URL; revoking it closes its sockets at once.
 */
let c: Company
let other: number
const sockets: WsClient[] = []
beforeAll(async () => {
	c = await startCompany()
	other = await createLoggedInUserbot(c.t, c.owner.companyId, '9996625555')
})
afterAll(async () => {
	for (const s of sockets) s.close()
	await c.stop()
})

const makeKey = async (body: Record<string, unknown>, access = c.owner.access) => {
	const res = await c.call('POST', '/api/keys/', access, body)
	expect(res.status).toBe(201)
	return (await res.json()) as { id: number; key: string; prefix: string; scopes: unknown }
}
const keyCall = (
	key: string,
	method: string,
	path: string,
	how: 'bearer' | 'header' = 'bearer',
	body?: unknown,
) =>
	fetch(`${c.t.url}${path}`, {
		method,
		headers: {
			...(how === 'bearer' ? { authorization: `Bearer ${key}` } : { 'x-api-key': key }),
			...(body === undefined ? {} : { 'content-type': 'application/json' }),
		},
		...(body === undefined ? {} : { body: JSON.stringify(body) }),
	})
const sendExample = () => c.t.commands.get('send_message')?.command.examples?.[0] ?? {}

describe('creating and listing keys', () => {
	it('shows the key once, prefixed `ubg_`, and stores only its SHA-256', async () => {
		const made = await makeKey({ name: 'ci', read_only: true })
		expect(made.key).toMatch(/^ubg_[A-Za-z0-9_-]{43}$/)
		expect(made.key.startsWith(made.prefix)).toBe(true)
		const [row] = await c.t.ctx.db.select().from(apiKey).where(eq(apiKey.id, made.id))
		expect(row?.keyHash).toBe(new Bun.CryptoHasher('sha256').update(made.key).digest('hex'))
		expect(JSON.stringify(row)).not.toContain(made.key)
		const list = await c.call('GET', '/api/keys/', c.owner.access)
		const listed = (await list.json()) as Array<Record<string, unknown>>
		const mine = listed.find((k) => k.id === made.id)
		expect(mine).toMatchObject({ name: 'ci', prefix: made.prefix, scopes: { read_only: true } })
		expect(JSON.stringify(listed)).not.toContain(made.key)
	})

	it('lets only the owner in person manage keys: a member and a key are refused', async () => {
		expect((await c.call('POST', '/api/keys/', c.member.access, { name: 'x' })).status).toBe(403)
		expect((await c.call('GET', '/api/keys/', c.member.access)).status).toBe(403)
		const { key } = await makeKey({ name: 'wide' })
		expect((await keyCall(key, 'POST', '/api/keys/', 'bearer', { name: 'wider' })).status).toBe(403)
		expect((await keyCall(key, 'GET', '/api/keys/')).status).toBe(403)
	})

	it('refuses unknown userbots, groups and commands, and a past expiry, without echoing them', async () => {
		const res = await c.call('POST', '/api/keys/', c.owner.access, {
			name: 'bad',
			userbot_ids: [987654],
			groups: ['no-such-group'],
			commands: ['no_such_command'],
			expires_at: '2001-01-01T00:00:00Z',
		})
		expect(res.status).toBe(400)
		const body = await res.text()
		expect(Object.keys(JSON.parse(body)).sort()).toEqual(['commands', 'expires_at', 'groups', 'userbot_ids'])
		for (const echoed of ['987654', 'no-such-group', 'no_such_command']) expect(body).not.toContain(echoed)
	})
})

describe("the creation's body, validated by the route's schema (src/server/keys/body.ts)", () => {
	it("answers each field's first problem in DRF's words, never quoting a value", async () => {
		const res = await c.call('POST', '/api/keys/', c.owner.access, {
			name: null,
			expires_at: 'never',
			userbot_ids: [1.5],
			groups: 'messages-4242',
			commands: [7],
			read_only: 'yes-4242',
			webhooks: null,
		})
		expect(res.status).toBe(400)
		const body = await res.text()
		expect(JSON.parse(body)).toEqual({
			name: ['This field is required.'],
			expires_at: ['Enter a valid date and time.'],
			userbot_ids: ['A valid integer is required.'],
			groups: ['Expected a list of items.'],
			commands: ['Not a valid string.'],
			read_only: ['Must be a valid boolean.'],
			webhooks: ['Must be a valid boolean.'],
		})
		expect(body).not.toContain('4242')
		const blank = await c.call('POST', '/api/keys/', c.owner.access, { name: '   ' })
		expect(await blank.json()).toEqual({ name: ['This field may not be blank.'] })
	})

	it('stores the name trimmed, and refuses a stranger before reading a broken body', async () => {
		const made = await makeKey({ name: '  trimmed  ', expires_at: null, userbot_ids: null })
		expect(made).toMatchObject({ name: 'trimmed', scopes: { userbot_ids: null, read_only: false } })
		const stranger = await fetch(`${c.t.url}/api/keys/`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: '{broken',
		})
		expect(stranger.status).toBe(401)
	})
})

describe('a key scoped to one userbot and the messages group', () => {
	let key: string
	beforeAll(async () => {
		key = (await makeKey({ name: 'sender', userbot_ids: [c.userbotId], groups: ['commands-messages'] })).key
	})

	it('sends a message on that userbot over the WebSocket', async () => {
		const s = await connectWs(c.t.url, { bearer: key })
		sockets.push(s)
		const reply = await s.command({ action: 'send_message', userbot_id: c.userbotId, ...sendExample() })
		expect(reply.payload.error).toBeUndefined()
		expect(reply.payload.type).toBe('send_message')
	})

	it('is refused another userbot, another group, and updates of another userbot', async () => {
		const s = await connectWs(c.t.url, { bearer: key })
		sockets.push(s)
		const elsewhere = await s.command({ action: 'send_message', userbot_id: other, ...sendExample() })
		expect(elsewhere.payload.error).toBe('userbot not found')
		const group = await s.command({ action: 'get_active_sessions', userbot_id: c.userbotId })
		expect(group.payload.error).toBe('permission denied')
		const sub = await s.command({ action: 'subscribe', userbot_id: other })
		expect(sub.payload.error).toBe('userbot not found')
	})

	it('reads its userbot over REST and is refused the rest', async () => {
		const list = await keyCall(key, 'GET', '/api/userbots/', 'header')
		expect(list.status).toBe(200)
		expect(((await list.json()) as Array<{ id: number }>).map((b) => b.id)).toEqual([c.userbotId])
		expect((await keyCall(key, 'GET', `/api/userbots/${c.userbotId}/`)).status).toBe(200)
		expect((await keyCall(key, 'GET', `/api/userbots/${other}/`)).status).toBe(404)
		expect((await keyCall(key, 'DELETE', `/api/userbots/${c.userbotId}/`)).status).toBe(403)
		expect((await keyCall(key, 'POST', '/api/userbots/', 'bearer', { name: 'more' })).status).toBe(403)
		expect((await keyCall(key, 'GET', '/accounts/me/')).status).toBe(403)
		expect((await keyCall(key, 'GET', '/accounts/members/')).status).toBe(403)
		expect((await keyCall(key, 'GET', '/api/audit/')).status).toBe(403)
	})
})

describe('a read-only key', () => {
	it('sends `get_*` commands and GET routes only', async () => {
		const { key } = await makeKey({ name: 'reader', read_only: true })
		const s = await connectWs(c.t.url, { bearer: key })
		sockets.push(s)
		expect(
			(await s.command({ action: 'get_account_ttl', userbot_id: c.userbotId })).payload.error,
		).toBeUndefined()
		const send = await s.command({ action: 'send_message', userbot_id: c.userbotId, ...sendExample() })
		expect(send.payload.error).toBe('permission denied')
		expect((await keyCall(key, 'GET', `/api/userbots/${other}/`)).status).toBe(200)
		expect((await keyCall(key, 'POST', '/api/userbots/', 'bearer', { name: 'no' })).status).toBe(403)
	})
})

describe('how a key is presented', () => {
	it('is never taken from a cookie or the URL', async () => {
		const { key } = await makeKey({ name: 'hidden' })
		const asCookie = await fetch(`${c.t.url}/api/userbots/`, { headers: { cookie: `sessionid=${key}` } })
		expect(asCookie.status).toBe(401)
		const asOtherCookie = await fetch(`${c.t.url}/api/userbots/`, { headers: { cookie: `api_key=${key}` } })
		expect(asOtherCookie.status).toBe(401)
		for (const name of ['api_key', 'key', 'token', 'access_token'])
			expect((await fetch(`${c.t.url}/api/userbots/?${name}=${key}`)).status).toBe(401)
		const ws = new WebSocket(`${c.t.url.replace(/^http/, 'ws')}/ws?api_key=${key}`)
		const closed = await new Promise<string>((resolve) => {
			ws.onopen = () => resolve('open')
			ws.onerror = () => resolve('refused')
		})
		expect(closed).toBe('refused')
		expect((await keyCall(key, 'GET', '/api/userbots/')).status).toBe(200)
	})

	it('refuses an unknown or malformed key with 401', async () => {
		expect((await keyCall(`ubg_${'A'.repeat(43)}`, 'GET', '/api/userbots/')).status).toBe(401)
		expect((await keyCall('ubg_short', 'GET', '/api/userbots/', 'header')).status).toBe(401)
	})

	it('records its last use at most once a minute', async () => {
		const made = await makeKey({ name: 'used' })
		const lastUse = async () =>
			(await c.t.ctx.db.select().from(apiKey).where(eq(apiKey.id, made.id)))[0]?.lastUsedAt ?? null
		expect(await lastUse()).toBeNull()
		expect((await keyCall(made.key, 'GET', '/api/userbots/')).status).toBe(200)
		// The write is not awaited by the request: wait for it.
		let first: number | null = null
		while (first === null) {
			first = await lastUse()
			if (first === null) await Bun.sleep(5)
		}
		expect((await keyCall(made.key, 'GET', '/api/userbots/')).status).toBe(200)
		expect(await lastUse()).toBe(first)
		expect(LAST_USE_EVERY_MS).toBe(60_000)
	})
})

describe('revoking', () => {
	it('closes the key’s open sockets at once with 1008, and refuses it after', async () => {
		const made = await makeKey({ name: 'doomed' })
		const s = await connectWs(c.t.url, { bearer: made.key })
		sockets.push(s)
		expect(
			(await s.command({ action: 'get_account_ttl', userbot_id: c.userbotId })).payload.error,
		).toBeUndefined()
		const res = await c.call('DELETE', `/api/keys/${made.id}/`, c.owner.access)
		expect(res.status).toBe(204)
		expect(await s.closed).toEqual({ code: 1008, reason: 'credentials revoked' })
		expect((await keyCall(made.key, 'GET', '/api/userbots/')).status).toBe(401)
		expect((await c.call('DELETE', `/api/keys/${made.id}/`, c.owner.access)).status).toBe(404)
		const listed = (await (await c.call('GET', '/api/keys/', c.owner.access)).json()) as Array<{ id: number }>
		expect(listed.map((k) => k.id)).not.toContain(made.id)
	})

	it('writes key creation and revocation to the audit log, which only the owner reads', async () => {
		const made = await makeKey({ name: 'audited' })
		await c.call('DELETE', `/api/keys/${made.id}/`, c.owner.access)
		const res = await c.call('GET', '/api/audit/', c.owner.access)
		expect(res.status).toBe(200)
		const lines = (await res.json()) as Array<{ action: string; target: string; user_id: number }>
		expect(lines.slice(0, 2).map((l) => [l.action, l.target, l.user_id])).toEqual([
			['key.revoked', `key:${made.id}`, c.owner.userId],
			['key.created', `key:${made.id}`, c.owner.userId],
		])
		expect(JSON.stringify(lines)).not.toContain(made.key)
		expect((await c.call('GET', '/api/audit/', c.member.access)).status).toBe(403)
	})
})
