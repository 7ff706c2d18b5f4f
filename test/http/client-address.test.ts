import { describe, expect, it } from 'bun:test'
import {
	clientAddressResolver,
	formatAddress,
	isAddressOrCidr,
	parseAddress,
} from '../../src/server/http/client-address'

const headers = (h: Record<string, string>) => new Headers(h)

describe('isAddressOrCidr (what TRUSTED_PROXIES may list)', () => {
	it('takes IPv4 and IPv6 addresses and CIDRs', () => {
		for (const ok of [
			'10.0.0.1',
			'10.0.0.0/8',
			'0.0.0.0/0',
			'::1',
			'fd00::/8',
			'2001:db8::/32',
			'::ffff:10.0.0.1',
			'::/0',
		])
			expect([ok, isAddressOrCidr(ok)]).toEqual([ok, true])
	})

	it('refuses anything else', () => {
		for (const bad of [
			'',
			'localhost',
			'10.0.0',
			'10.0.0.256',
			'10.0.0.0/33',
			'::1/129',
			'fe80::1%eth0',
			'10.0.0.0/',
			'10.0.0.0/8/8',
			'1.2.3.4 ',
			'[::1]',
			'::1/-1',
			':::1',
		])
			expect([bad, isAddressOrCidr(bad)]).toEqual([bad, false])
	})
})

describe('parseAddress and formatAddress', () => {
	it('reads IPv4-mapped IPv6 as the IPv4 address it is', () => {
		expect(formatAddress(parseAddress('::ffff:203.0.113.7') as Uint8Array)).toBe('203.0.113.7')
		expect(formatAddress(parseAddress('::FFFF:cb00:7107') as Uint8Array)).toBe('203.0.113.7')
	})

	it('writes IPv6 compressed and in lower case', () => {
		expect(formatAddress(parseAddress('2001:0DB8:0000:0000:0000:0000:0000:0001') as Uint8Array)).toBe(
			'2001:db8::1',
		)
		expect(formatAddress(parseAddress('2001:db8:0:1:0:0:0:1') as Uint8Array)).toBe('2001:db8:0:1::1')
		expect(formatAddress(parseAddress('::') as Uint8Array)).toBe('::')
		expect(formatAddress(parseAddress('1:2:3:4:5:6:7:8') as Uint8Array)).toBe('1:2:3:4:5:6:7:8')
	})
})

