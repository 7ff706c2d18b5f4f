import { lookup as dnsLookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import { type Cidr, formatAddress, inCidr, parseAddress, parseCidr } from '../http/client-address'

/**
 * Where this server may connect when a company names the place (a webhook endpoint's URL, a
 * userbot's proxy): never into its own network. Every address a host resolves to must be public:
 * not loopback, private, shared (CGNAT), link-local (cloud metadata at 169.254.169.254 among them),
 * multicast, reserved or documentation ranges, in IPv4 or IPv6 (an IPv4-mapped or NAT64 address
 * counts as its IPv4 one). The operator's allow-list (WEBHOOK_ALLOWED_HOSTS, PROXY_ALLOWED_HOSTS)
 * names hosts, addresses or CIDRs that may be internal. The caller connects to the address answered,
 * never to the name again: a name that resolves elsewhere a moment later (DNS rebinding) gains
 * nothing. One implementation for both (docs/webhooks.md#ssrf-rules,
 * docs/operator.md#userbot-proxies).
 */
export interface AddressPolicy {
	/** Host names (lower case), addresses and CIDRs allowed although internal. */
	allowedHosts: readonly string[]
}

export type Lookup = (host: string) => Promise<Array<{ address: string; family: number }>>

export const defaultLookup: Lookup = (host) => dnsLookup(host, { all: true, verbatim: true })

/** Why a host was refused: it does not resolve (or to no address), or it reaches an internal one. */
export type AddressRefusal = 'unresolved' | 'internal'

/** Thrown by a resolver; its message is a reason, never the address a name resolved to. */
export class AddressRefused extends Error {
	override name = 'AddressRefused'
	constructor(readonly reason: AddressRefusal) {
		super(reason === 'internal' ? 'the host reaches an internal address' : 'the host does not resolve')
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

/** What the rules say of one address: allowed by a CIDR of the list, public, internal or unparsable. */
type Verdict = { kind: 'allowed' | 'public' | 'internal'; address: string } | { kind: 'unparsable' }

/** Addresses whose verdict a resolver keeps at most; past it they are judged again. */
const VERDICTS_KEPT = 1000

/**
 * A resolver of hosts under `policy`, with its allowed CIDRs parsed once (the webhooks' deliverer
 * keeps one): each call still resolves the host and holds every address it answers to the rules.
 * What the rules say of one address is a function of the address and the list alone, so it is
 * worked out once per address (parsing and matching it against the ranges cost about a twentieth
 * of a webhook delivery) and looked up at each call: a name that resolves elsewhere now is judged by
 * its new addresses. It answers without a promise when it can: the host is an address, or `lookup`
 * (`cachedLookup`'s) holds a fresh answer for it; a refusal is then thrown synchronously.
 */
export function hostResolverNow(
	policy: AddressPolicy,
	lookup: Lookup,
): (host: string) => string | Promise<string> {
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
		if (addresses.length === 0) throw new AddressRefused('unresolved')
		let first: string | null = null
		for (const address of addresses) {
			const verdict = judge(address)
			if (verdict.kind === 'unparsable') throw new AddressRefused('unresolved')
			if (verdict.kind === 'internal' && !byName) throw new AddressRefused('internal')
			first ??= verdict.address
		}
		return first as string
	}
	const held = (lookup as Partial<CachedLookup>).known
	return (raw) => {
		// Parsed again when the list is another one (a test's configuration changes it).
		if (parsedFrom !== policy.allowedHosts) {
			parsedFrom = policy.allowedHosts
			cidrs = parsedFrom.map(parseCidr).filter((c): c is Cidr => c !== null)
			verdicts.clear()
		}
		const host = raw.toLowerCase()
		const byName = policy.allowedHosts.includes(host)
		if (isIP(host) !== 0) return pick([host], byName)
		const answer = held?.(host)
		if (answer !== undefined) return pick(addressesOf(answer), byName)
		let asked: ReturnType<Lookup>
		try {
			asked = lookup(host)
		} catch {
			throw new AddressRefused('unresolved')
		}
		return asked.then(
			(answer) => pick(addressesOf(answer), byName),
			() => {
				throw new AddressRefused('unresolved')
			},
		)
	}
}

const addressesOf = (answer: Awaited<ReturnType<Lookup>>): string[] => answer.map((a) => a.address)

/** Names remembered at most; past this the oldest are forgotten first. */
const LOOKUP_CACHE_SIZE = 1000

/**
 * `lookup` with each name's answer reused for `ttlMs` (the webhooks' deliverer's: one DNS query per
 * name and few seconds, not per attempt). Only the answer is reused: the resolver checks every
 * address against the rules at each call and the caller connects to the address checked. A failed
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

/** A `Lookup` whose fresh answers can be read without a promise (`hostResolverNow` does). */
export type CachedLookup = Lookup & {
	/** The answer held for `host` while fresh, else undefined (then call the lookup). */
	known(host: string): Awaited<ReturnType<Lookup>> | undefined
}
