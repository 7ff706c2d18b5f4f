import { isIP } from 'node:net'

/**
 * The client's address, the one thing every rate limit keys on. By default it is the socket's
 * peer. Behind reverse proxies (`TRUSTED_PROXIES`: addresses and CIDRs, IPv4 and IPv6), a request
 * whose peer is a trusted proxy names its client in `X-Forwarded-For` or RFC 7239 `Forwarded:
 * for=`: the hops are walked from the right (the nearest proxy appends last), trusted ones
 * skipped, and the first untrusted one is the client. What a client writes itself lies to the left
 * of what the proxies appended, so it is never reached while an untrusted hop stands in the way.
 *
 * Distrust wins every doubt: a peer that is not trusted, a header that does not parse (`unknown`,
 * an obfuscated name, a word, too many hops), or both headers present and naming different
 * clients (a proxy that sets one passes a forged other through): then the peer is the client.
 */

/** An address as 16 bytes (IPv4 as IPv4-mapped IPv6, so that `::ffff:10.0.0.1` is `10.0.0.1`). */
type Bytes = Uint8Array

export interface Cidr {
	bytes: Bytes
	/** Leading bits that must match, out of 128. */
	bits: number
}

const MAX_HOPS = 32
/** Peers remembered by one resolver; past this many, it starts again (a scan of addresses cannot grow it). */
const MAX_PEERS = 4096

/** A peer as the resolver knows it: its bytes, its canonical text, and whether it is a trusted proxy. */
interface Peer {
	bytes: Bytes
	text: string
	trusted: boolean
}

/** `1.2.3.4`, `::1`, `10.0.0.0/8`, `fd00::/8`: what `TRUSTED_PROXIES` may list. */
export function isAddressOrCidr(entry: string): boolean {
	return parseCidr(entry) !== null
}

export type ClientAddressOf = (peer: string | undefined, headers: Headers | (() => Headers)) => string

/**
 * The function of a deployment's `TRUSTED_PROXIES`: peer and headers (or how to get them) in, the client's address out
 * (in canonical form: IPv4 dotted, IPv6 compressed lower case), or `unknown` with no peer.
 */
export function clientAddressResolver(trustedProxies: readonly string[]): ClientAddressOf {
	const trusted = trustedProxies.map((entry) => {
		const cidr = parseCidr(entry)
		if (!cidr) throw new Error(`TRUSTED_PROXIES: '${entry}' is no address or CIDR`)
		return cidr
	})
	const isTrusted = (b: Bytes) => trusted.some((c) => inCidr(b, c))
	// Every request asks about its peer, and the peers are few: what a peer is, parsed once.
	const peers = new Map<string, Peer | null>()
	const peerOf = (text: string): Peer | null => {
		let known = peers.get(text)
		if (known === undefined) {
			const bytes = parseAddress(text)
			known = bytes
				? { bytes, text: formatAddress(bytes), trusted: trusted.length > 0 && isTrusted(bytes) }
				: null
			if (peers.size >= MAX_PEERS) peers.clear()
			peers.set(text, known)
		}
		return known
	}
	return (peer, headers) => {
		const known = peer === undefined ? null : peerOf(peer)
		if (!known) return peer === undefined ? 'unknown' : peer
		if (!known.trusted) return known.text
		const direct = known.bytes
		// Only a trusted proxy's request has its headers read (Bun makes them on first use).
		const all = typeof headers === 'function' ? headers() : headers
		const xff = all.get('x-forwarded-for')
		const fwd = all.get('forwarded')
		const fromXff = xff === null ? undefined : walk(splitXForwardedFor(xff), isTrusted)
		const fromFwd = fwd === null ? undefined : walk(splitForwarded(fwd), isTrusted)
		if (fromXff === null || fromFwd === null) return known.text
		if (fromXff && fromFwd && formatAddress(fromXff) !== formatAddress(fromFwd)) return known.text
		const client = fromXff ?? fromFwd
		return formatAddress(client ?? direct)
	}
}

/** What Bun's server (and src/platform/deno/serve.ts's stand-in) tells of a request's peer. */
export interface PeerSource {
	requestIP(request: Request): { address: string } | null
}

/** The resolver over a request as the routes have it: `clientAddress(server, request)`. */
export function clientAddressOf(trustedProxies: readonly string[]) {
	const resolve = clientAddressResolver(trustedProxies)
	return (server: PeerSource | null | undefined, request: Request): string =>
		resolve(server?.requestIP(request)?.address, () => request.headers)
}

/** The rightmost untrusted hop (or the leftmost when all are trusted); null when a hop is no address. */
function walk(hops: Array<string | null> | null, isTrusted: (b: Bytes) => boolean): Bytes | null | undefined {
	if (hops === null || hops.length === 0 || hops.length > MAX_HOPS) return null
	let last: Bytes | undefined
	for (let i = hops.length - 1; i >= 0; i--) {
		const hop = hops[i]
		const bytes = hop === null || hop === undefined ? null : parseHop(hop)
		if (!bytes) return null
		if (!isTrusted(bytes)) return bytes
		last = bytes
	}
	return last
}

