import {
	type AddressPolicy,
	AddressRefused,
	type ErrorBody,
	HttpError,
	hostResolverNow,
	type Lookup,
	type TdProxy,
} from 'userbot-gateway/plugin'
import { UserbotError } from './errors'

/**
 * Where a userbot's proxy may be (docs/operator.md#userbot-proxies): the webhooks' address policy
 * (src/server/net/address-policy.ts), so that an owner cannot make the server's TDLib dial its loopback,
 * the cloud's metadata address or the internal network, nor learn from a proxy check what answers
 * there. Private ranges only where PROXY_ALLOWED_HOSTS names them. The server's name is resolved
 * when the proxy is set and again at each use (a client's start, a check), and TDLib is handed the
 * address checked, never the name: a name that resolves elsewhere later (DNS rebinding) reaches
 * nothing new.
 */

/** What a client is told; never the address a name resolved to, nor the name. */
export const PROXY_ADDRESS_ERRORS = {
	internal: 'The proxy may not be on a loopback, private, link-local, multicast or metadata address.',
	unresolved: 'The host name of the proxy does not resolve.',
} as const

export class ProxyAddresses {
	private readonly resolve: (host: string) => string | Promise<string>

	constructor(policy: AddressPolicy, lookup: Lookup) {
		this.resolve = hostResolverNow(policy, lookup)
	}

	/** `proxy` with its server replaced by the address TDLib is to connect to. Throws AddressRefused. */
	async pin(proxy: TdProxy): Promise<TdProxy> {
		return { ...proxy, server: await this.resolve(proxy.server) }
	}

	/** `pin`, a refusal worded as the field error of the proxy's `server` (400), nested under `nest`. */
	async pinField(proxy: TdProxy, nest?: string): Promise<TdProxy> {
		try {
			return await this.pin(proxy)
		} catch (err) {
			if (!(err instanceof AddressRefused)) throw err
			const field = { server: [PROXY_ADDRESS_ERRORS[err.reason]] }
			throw new HttpError(400, (nest ? { [nest]: field } : field) as unknown as ErrorBody)
		}
	}

	/** `pin` at a client's start: a refusal fails the start (400 `proxy_refused`), never a direct connection. */
	async pinStart(proxy: TdProxy): Promise<TdProxy> {
		try {
			return await this.pin(proxy)
		} catch (err) {
			if (!(err instanceof AddressRefused)) throw err
			throw new UserbotError(400, PROXY_ADDRESS_ERRORS[err.reason], 'proxy_refused')
		}
	}
}
