import { lookup as dnsLookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import { type Cidr, formatAddress, inCidr, parseAddress, parseCidr } from 'userbot-gateway/plugin'

/**
 * An endpoint's URL is the company's word for where this server sends requests, so it must not turn
 * the server into a probe of its own network (SSRF): `https` only (`http` with WEBHOOK_ALLOW_HTTP),
 * no credentials in it, and every address its host resolves to public: not loopback, private,
 * shared (CGNAT), link-local (cloud metadata at 169.254.169.254 among them), multicast, reserved or
 * documentation ranges, in IPv4 or IPv6 (an IPv4-mapped or NAT64 address counts as its IPv4 one).
 * The check runs when the URL is saved and again before every delivery, and the delivery connects
 * to the very address checked (a name that resolves elsewhere a moment later — DNS rebinding — gains
 * nothing). WEBHOOK_ALLOWED_HOSTS names hosts, addresses or CIDRs that may be internal.
 */
export interface UrlPolicy {
	allowHttp: boolean
	allowedHosts: readonly string[]
}

export type Lookup = (host: string) => Promise<Array<{ address: string; family: number }>>

export const defaultLookup: Lookup = (host) => dnsLookup(host, { all: true, verbatim: true })

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

const BLOCKED = [
	// IPv4 (matched in their IPv4-mapped form).
	'0.0.0.0/8',
	'10.0.0.0/8',
	'100.64.0.0/10',
	'127.0.0.0/8',
	'169.254.0.0/16',
	'172.16.0.0/12',
	'192.0.0.0/24',
	'192.0.2.0/24',
	'192.88.99.0/24',
	'192.168.0.0/16',
	'198.18.0.0/15',
	'198.51.100.0/24',
	'203.0.113.0/24',
	'224.0.0.0/4',
	'240.0.0.0/4',
	// IPv6.
	'::/128',
	'::1/128',
	'100::/64',
	'2001:db8::/32',
	'fc00::/7',
	'fe80::/10',
	'fec0::/10',
	'ff00::/8',
].map((c) => parseCidr(c) as Cidr)

const NAT64 = parseCidr('64:ff9b::/96') as Cidr
const COMPAT = parseCidr('::/96') as Cidr

/** An address as IPv4-mapped when it embeds an IPv4 one (NAT64, IPv4-compatible). */
function normalized(b: Uint8Array): Uint8Array {
	if (inCidr(b, NAT64) || (inCidr(b, COMPAT) && b.slice(12).some((x) => x !== 0))) {
		const out = new Uint8Array(16)
		out[10] = 0xff
		out[11] = 0xff
		out.set(b.slice(12), 12)
		return out
	}
	return b
}

export function isInternalAddress(address: string): boolean {
	const b = parseAddress(address)
	if (!b) return true
	const n = normalized(b)
	return BLOCKED.some((c) => inCidr(n, c))
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

/** What the rules say of one address: allowed by a CIDR of the list, public, internal or unparsable. */
type Verdict = { kind: 'allowed' | 'public' | 'internal'; address: string } | { kind: 'unparsable' }

/** Addresses whose verdict a resolver keeps at most; past it they are judged again. */
const VERDICTS_KEPT = 1000

/**
 * `resolveTarget` with the policy's allowed CIDRs parsed once (the deliverer's, per attempt): each
 * call still resolves the host and holds every address it answers to the rules. What the rules say
 * of one address is a function of the address and the list alone, so it is worked out once per
 * address (parsing and matching it against the ranges cost about a twentieth of a delivery) and
 * looked up at each attempt: a name that resolves elsewhere now is judged by its new addresses.
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
	let parsedFrom: readonly string[] | null = null
	let cidrs: Cidr[] = []
	const verdicts = new Map<string, Verdict>()
	const judge = (address: string): Verdict => {
		let verdict = verdicts.get(address)
		if (verdict === undefined) {
			const b = parseAddress(address)
			if (!b) verdict = { kind: 'unparsable' }
			else {
				const kind = cidrs.some((c) => inCidr(b, c))
					? 'allowed'
					: isInternalAddress(address)
						? 'internal'
						: 'public'
				verdict = { kind, address: formatAddress(b) }
			}
			if (verdicts.size >= VERDICTS_KEPT) verdicts.clear()
			verdicts.set(address, verdict)
		}
		return verdict
	}
	// Every address must pass: a name answering one public and one internal address is refused.
	const pick = (addresses: readonly string[], byName: boolean): string => {
		if (addresses.length === 0) throw new UrlRefused('unresolved')
		let first: string | null = null
		for (const address of addresses) {
			const verdict = judge(address)
			if (verdict.kind === 'unparsable') throw new UrlRefused('unresolved')
			if (verdict.kind === 'internal' && !byName) throw new UrlRefused('internal')
			first ??= verdict.address
		}
		return first as string
	}
	const held = (lookup as Partial<CachedLookup>).known
	return (url) => {
		// Parsed again when the list is another one (a test's configuration changes it).
		if (parsedFrom !== policy.allowedHosts) {
			parsedFrom = policy.allowedHosts
			cidrs = parsedFrom.map(parseCidr).filter((c): c is Cidr => c !== null)
			verdicts.clear()
		}
		const host = bare(url.hostname).toLowerCase()
		const byName = policy.allowedHosts.includes(host)
		if (isIP(host) !== 0) return pick([host], byName)
		const answer = held?.(host)
		if (answer !== undefined) return pick(addressesOf(answer), byName)
		let asked: ReturnType<Lookup>
		try {
			asked = lookup(host)
		} catch {
			throw new UrlRefused('unresolved')
		}
		return asked.then(
			(answer) => pick(addressesOf(answer), byName),
			() => {
				throw new UrlRefused('unresolved')
			},
		)
	}
}

const addressesOf = (answer: Awaited<ReturnType<Lookup>>): string[] => answer.map((a) => a.address)

/** The URL with its host replaced by the checked address: what `fetch` connects to. */
export function pinnedUrl(url: URL, address: string): string {
	const pinned = new URL(url.href)
	pinned.hostname = isIP(address) === 6 ? `[${address}]` : address
	return pinned.href
}

/** Names remembered at most; past this the oldest are forgotten first. */
const LOOKUP_CACHE_SIZE = 1000

/**
 * `lookup` with each name's answer reused for `ttlMs` (the deliverer's: one DNS query per name and
 * few seconds, not per attempt). Only the answer is reused: `resolveTarget` checks every address
 * against the rules at each attempt and the request connects to the address checked. A failed
 * lookup is not remembered.
 */
export function cachedLookup(lookup: Lookup, ttlMs: number, now: () => number): CachedLookup {
	const answers = new Map<string, { until: number; addresses: Awaited<ReturnType<Lookup>> }>()
	const known = (host: string) => {
		const at = now()
		const held = answers.get(host)
		return held && held.until > at && held.until - ttlMs <= at ? held.addresses : undefined
	}
	const cached = async (host: string) => {
		const held = known(host)
		if (held !== undefined) return held
		const at = now()
		const addresses = await lookup(host)
		answers.delete(host)
		if (answers.size >= LOOKUP_CACHE_SIZE) answers.delete(answers.keys().next().value as string)
		answers.set(host, { until: at + ttlMs, addresses })
		return addresses
	}
	return Object.assign(cached, { known })
}

/** A `Lookup` whose fresh answers can be read without a promise (`targetResolverNow` does). */
export type CachedLookup = Lookup & {
	/** The answer held for `host` while fresh, else undefined (then call the lookup). */
	known(host: string): Awaited<ReturnType<Lookup>> | undefined
}