function splitXForwardedFor(value: string): string[] | null {
	if (value.length > 4096) return null
	return value.split(',').map((h) => h.trim())
}

/** `for=` of each element of `Forwarded` (elements by comma, pairs by semicolon); null when one has none. */
function splitForwarded(value: string): Array<string | null> | null {
	if (value.length > 4096) return null
	return value.split(',').map((element) => {
		for (const pair of element.split(';')) {
			const eq = pair.indexOf('=')
			if (eq < 0) continue
			if (pair.slice(0, eq).trim().toLowerCase() !== 'for') continue
			let v = pair.slice(eq + 1).trim()
			if (v.startsWith('"')) {
				if (!v.endsWith('"') || v.length < 2) return null
				v = v.slice(1, -1)
			}
			return v
		}
		return null
	})
}

/** One hop: an address, with or without a port (`1.2.3.4:80`, `[::1]:80`, `[::1]`). */
function parseHop(hop: string): Bytes | null {
	const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(hop)
	if (bracketed) return isIP(bracketed[1] ?? '') === 6 ? parseAddress(bracketed[1] ?? '') : null
	const v4port = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(hop)
	if (v4port) return parseAddress(v4port[1] ?? '')
	return parseAddress(hop)
}

export function parseCidr(entry: string): Cidr | null {
	const slash = entry.indexOf('/')
	const text = slash < 0 ? entry : entry.slice(0, slash)
	const family = isIP(text)
	const bytes = parseAddress(text)
	if (!bytes || family === 0) return null
	const max = family === 4 ? 32 : 128
	let prefix = max
	if (slash >= 0) {
		const p = entry.slice(slash + 1)
		if (!/^\d{1,3}$/.test(p) || Number(p) > max) return null
		prefix = Number(p)
	}
	// An IPv4 prefix counts within the mapped form's last 32 bits.
	return { bytes, bits: family === 4 ? 96 + prefix : prefix }
}

export function inCidr(b: Bytes, c: Cidr): boolean {
	const whole = c.bits >> 3
	for (let i = 0; i < whole; i++) if (b[i] !== c.bytes[i]) return false
	const rest = c.bits & 7
	if (rest === 0) return true
	const mask = (0xff << (8 - rest)) & 0xff
	return ((b[whole] ?? 0) & mask) === ((c.bytes[whole] ?? 0) & mask)
}

/** IPv4 or IPv6 text (no zone, no brackets) as 16 bytes; null when it is neither. */
export function parseAddress(text: string): Bytes | null {
	const family = isIP(text)
	if (family === 4) return mapped(text)
	if (family !== 6 || text.includes('%')) return null
	let head = text
	let tail: number[] = []
	// An IPv4 tail (`::ffff:1.2.3.4`) is two groups.
	const v4 = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text)
	if (v4) {
		const four = (v4[1] ?? '').split('.').map(Number)
		tail = [((four[0] ?? 0) << 8) | (four[1] ?? 0), ((four[2] ?? 0) << 8) | (four[3] ?? 0)]
		head = text.slice(0, -(v4[1] ?? '').length)
		if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1)
	}
	const [left = '', right] = head.split('::')
	const groups = (s: string) => (s === '' ? [] : s.split(':').map((g) => Number.parseInt(g, 16)))
	const l = groups(left)
	const r = right === undefined ? [] : groups(right)
	const fill = 8 - l.length - r.length - tail.length
	const all = [...l, ...Array(right === undefined ? 0 : fill).fill(0), ...r, ...tail]
	if (all.length !== 8) return null
	const out = new Uint8Array(16)
	all.forEach((g, i) => {
		out[2 * i] = g >> 8
		out[2 * i + 1] = g & 0xff
	})
	return out
}

function mapped(v4: string): Bytes {
	const out = new Uint8Array(16)
	out[10] = 0xff
	out[11] = 0xff
	v4.split('.').forEach((p, i) => {
		out[12 + i] = Number(p)
	})
	return out
}

/** IPv4 (and IPv4-mapped IPv6) as dotted quads; IPv6 compressed, lower case (RFC 5952). */
export function formatAddress(b: Bytes): string {
	if (b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff) return b.slice(12).join('.')
	const groups = Array.from({ length: 8 }, (_, i) => ((b[2 * i] ?? 0) << 8) | (b[2 * i + 1] ?? 0))
	// The longest run of two or more zero groups (the first of equals) becomes `::`.
	let best = -1
	let bestLen = 1
	for (let i = 0; i < 8; ) {
		if (groups[i] !== 0) {
			i++
			continue
		}
		let j = i
		while (j < 8 && groups[j] === 0) j++
		if (j - i > bestLen) {
			best = i
			bestLen = j - i
		}
		i = j
	}
	const hex = groups.map((g) => g.toString(16))
	if (best < 0) return hex.join(':')
	return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`
}