describe('clientAddressResolver', () => {
	const behindProxy = clientAddressResolver(['10.0.0.0/8', '2001:db8:1::/48'])

	it('is the peer when no proxy is trusted, whatever the headers say', () => {
		const none = clientAddressResolver([])
		expect(none('203.0.113.7', headers({ 'x-forwarded-for': '198.51.100.1' }))).toBe('203.0.113.7')
		expect(none('::ffff:203.0.113.7', headers({}))).toBe('203.0.113.7')
		expect(none(undefined, headers({ 'x-forwarded-for': '198.51.100.1' }))).toBe('unknown')
	})

	it('remembers what a peer is, never what a trusted peer forwarded; reads no header of an untrusted one', () => {
		const r = clientAddressResolver(['10.0.0.0/8'])
		// The same trusted proxy, asked twice with other headers: each answer is its own request's.
		expect(r('10.0.0.2', headers({ 'x-forwarded-for': '198.51.100.1' }))).toBe('198.51.100.1')
		expect(r('10.0.0.2', headers({ 'x-forwarded-for': '198.51.100.2' }))).toBe('198.51.100.2')
		expect(r('10.0.0.2', headers({}))).toBe('10.0.0.2')
		let read = 0
		const lazy = () => {
			read++
			return headers({ 'x-forwarded-for': '198.51.100.3' })
		}
		expect(r('203.0.113.7', lazy)).toBe('203.0.113.7')
		expect(r('203.0.113.7', lazy)).toBe('203.0.113.7')
		expect(read).toBe(0)
		expect(r('10.0.0.3', lazy)).toBe('198.51.100.3')
		expect(read).toBe(1)
		// Past the resolver's memory of peers, it still answers each alike.
		for (let i = 0; i < 5000; i++) r(`192.0.2.${i % 250}`, lazy)
		for (let i = 1; i <= 5000; i++)
			expect(r(`2001:db8::${i.toString(16)}`, lazy)).toBe(`2001:db8::${i.toString(16)}`)
		expect(r('10.0.0.2', headers({ 'x-forwarded-for': '198.51.100.4' }))).toBe('198.51.100.4')
	})

	it('ignores a forged header from a peer that is not trusted', () => {
		expect(behindProxy('203.0.113.7', headers({ 'x-forwarded-for': '198.51.100.1' }))).toBe('203.0.113.7')
		expect(behindProxy('203.0.113.7', headers({ forwarded: 'for=198.51.100.1' }))).toBe('203.0.113.7')
	})

	it('takes the rightmost untrusted hop from a trusted peer, skipping trusted hops', () => {
		expect(behindProxy('10.0.0.2', headers({ 'x-forwarded-for': '198.51.100.1' }))).toBe('198.51.100.1')
		// The client forged a first entry; the proxies appended the real one and their own.
		expect(behindProxy('10.0.0.2', headers({ 'x-forwarded-for': '1.1.1.1, 198.51.100.1, 10.1.2.3' }))).toBe(
			'198.51.100.1',
		)
		// The CIDR bound: 11.0.0.1 is outside 10.0.0.0/8, so it is the client.
		expect(behindProxy('10.0.0.2', headers({ 'x-forwarded-for': '198.51.100.1, 11.0.0.1' }))).toBe('11.0.0.1')
	})

	it('reads IPv6 hops and peers, and IPv4-mapped peers, against IPv4 and IPv6 CIDRs', () => {
		expect(behindProxy('::ffff:10.9.9.9', headers({ 'x-forwarded-for': '2001:db8:2::5' }))).toBe(
			'2001:db8:2::5',
		)
		expect(behindProxy('2001:db8:1:ffff::1', headers({ 'x-forwarded-for': '198.51.100.1' }))).toBe(
			'198.51.100.1',
		)
		expect(behindProxy('2001:db8:2::1', headers({ 'x-forwarded-for': '198.51.100.1' }))).toBe('2001:db8:2::1')
		expect(behindProxy('10.0.0.2', headers({ 'x-forwarded-for': '::ffff:198.51.100.1' }))).toBe(
			'198.51.100.1',
		)
		expect(behindProxy('10.0.0.2', headers({ 'x-forwarded-for': '[2001:db8:2::5]:443' }))).toBe(
			'2001:db8:2::5',
		)
		expect(behindProxy('10.0.0.2', headers({ 'x-forwarded-for': '198.51.100.1:5555' }))).toBe('198.51.100.1')
	})

	it('reads RFC 7239 Forwarded: for=, quoted, bracketed, with other pairs', () => {
		expect(
			behindProxy(
				'10.0.0.2',
				headers({
					forwarded: 'for=1.1.1.1, for="[2001:db8:cafe::17]:4711";proto=https, For=10.3.3.3;by=10.0.0.2',
				}),
			),
		).toBe('2001:db8:cafe::17')
	})

	it('believes both headers only when they name the same client', () => {
		const same = headers({ 'x-forwarded-for': '198.51.100.1', forwarded: 'for=198.51.100.1' })
		expect(behindProxy('10.0.0.2', same)).toBe('198.51.100.1')
		// A proxy that sets one passes a forged other through: neither is believed.
		const forged = headers({ 'x-forwarded-for': '198.51.100.1', forwarded: 'for=192.0.2.66' })
		expect(behindProxy('10.0.0.2', forged)).toBe('10.0.0.2')
	})

	it('falls back to the peer on a header it cannot read', () => {
		const garbage = [
			'',
			'not-an-address',
			'198.51.100.1, unknown',
			'198.51.100.1,',
			'198.51.100.1; 10.0.0.3',
			'999.1.1.1',
			'fe80::1%eth0',
			'[198.51.100.1]',
			Array(40).fill('198.51.100.1').join(','),
			'1'.repeat(5000),
		]
		for (const value of garbage)
			expect([value.slice(0, 40), behindProxy('10.0.0.2', headers({ 'x-forwarded-for': value }))]).toEqual([
				value.slice(0, 40),
				'10.0.0.2',
			])
		for (const value of [
			'for=unknown',
			'for=_hidden',
			'proto=https',
			'for="198.51.100.1',
			'for=198.51.100.1, by=10.0.0.1',
		])
			expect([value, behindProxy('10.0.0.2', headers({ forwarded: value }))]).toEqual([value, '10.0.0.2'])
	})

	it('takes the leftmost hop when every hop is a trusted proxy', () => {
		expect(behindProxy('10.0.0.2', headers({ 'x-forwarded-for': '10.5.5.5, 10.6.6.6' }))).toBe('10.5.5.5')
	})

	it('refuses to be built on a list entry that is no address', () => {
		expect(() => clientAddressResolver(['nginx'])).toThrow("TRUSTED_PROXIES: 'nginx' is no address or CIDR")
	})
})
