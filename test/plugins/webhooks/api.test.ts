import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { webhooks } from '../../../plugins/webhooks'
import type { WebhookConfig } from '../../../plugins/webhooks/settings'
import { URL_ERRORS } from '../../../plugins/webhooks/ssrf'
import { builtInPlugins } from '../../../src/app'
import { joinCompany, type Member } from '../../gateway/company'
import { getTestInstance, type TestInstance } from '../../helpers'
import { registerUser, type TestUser } from '../../helpers-ws'
import { call, insertUserbot, publish, type Receiver, startReceiver } from './receiver'

/**
 * The endpoints' REST API: an owner's alone (a member is refused, another company's owner finds
 * nothing), its fields checked whole, and the SSRF rules when a URL is saved and when it is used.
 */
describe('webhook endpoints: who may, and what is checked', () => {
	let t: TestInstance
	let owner: TestUser
	let other: TestUser
	let member: Member
	let rx: Receiver
	let settings: WebhookConfig | undefined
	/** `rebound` names: public when saved, loopback when delivered (DNS rebinding). */
	let lookups = 0

	beforeAll(async () => {
		const lookup = async (host: string) => {
			if (host === 'rebound.example')
				return [{ address: lookups++ === 0 ? '93.184.216.34' : '127.0.0.1', family: 4 }]
			if (host === 'pinned.example') return [{ address: '127.0.0.1', family: 4 }]
			if (host === 'mixed.example')
				return [
					{ address: '93.184.216.34', family: 4 },
					{ address: '10.1.2.3', family: 4 },
				]
			if (host === 'localhost') return [{ address: '127.0.0.1', family: 4 }]
			throw new Error('ENOTFOUND')
		}
		// The settings the plugin reads at its build, kept here so that a test can change its policy.
		const hooks = webhooks({ lookup })
		const watched = {
			...hooks,
			build: (ctx: Parameters<NonNullable<typeof hooks.build>>[0], read: WebhookConfig) => {
				settings = read
				return hooks.build?.(ctx, read) ?? null
			},
		}
		const plugins = [...builtInPlugins.filter((p) => p.id !== 'webhooks'), watched]
		t = await getTestInstance(
			{ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_RETRY_BASE: '1', WEBHOOK_RETRY_CAP: '2', WEBHOOK_POLL: '20' },
			{ plugins },
		)
		owner = await registerUser(t, 'hook-owner@example.com')
		other = await registerUser(t, 'hook-other@example.com')
		member = await joinCompany(t, owner, 'hook-member@example.com')
		rx = startReceiver()
	})
	afterAll(async () => {
		rx.stop()
		await t.stop()
	})
	const as = (u: TestUser | undefined) => call(t, u?.access)
	const live = (): WebhookConfig => {
		if (!settings) throw new Error('the webhooks plugin was not built')
		return settings
	}
	const allow = (hosts: string[]) => {
		live().allowedHosts = hosts
	}

	it('refuses loopback, private, link-local and metadata addresses, and names resolving to them', async () => {
		allow([])
		for (const url of [
			'https://10.0.0.1/hook',
			'https://169.254.169.254/latest/meta-data',
			`http://localhost:${rx.port}/hook`,
			`http://127.0.0.1:${rx.port}/hook`,
			'https://[::1]/hook',
			'https://[::ffff:127.0.0.1]/hook',
			'https://[fd00:ec2::254]/hook',
			'https://224.0.0.1/hook',
			'https://mixed.example/hook',
		]) {
			const res = await as(owner)('POST', '/api/webhooks/', { url })
			expect({ url, status: res.status }).toEqual({ url, status: 400 })
			expect(await res.json()).toEqual({ url: [URL_ERRORS.internal] })
		}
		expect(await (await as(owner)('GET', '/api/webhooks/')).json()).toEqual([])
	})

	it('takes https, http only when allowed, never credentials, and an unresolvable name is refused', async () => {
		allow([])
		const post = async (url: string) => (await as(owner)('POST', '/api/webhooks/', { url })).json()
		expect(await post('ftp://93.184.216.34/')).toEqual({ url: [URL_ERRORS.invalid] })
		expect(await post('https://user:pw@93.184.216.34/')).toEqual({ url: [URL_ERRORS.credentials] })
		expect(await post('https://nowhere.example/')).toEqual({ url: [URL_ERRORS.unresolved] })
		live().allowHttp = false
		expect(await post('http://93.184.216.34/')).toEqual({ url: [URL_ERRORS.scheme] })
		live().allowHttp = true
		const made = await as(owner)('POST', '/api/webhooks/', { url: 'https://93.184.216.34/hook' })
		expect(made.status).toBe(201)
		const { id } = (await made.json()) as { id: number }
		expect((await as(owner)('DELETE', `/api/webhooks/${id}/`)).status).toBe(204)
	})

	it('checks the address again at delivery: a name rebound to loopback is refused and never reached', async () => {
		allow([])
		lookups = 0
		const made = await as(owner)('POST', '/api/webhooks/', {
			url: `http://rebound.example:${rx.port}/rebound`,
		})
		expect(made.status).toBe(201)
		const { id } = (await made.json()) as { id: number }
		const ub = await insertUserbot(t, owner.companyId)
		publish(t, ub, 'to a rebound name')
		const deliveries = async () =>
			(await (await as(owner)('GET', `/api/webhooks/${id}/deliveries/`)).json()) as Array<
				Record<string, unknown>
			>
		for (let i = 0; i < 1000 && Number((await deliveries())[0]?.attempts ?? 0) < 2; i++) await Bun.sleep(10)
		expect((await deliveries())[0]).toMatchObject({
			status: 'pending',
			last_error: `refused: ${URL_ERRORS.internal}`,
		})
		expect(rx.received.filter((r) => r.path === '/rebound')).toEqual([])
		expect((await as(owner)('DELETE', `/api/webhooks/${id}/`)).status).toBe(204)
	})

	it('connects to the address it checked, with the name as Host, and follows no redirect', async () => {
		allow(['127.0.0.0/8'])
		const made = await as(owner)('POST', '/api/webhooks/', { url: `http://pinned.example:${rx.port}/pinned` })
		expect(made.status).toBe(201)
		const { id } = (await made.json()) as { id: number }
		rx.script('/pinned', { status: 302, headers: { location: `http://127.0.0.1:${rx.port}/elsewhere` } })
		const ub = await insertUserbot(t, owner.companyId)
		publish(t, ub, 'pinned')
		await rx.until((r) => r.filter((x) => x.path === '/pinned').length >= 2)
		const got = rx.received.filter((x) => x.path === '/pinned')
		expect(got[0]?.headers.host).toBe(`pinned.example:${rx.port}`)
		expect(rx.received.some((x) => x.path === '/elsewhere')).toBe(false)
		expect((await as(owner)('DELETE', `/api/webhooks/${id}/`)).status).toBe(204)
	})

	it("is the owner's alone: members get 403, another company's owner 404, nobody 401", async () => {
		allow(['127.0.0.1'])
		const made = await as(owner)('POST', '/api/webhooks/', { url: `${rx.url}/owned`, description: 'mine' })
		expect(made.status).toBe(201)
		const { id } = (await made.json()) as { id: number }
		expect((await as(member)('GET', '/api/webhooks/')).status).toBe(403)
		expect((await as(member)('POST', '/api/webhooks/', { url: `${rx.url}/m` })).status).toBe(403)
		expect((await as(member)('GET', `/api/webhooks/${id}/`)).status).toBe(403)
		expect((await as(undefined)('GET', '/api/webhooks/')).status).toBe(401)
		expect(await (await as(other)('GET', '/api/webhooks/')).json()).toEqual([])
		for (const [method, path, body] of [
			['GET', `/api/webhooks/${id}/`],
			['PATCH', `/api/webhooks/${id}/`, { description: 'theirs' }],
			['DELETE', `/api/webhooks/${id}/`],
			['POST', `/api/webhooks/${id}/rotate-secret/`],
			['POST', `/api/webhooks/${id}/test/`],
			['GET', `/api/webhooks/${id}/deliveries/`],
			['POST', `/api/webhooks/${id}/replay/`, {}],
		] as const) {
			const res = await as(other)(method, path, body)
			expect({ method, path, status: res.status }).toEqual({ method, path, status: 404 })
		}
		const mine = (await (await as(owner)('GET', `/api/webhooks/${id}/`)).json()) as Record<string, unknown>
		expect(mine.description).toBe('mine')
		expect((await as(owner)('DELETE', `/api/webhooks/${id}/`)).status).toBe(204)
	})

	it('checks the fields whole without echoing them, and only its own userbots', async () => {
		allow(['127.0.0.1'])
		const theirs = await insertUserbot(t, other.companyId)
		const res = await as(owner)('POST', '/api/webhooks/', {
			url: 42,
			events: ['updateNewMessage', 'secret-looking-value'],
			description: 'x'.repeat(501),
		})
		expect(res.status).toBe(400)
		const text = await res.text()
		expect(text).not.toContain('secret-looking-value')
		expect(Object.keys(JSON.parse(text)).sort()).toEqual(['description', 'events', 'url'])
		const foreign = await as(owner)('POST', '/api/webhooks/', { url: `${rx.url}/f`, userbot_ids: [theirs] })
		expect(foreign.status).toBe(400)
		expect(await foreign.json()).toEqual({ userbot_ids: ['Each item must be a userbot of the company.'] })
		const made = await as(owner)('POST', '/api/webhooks/', {
			url: `${rx.url}/p`,
			events: ['updateNewMessage'],
		})
		const { id } = (await made.json()) as { id: number }
		const patched = await as(owner)('PATCH', `/api/webhooks/${id}/`, {
			events: ['command.result'],
			enabled: false,
		})
		expect(await patched.json()).toMatchObject({ id, events: ['command.result'], enabled: false })
		expect((await as(owner)('PATCH', `/api/webhooks/${id}/`, { enabled: 'yes' })).status).toBe(400)
		expect((await as(owner)('POST', `/api/webhooks/${id}/replay/`, { since: 'yesterday' })).status).toBe(400)
		expect((await as(owner)('DELETE', `/api/webhooks/${id}/`)).status).toBe(204)
		expect((await as(owner)('GET', `/api/webhooks/${id}/`)).status).toBe(404)
	})

	it('words a deliveries query out of range as DRF does, and a value that is no integer apart', async () => {
		allow(['127.0.0.1'])
		const made = await as(owner)('POST', '/api/webhooks/', { url: `${rx.url}/paged` })
		const { id } = (await made.json()) as { id: number }
		const list = async (query: string) => {
			const res = await as(owner)('GET', `/api/webhooks/${id}/deliveries/?${query}`)
			return { query, status: res.status, body: await res.json() }
		}
		const cases: Array<[string, Record<string, string[]>]> = [
			['limit=501', { limit: ['Ensure this value is less than or equal to 500.'] }],
			['limit=100000', { limit: ['Ensure this value is less than or equal to 500.'] }],
			['limit=0', { limit: ['Ensure this value is greater than or equal to 1.'] }],
			['limit=many', { limit: ['A valid integer is required.'] }],
			['before=-1', { before: ['Ensure this value is greater than or equal to 0.'] }],
			[
				'before=9007199254740992',
				{ before: ['Ensure this value is less than or equal to 9007199254740991.'] },
			],
			['before=x', { before: ['A valid integer is required.'] }],
		]
		for (const [query, errors] of cases)
			expect(await list(query)).toEqual({ query, status: 400, body: errors })
		expect(await list('limit=500&before=0')).toEqual({ query: 'limit=500&before=0', status: 200, body: [] })
		expect((await as(owner)('DELETE', `/api/webhooks/${id}/`)).status).toBe(204)
	})
})

describe('webhooks left out', () => {
	it('serves no webhook route when PLUGINS does not name it', async () => {
		const t = await getTestInstance({ PLUGINS: 'accounts,userbots' })
		try {
			const owner = await registerUser(t, 'no-hooks@example.com')
			expect(t.plugins).not.toContain('webhooks')
			expect((await call(t, owner.access)('GET', '/api/webhooks/')).status).toBe(404)
		} finally {
			await t.stop()
		}
	})
})
