import { isIP } from 'node:net'
import {
	type AddressPolicy,
	AddressRefused,
	type CachedLookup,
	cachedLookup,
	defaultLookup,
	hostResolverNow,
	isInternalAddress,
	type Lookup,
} from 'userbot-gateway/plugin'

/**
 * An endpoint's URL is the company's word for where this server sends requests, so it must not turn
 * the server into a probe of its own network (SSRF): `https` only (`http` with WEBHOOK_ALLOW_HTTP),
 * no credentials in it, and every address its host resolves to public, by the core's address policy
 * (`hostResolverNow`, shared with the userbots' proxies): not loopback, private, shared (CGNAT),
 * link-local (cloud metadata at 169.254.169.254 among them), multicast, reserved or documentation
 * ranges, in IPv4 or IPv6. The check runs when the URL is saved and again before every delivery, and
 * the delivery connects to the very address checked (a name that resolves elsewhere a moment later —
 * DNS rebinding — gains nothing). WEBHOOK_ALLOWED_HOSTS names hosts, addresses or CIDRs that may be
 * internal.
 */
export interface UrlPolicy extends AddressPolicy {
	allowHttp: boolean
}

export { type CachedLookup, cachedLookup, defaultLookup, isInternalAddress, type Lookup }

/** What a client is told; never the address a name resolved to. */
export const URL_ERRORS = {
	invalid: 'Enter a valid URL.',
	scheme: 'The URL must use https.',
	credentials: 'The URL may not carry a user name or password.',
	unresolved: 'The host name of the URL does not resolve.',
	internal: 'The URL may not reach a loopback, private, link-local, multicast or metadata address.',
} as const

export class UrlRefused extends Error {
	constructor(readonly reason: keyof typeof URL_ERRORS) {
		super(URL_ERRORS[reason])
	}
}

/** The URL's form alone (no DNS): its scheme, no credentials, a host. */
export function checkUrlForm(raw: string, policy: UrlPolicy): URL {
	if (raw.length > 2048) throw new UrlRefused('invalid')
	const url = URL.parse(raw)
	if (!url || url.hostname === '') throw new UrlRefused('invalid')
	if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) {
		throw new UrlRefused(url.protocol === 'http:' ? 'scheme' : 'invalid')
	}
	if (url.username !== '' || url.password !== '') throw new UrlRefused('credentials')
	return url
}

const bare = (hostname: string) => (hostname.startsWith('[') ? hostname.slice(1, -1) : hostname)

/** The address a delivery to `url` connects to: checked, resolved once. Throws UrlRefused. */
export function resolveTarget(url: URL, policy: UrlPolicy, lookup: Lookup): Promise<string> {
	return targetResolver(policy, lookup)(url)
}

/**
 * `resolveTarget` with the policy's allowed CIDRs parsed once (the deliverer's, per attempt): each
 * call still resolves the host and holds every address it answers to the rules (`hostResolverNow`).
 */
export function targetResolver(policy: UrlPolicy, lookup: Lookup): (url: URL) => Promise<string> {
	const now = targetResolverNow(policy, lookup)
	return async (url) => now(url)
}

/**
 * `targetResolver` answering without a promise when it can: the host is an address, or `lookup`
 * (`cachedLookup`'s) holds a fresh answer for it. The same checks either way; a refusal is thrown
 * (UrlRefused), synchronously when the answer was at hand.
 */
export function targetResolverNow(policy: UrlPolicy, lookup: Lookup): (url: URL) => string | Promise<string> {
	const resolve = hostResolverNow(policy, lookup)
	return (url) => {
		let answer: string | Promise<string>
		try {
			answer = resolve(bare(url.hostname))
		} catch (err) {
			throw refusedUrl(err)
		}
		return typeof answer === 'string'
			? answer
			: answer.catch((err: unknown) => {
					throw refusedUrl(err)
				})
	}
}

/** The core's refusal in the URL's words. */
const refusedUrl = (err: unknown): unknown =>
	err instanceof AddressRefused ? new UrlRefused(err.reason) : err

/** The URL with its host replaced by the checked address: what `fetch` connects to. */
export function pinnedUrl(url: URL, address: string): string {
	const pinned = new URL(url.href)
	pinned.hostname = isIP(address) === 6 ? `[${address}]` : address
	return pinned.href
}
