import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { userbots } from '../../../../plugins/userbots'
import { PROXY_ADDRESS_ERRORS } from '../../../../plugins/userbots/lifecycle/proxy-address'
import { builtInPlugins } from '../../../../src/app'
import { type Company, startCompany } from '../../../gateway/company'

/**
 * Issue 43: a userbot's proxy follows the webhooks' address policy, so that an owner cannot make the
 * server's TDLib dial its loopback, the cloud's metadata address or the internal network, nor learn
 * from `proxy/check/` what answers there. Refused when set (a 400 on `server`, nothing quoted,
 * nothing stored), allowed where PROXY_ALLOWED_HOSTS names it, and checked again at each use: a
 * name rebound to loopback after it was set is refused at the check and at the client's start.
 */
const INTERNAL = { server: [PROXY_ADDRESS_ERRORS.internal] }
/** `rebind.example`: public until the test flips it to loopback (DNS rebinding). */
let rebound = false
const lookup = async (host: string) => {
	const answer = (...addresses: string[]) => addresses.map((address) => ({ address, family: 4 }))
	if (host === 'public.example') return answer('93.184.216.34')
	if (host === 'rebind.example') return answer(rebound ? '127.0.0.1' : '93.184.216.35')
	if (host === 'loopback.example') return answer('127.0.0.1')
	if (host === 'metadata.example') return answer('169.254.169.254')
	if (host === 'mixed.example') return answer('93.184.216.34', '10.1.2.3')
	if (host === 'corp-proxy.internal') return answer('10.20.30.40')
	throw new Error('ENOTFOUND')
}

let c: Company
beforeAll(async () => {
	const plugins = [...builtInPlugins.filter((p) => p.id !== 'userbots'), userbots({ lookup })]
	// The operator allows one internal range and one internal name; nothing else internal.
	c = await startCompany({ PROXY_ALLOWED_HOSTS: '10.9.0.0/16,Corp-Proxy.Internal' }, { plugins })
})
afterAll(() => c.stop())

const path = (suffix = '') => `/api/userbots/${c.userbotId}/proxy/${suffix}`
const socks = (server: string) => ({ type: 'socks5', server, port: 1080, username: 'u', password: 'p' })
const tdlibServers = async () =>
	(
		(await c.t.ctx.runtime!.invoke(c.userbotId, { _: 'getProxies' })) as {
			proxies: Array<{ proxy: { server: string } }>
		}
	).proxies.map((p) => p.proxy.server)

describe('a userbot’s proxy and the address policy', () => {
	it('refuses loopback, link-local, metadata and private addresses, and names resolving to them', async () => {
		for (const server of [
			'127.0.0.1',
			'127.8.9.10',
			'::1',
			'::ffff:127.0.0.1',
			'169.254.169.254',
			'fd00:ec2::254',
			'fe80::1',
			'10.0.0.5',
			'172.16.4.4',
			'192.168.1.10',
			'100.64.0.1',
			'0.0.0.0',
			'224.0.0.1',
			'loopback.example',
			'metadata.example',
			'mixed.example',
		]) {
			const res = await c.call('PUT', path(), c.owner.access, socks(server))
			const text = await res.text()
			expect({ server, status: res.status, body: JSON.parse(text) }).toEqual({
				server,
				status: 400,
				body: INTERNAL,
			})
			expect(text).not.toContain(server)
		}
		const unknown = await c.call('PUT', path(), c.owner.access, socks('nowhere.example'))
		expect(await unknown.json()).toEqual({ server: [PROXY_ADDRESS_ERRORS.unresolved] })
		// Nothing was stored, and TDLib was given nothing.
		const view = (await (await c.call('GET', `/api/userbots/${c.userbotId}/`, c.owner.access)).json()) as {
			proxy: unknown
		}
		expect(view.proxy).toBeNull()
		expect(await tdlibServers()).toEqual([])
	})

	it('refuses an internal proxy for a new userbot under `proxy`, and makes no userbot', async () => {
		const count = async () =>
			((await (await c.call('GET', '/api/userbots/', c.owner.access)).json()) as []).length
		const before = await count()
		const res = await c.call('POST', '/api/userbots/', c.owner.access, {
			name: 'metadata',
			proxy: socks('169.254.169.254'),
		})
		expect(res.status).toBe(400)
		expect(await res.json()).toEqual({ proxy: INTERNAL })
		expect(await count()).toBe(before)
	})

	it('takes an internal proxy the operator allows, by range or by name, and TDLib gets its address', async () => {
		const inRange = await c.call('PUT', path(), c.owner.access, socks('10.9.1.2'))
		expect(inRange.status).toBe(200)
		expect(await tdlibServers()).toEqual(['10.9.1.2'])
		// The list is read in lower case; the name's own address is internal and allowed for that name alone.
		const named = await c.call('PUT', path(), c.owner.access, socks('corp-proxy.internal'))
		expect(named.status).toBe(200)
		expect(await named.json()).toMatchObject({ server: 'corp-proxy.internal', check: { ok: true } })
		expect(await tdlibServers()).toEqual(['10.20.30.40'])
		// Outside the range, still refused.
		expect(await (await c.call('PUT', path(), c.owner.access, socks('10.10.0.1'))).json()).toEqual(INTERNAL)
		expect(await tdlibServers()).toEqual(['10.20.30.40'])
	})

	it('checks the name again at use: rebound to loopback, the check and the start are refused', async () => {
		rebound = false
		const set = await c.call('PUT', path(), c.owner.access, socks('rebind.example'))
		expect(set.status).toBe(200)
		expect(await tdlibServers()).toEqual(['93.184.216.35'])

		rebound = true
		// A ping TDLib would answer with this failure: still queued after the check, so TDLib was not asked.
		await c.t.ctx.runtime!.invoke(c.userbotId, {
			_: 'emulatorFailNext',
			method: 'pingProxy',
			code: 400,
			message: 'Connection refused',
		} as never)
		const check = await c.call('POST', path('check/'), c.owner.access)
		expect(check.status).toBe(200)
		const checkText = await check.text()
		expect(JSON.parse(checkText).check).toMatchObject({ ok: false, error: PROXY_ADDRESS_ERRORS.internal })
		expect(checkText).not.toContain('127.0.0.1')
		rebound = false
		const recheck = await c.call('POST', path('check/'), c.owner.access)
		expect((await recheck.json()).check).toMatchObject({ ok: false, error: 'Connection refused' })

		// A start (here a restart) resolves it again: refused, and no client dials it.
		rebound = true
		const restart = await c.call('POST', `/api/userbots/${c.userbotId}/restart/`, c.owner.access)
		expect(restart.status).toBe(400)
		const restartText = await restart.text()
		expect(JSON.parse(restartText)).toEqual({ detail: PROXY_ADDRESS_ERRORS.internal, code: 'proxy_refused' })
		expect(restartText).not.toContain('127.0.0.1')
		await expect(tdlibServers()).rejects.toThrow()

		// Public again: it starts behind the address it now resolves to, logged in as before.
		rebound = false
		const again = await c.call('POST', `/api/userbots/${c.userbotId}/restart/`, c.owner.access)
		expect(await again.json()).toEqual({ authorization_state: 'authorizationStateReady' })
		expect(await tdlibServers()).toEqual(['93.184.216.35'])
		expect((await c.call('DELETE', path(), c.owner.access)).status).toBe(204)
	})
})
