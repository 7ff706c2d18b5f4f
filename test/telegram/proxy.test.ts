import { describe, expect, it } from 'bun:test'
import { createEmulatorBackend } from '../../src/emulator'
import {
	prepareNetwork,
	proxySecretFault,
	type SetupInvoke,
	type TdProxy,
} from '../../src/runtime/telegram/proxy'
import { TdError, type TdRequest } from '../../src/runtime/telegram/types'

/**
 * Issue 28: the order of a client's network set-up, and the emulator's proxy methods answering as
 * real TDLib 1.8.65 answered them (measured offline with `setNetworkType(networkTypeNone)`).
 */
const SOCKS: TdProxy = {
	server: '127.0.0.1',
	port: 1080,
	type: { _: 'proxyTypeSocks5', username: 'u', password: 'p' },
}
const HEX = '0123456789abcdef0123456789abcdef'

function recorder(existing: number[] = [], failOn?: string) {
	const sent: string[] = []
	const invoke: SetupInvoke = async (request) => {
		sent.push(request._ === 'setNetworkType' ? `setNetworkType ${request.type._}` : request._)
		if (request._ === failOn) throw new TdError(400, 'Wrong proxy secret')
		if (request._ === 'getProxies') return { proxies: existing.map((id) => ({ id })) }
		return { _: 'ok' }
	}
	return { sent, invoke }
}

describe('prepareNetwork', () => {
	it('removes what an earlier start left, enables the proxy, and only then lets the network go', async () => {
		const r = recorder([2, 3])
		await prepareNetwork(r.invoke, SOCKS, true)
		expect(r.sent).toEqual([
			'getProxies',
			'removeProxy',
			'removeProxy',
			'addProxy',
			'setNetworkType networkTypeOther',
		])
	})
	it('keeps the network held when offline, and when TDLib refuses the proxy', async () => {
		const offline = recorder()
		await prepareNetwork(offline.invoke, SOCKS, false)
		expect(offline.sent).toEqual(['getProxies', 'addProxy'])
		const refused = recorder([], 'addProxy')
		await expect(prepareNetwork(refused.invoke, SOCKS, true)).rejects.toThrow('Wrong proxy secret')
		expect(refused.sent).toEqual(['getProxies', 'addProxy'])
	})
})

describe('MTProto secrets, read as TDLib reads them', () => {
	it('gives TDLib’s word for each measured case', () => {
		const cases: Array<[string, string | null]> = [
			[HEX, null],
			[HEX.toUpperCase(), null],
			[`dd${HEX}`, null],
			[`ee${HEX}61`, null],
			['ASNFZ4mrze8BI0VniavN7w', null],
			['3QEjRWeJq83vASNFZ4mrze8', null],
			[`ee${'61'.repeat(182)}${HEX}`, null],
			[HEX.slice(0, 30), 'Wrong proxy secret'],
			[`zz${HEX}`, 'Wrong proxy secret'],
			['', 'Wrong proxy secret'],
			[`ee${HEX}`, 'Unsupported proxy secret'],
			[`cc${HEX}`, 'Unsupported proxy secret'],
			[`ee${HEX}${'61'.repeat(183)}`, 'Too long secret'],
		]
		for (const [secret, fault] of cases)
			expect({ secret, fault: proxySecretFault(secret) as string | null }).toEqual({ secret, fault })
	})
})

describe('the emulator’s proxy methods', () => {
	const client = () =>
		createEmulatorBackend().createClient(1, { databaseDirectory: '', filesDirectory: '', encryptionKey: '' })
	const call = (c: ReturnType<typeof client>, request: Record<string, unknown>) =>
		c.invoke(request as unknown as TdRequest).catch((err: TdError) => `${err.code} ${err.message}`)

	it('list, enable and remove proxies as TDLib does, from id 2, one entry per equal proxy', async () => {
		const c = client()
		const added = (await call(c, { _: 'addProxy', proxy: SOCKS, enable: true, comment: 'a' })) as {
			id: number
		}
		expect(added).toMatchObject({ _: 'addedProxy', id: 2, is_enabled: true, comment: 'a' })
		const again = await call(c, { _: 'addProxy', proxy: SOCKS, enable: false, comment: 'b' })
		expect(again).toMatchObject({ id: 2, is_enabled: true, comment: 'b' })
		const fake = await call(c, {
			_: 'addProxy',
			proxy: { server: 'x.example', port: 443, type: { _: 'proxyTypeMtproto', secret: `ee${HEX}61` } },
			enable: true,
		})
		expect(fake).toMatchObject({
			id: 3,
			is_enabled: true,
			proxy: { type: { secret: '7gEjRWeJq83vASNFZ4mrze9h' } },
		})
		const listed = (await call(c, { _: 'getProxies' })) as {
			proxies: Array<{ id: number; is_enabled: boolean }>
		}
		expect(listed.proxies.map((p) => [p.id, p.is_enabled])).toEqual([
			[2, false],
			[3, true],
		])
		expect(await call(c, { _: 'removeProxy', proxy_id: 999 })).toBe('400 Unknown proxy identifier')
		expect(await call(c, { _: 'enableProxy', proxy_id: 999 })).toBe('400 Unknown proxy identifier')
		expect(await call(c, { _: 'disableProxy' })).toEqual({ _: 'ok' })
		expect(await call(c, { _: 'removeProxy', proxy_id: 2 })).toEqual({ _: 'ok' })
		expect(await call(c, { _: 'pingProxy', proxy: SOCKS })).toEqual({ _: 'seconds', seconds: 0.05 })
		await c.close()
	})

	it('refuses a bad proxy with TDLib’s words', async () => {
		const c = client()
		const add = (proxy: Record<string, unknown>) => call(c, { _: 'addProxy', proxy, enable: true })
		const socks = { _: 'proxyTypeSocks5', username: '', password: '' }
		expect(await add({ server: '', port: 1080, type: socks })).toBe('400 Server name must be non-empty')
		expect(await add({ server: 'a'.repeat(256), port: 1080, type: socks })).toBe(
			'400 Server name is too long',
		)
		expect(await add({ server: 'x.example', port: 0, type: socks })).toBe('400 Wrong port number')
		expect(await add({ server: 'x.example', port: 65536, type: socks })).toBe('400 Wrong port number')
		expect(await add({ server: 'x.example', port: 1080 })).toBe('400 Proxy type must be non-empty')
		expect(await add({ server: 'x.example', port: 443, type: { _: 'proxyTypeMtproto', secret: 'zz' } })).toBe(
			'400 Wrong proxy secret',
		)
		expect(await call(c, { _: 'pingProxy', proxy: { server: '', port: 1, type: socks } })).toBe(
			'400 Server name must be non-empty',
		)
		await c.close()
	})
})
