import * as v from 'valibot'

/**
 * A userbot's proxy as TDLib takes it (`proxy` of `addProxy`, `pingProxy`), and the one place the
 * order of a client's network set-up lives (docs/operator.md#userbot-proxies).
 */
export type TdProxyType =
	| { _: 'proxyTypeSocks5'; username: string; password: string }
	| { _: 'proxyTypeHttp'; username: string; password: string; http_only: boolean }
	| { _: 'proxyTypeMtproto'; secret: string }

export interface TdProxy {
	server: string
	port: number
	type: TdProxyType
}

const credential = v.pipe(v.string(), v.maxLength(255))

/** The proxy as it crosses the supervisor protocol (and the bus, sealed): checked on arrival. */
export const TdProxySchema = v.object({
	server: v.pipe(v.string(), v.minLength(1), v.maxLength(255)),
	port: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(65535)),
	type: v.variant('_', [
		v.object({ _: v.literal('proxyTypeSocks5'), username: credential, password: credential }),
		v.object({
			_: v.literal('proxyTypeHttp'),
			username: credential,
			password: credential,
			http_only: v.boolean(),
		}),
		v.object({ _: v.literal('proxyTypeMtproto'), secret: v.pipe(v.string(), v.maxLength(1024)) }),
	]),
})

/** The requests `prepareNetwork` sends; `setNetworkType` only where it holds the network itself. */
type SetupRequest =
	| { _: 'setNetworkType'; type: { _: 'networkTypeNone' | 'networkTypeOther' } }
	| { _: 'getProxies' }
	| { _: 'removeProxy'; proxy_id: number }
	| { _: 'addProxy'; proxy: TdProxy & { _: 'proxy' }; enable: boolean; comment: string }

export type SetupInvoke = (request: SetupRequest) => Promise<unknown>

/**
 * Makes a client's proxies exactly `proxy` (or none). TDLib keeps the proxies it was given in its
 * own database, enabled one included, so each start first removes what an earlier start added:
 * a proxy removed through REST is gone from TDLib too. With `release`, the network (held with
 * `networkTypeNone` by the caller's very first request) is let go only once the proxy is enabled:
 * TDLib's first connection already goes through it. When a step fails, the network stays held.
 */
export async function prepareNetwork(
	invoke: SetupInvoke,
	proxy: TdProxy | undefined,
	release: boolean,
): Promise<void> {
	const known = (await invoke({ _: 'getProxies' })) as { proxies?: Array<{ id: number }> }
	for (const p of known.proxies ?? []) await invoke({ _: 'removeProxy', proxy_id: p.id })
	if (proxy)
		await invoke({ _: 'addProxy', proxy: { _: 'proxy', ...proxy }, enable: true, comment: 'userbot-gateway' })
	if (release) await invoke({ _: 'setNetworkType', type: { _: 'networkTypeOther' } })
}

/**
 * An MTProto proxy secret read as TDLib 1.8.65 reads it (measured): hex, else base64 or
 * base64url; 16 bytes, or 17 beginning 0xdd (random padding), or 0xee with a fake-TLS domain,
 * fewer than 200 bytes in all. The answer is TDLib's word for what is wrong, or null.
 */
export function proxySecretFault(
	secret: string,
): 'Wrong proxy secret' | 'Unsupported proxy secret' | 'Too long secret' | null {
	let bytes: Buffer | undefined
	if (/^(?:[0-9a-fA-F]{2})+$/.test(secret)) bytes = Buffer.from(secret, 'hex')
	else if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(secret) && secret.length % 4 !== 1) {
		const plain = secret.replace(/=+$/, '')
		bytes = Buffer.from(plain.replace(/\+/g, '-').replace(/\//g, '_'), 'base64url')
		if (bytes.toString('base64url') !== plain.replace(/\+/g, '-').replace(/\//g, '_')) bytes = undefined
	}
	if (!bytes || bytes.length < 16) return 'Wrong proxy secret'
	if (bytes.length >= 200) return 'Too long secret'
	if (bytes.length === 16) return null
	if (bytes.length === 17 && bytes[0] === 0xdd) return null
	if (bytes.length > 17 && bytes[0] === 0xee) return null
	return 'Unsupported proxy secret'
}
