import type * as Td from 'tdlib-types'
import { proxySecretFault } from '../runtime/telegram/proxy'
import { fail, type Handlers, OK, type ProxyList, type Session } from './session'

/**
 * A client's proxy list, as TDLib 1.8.65 keeps it (measured with real TDLib, offline): the first
 * proxy added gets id 2; adding one equal to a listed proxy updates that one (comment, enabled);
 * enabling one disables the others. TDLib's checks and words: an empty or over-long server, a port
 * out of range, no type, an MTProto secret it cannot read. `pingProxy` answers at once with a
 * short time: the emulated cloud has no network to measure (`emulatorFailNext` plays a failure).
 */

export const newProxyList = (): ProxyList => ({ nextId: 2, list: [] })

/** TDLib answers a ping of the emulated cloud in this many seconds. */
const PING_SECONDS = 0.05

type ProxyInput = { server?: string; port?: number; type?: Td.ProxyType$Input } | undefined

/** The proxy as TDLib stores it (a secret in its canonical form), or TDLib's refusal. */
function checked(input: ProxyInput): Td.proxy {
	const server = input?.server ?? ''
	const port = input?.port ?? 0
	const type = input?.type
	if (!type) return fail('Proxy type must be non-empty')
	if (server === '') return fail('Server name must be non-empty')
	if (Buffer.byteLength(server) > 255) return fail('Server name is too long')
	if (port <= 0 || port > 65535) return fail('Wrong port number')
	switch (type._) {
		case 'proxyTypeSocks5':
			return {
				_: 'proxy',
				server,
				port,
				type: { _: 'proxyTypeSocks5', username: type.username ?? '', password: type.password ?? '' },
			}
		case 'proxyTypeHttp':
			return {
				_: 'proxy',
				server,
				port,
				type: {
					_: 'proxyTypeHttp',
					username: type.username ?? '',
					password: type.password ?? '',
					http_only: type.http_only ?? false,
				},
			}
		case 'proxyTypeMtproto': {
			const secret = type.secret ?? ''
			const fault = proxySecretFault(secret)
			if (fault) return fail(fault)
			return { _: 'proxy', server, port, type: { _: 'proxyTypeMtproto', secret: canonicalSecret(secret) } }
		}
	}
}

/** TDLib answers a secret in hex, a fake-TLS one (0xee) in base64url. */
function canonicalSecret(secret: string): string {
	const bytes = /^(?:[0-9a-fA-F]{2})+$/.test(secret)
		? Buffer.from(secret, 'hex')
		: Buffer.from(secret.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_'), 'base64url')
	return bytes[0] === 0xee && bytes.length > 17 ? bytes.toString('base64url') : bytes.toString('hex')
}

const sameProxy = (a: Td.proxy, b: Td.proxy) => JSON.stringify(a) === JSON.stringify(b)

function find(s: Session, id: number | undefined): Td.addedProxy {
	const found = s.proxies.list.find((p) => p.id === id)
	return found ?? fail('Unknown proxy identifier')
}

function enableOnly(s: Session, enabled: Td.addedProxy | undefined) {
	for (const p of s.proxies.list) p.is_enabled = p === enabled
}

export const proxyHandlers: Handlers = {
	addProxy(s, req) {
		const proxy = checked(req.proxy)
		let entry = s.proxies.list.find((p) => sameProxy(p.proxy, proxy))
		if (!entry) {
			entry = {
				_: 'addedProxy',
				id: s.proxies.nextId++,
				last_used_date: 0,
				is_enabled: false,
				comment: '',
				proxy,
			}
			s.proxies.list.push(entry)
		}
		entry.comment = req.comment ?? ''
		if (req.enable) enableOnly(s, entry)
		return { ...entry }
	},
	editProxy(s, req) {
		const entry = find(s, req.proxy_id)
		entry.proxy = checked(req.proxy)
		entry.comment = req.comment ?? ''
		if (req.enable) enableOnly(s, entry)
		return { ...entry }
	},
	enableProxy(s, req) {
		enableOnly(s, find(s, req.proxy_id))
		return OK
	},
	disableProxy(s) {
		enableOnly(s, undefined)
		return OK
	},
	removeProxy(s, req) {
		const entry = find(s, req.proxy_id)
		s.proxies.list = s.proxies.list.filter((p) => p !== entry)
		return OK
	},
	getProxies(s) {
		return { _: 'addedProxies', proxies: s.proxies.list.map((p) => ({ ...p })) }
	},
	pingProxy(_s, req) {
		if (req.proxy) checked(req.proxy)
		return { _: 'seconds', seconds: PING_SECONDS }
	},
}

/** They answer in any authorization state, as TDLib's network settings do. */
export const PROXY_METHODS = Object.keys(proxyHandlers)
