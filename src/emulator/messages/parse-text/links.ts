import { isIPv6 } from 'node:net'
import {
	type Entity,
	fromBinary,
	isAlnum,
	isHexDigit,
	isSpace,
	toInt32Safe,
	toInt64Safe,
	toLower,
} from './text'

/** tdutils' `parse_url` and LinkManager's link checks, on binary strings (one char a byte). */

interface HttpUrl {
	https: boolean
	userinfo: string
	host: string
	isIpv6: boolean
	specifiedPort: number
	query: string
}

export class LinkError extends Error {}
const bad = (message: string): never => {
	throw new LinkError(message)
}

const URL_PART_OK = new Set(".-_!$,~*'();&+=")
function checkUrlPart(part: string, name: string, allowColon: boolean) {
	for (let i = 0; i < part.length; i++) {
		let c = part.charCodeAt(i)
		if (isAlnum(c) || URL_PART_OK.has(part[i] as string) || (allowColon && part[i] === ':')) continue
		if (part[i] === '%') {
			c = part.charCodeAt(++i) || 0
			if (isHexDigit(c)) {
				c = part.charCodeAt(++i) || 0
				if (isHexDigit(c)) continue
			}
			bad(`Wrong percent-encoded symbol in URL ${name}`)
		}
		if (c >= 128) continue
		bad(`Disallowed character in URL ${name}`)
	}
}

/** `parse_url(url)` with HTTP the default protocol. */
function parseUrl(url: string): HttpUrl {
	let pos = 0
	const stop = (chars: string) => {
		let end = pos
		while (end < url.length && !chars.includes(url[end] as string)) end++
		return end
	}
	let end = stop(':/?#@[]')
	const protocolStr = toLower(url.slice(0, end))
	let https = false
	if (url.startsWith('://', end)) {
		if (protocolStr === 'http') https = false
		else if (protocolStr === 'https') https = true
		else bad('Unsupported URL protocol')
		pos = end + 3
	} else {
		pos = 0
	}
	end = stop('/?#')
	const userinfoHostPort = url.slice(pos, end)
	pos = end
	let port = 0
	let colon = userinfoHostPort.length - 1
	while (colon > 0 && !':]@'.includes(userinfoHostPort[colon] as string)) colon--
	let userinfoHost = userinfoHostPort
	if (colon > 0 && userinfoHostPort[colon] === ':') {
		let portSlice = userinfoHostPort.slice(colon + 1)
		while (portSlice.length > 1 && portSlice[0] === '0') portSlice = portSlice.slice(1)
		const p = toInt32Safe(portSlice)
		port = p === undefined || p === 0 ? -1 : p
		userinfoHost = userinfoHostPort.slice(0, colon)
	}
	if (port < 0 || port > 65535) bad('Wrong port number specified in the URL')
	const at = userinfoHost.lastIndexOf('@')
	const userinfo = at === -1 ? '' : userinfoHost.slice(0, at)
	const host = userinfoHost.slice(at + 1)
	let isIpv6 = false
	if (host.length > 0 && host[0] === '[' && host[host.length - 1] === ']') {
		if (!isIPv6(host.slice(1, -1))) bad('Wrong IPv6 address specified in the URL')
		isIpv6 = true
	}
	if (host === '') bad('URL host is empty')
	if (host === '.') bad('Host is invalid')
	let query = url.slice(pos)
	while (query.length > 0 && isSpace(query.charCodeAt(query.length - 1))) query = query.slice(0, -1)
	if (query === '') query = '/'
	let queryStr = query[0] === '/' ? '' : '/'
	for (const c of query) {
		const code = c.charCodeAt(0)
		queryStr += code <= 0x20 ? `%${'0123456789ABCDEF'[code >> 4]}${'0123456789ABCDEF'[code & 15]}` : c
	}
	const hostStr = toLower(host)
	if (isIpv6) {
		for (let i = 1; i + 1 < hostStr.length; i++) {
			if (!/[0-9a-f:.]/.test(hostStr[i] as string)) bad('Wrong IPv6 URL host')
		}
	} else {
		checkUrlPart(hostStr, 'host', false)
		checkUrlPart(userinfo, 'userinfo', true)
	}
	return { https, userinfo, host: hostStr, isIpv6, specifiedPort: port, query: queryStr }
}

const lowerStarts = (s: string, prefix: string) => toLower(s.slice(0, prefix.length)) === prefix

/** LinkManager::get_checked_link: the link as TDLib rewrites it, or '' when it is no valid link. */
export function checkedLink(link: string): string {
	try {
		let is = ''
		for (const scheme of ['tg', 'ton', 'tonsite']) {
			if (lowerStarts(link, `${scheme}:`)) {
				link = link.slice(scheme.length + 1)
				is = scheme
				break
			}
		}
		if (is && link.startsWith('//')) link = link.slice(2)
		const url = parseUrl(link)
		if (is) {
			if (lowerStarts(link, 'http://') || url.https || url.userinfo || url.specifiedPort !== 0 || url.isIpv6)
				bad(is === 'tg' ? 'Wrong tg URL' : 'Wrong ton URL')
			let query = url.query
			if (query.length > 1 && query[1] === '?') query = query.slice(1)
			for (const c of url.host) {
				if (!isAlnum(c.charCodeAt(0)) && c !== '-' && c !== '_' && !(is === 'tonsite' && c === '.'))
					bad('Unallowed characters in URL host')
			}
			return `${is}://${url.host}${query}`
		}
		if (!url.host.includes('.') && !url.isIpv6) bad('Wrong HTTP URL')
		return `${url.https ? 'https://' : 'http://'}${url.userinfo ? `${url.userinfo}@` : ''}${url.host}${
			url.specifiedPort > 0 ? `:${url.specifiedPort}` : ''
		}${url.query}`
	} catch (err) {
		if (err instanceof LinkError) return ''
		throw err
	}
}

/** The query of a `tg://<host>?...` link (LinkManager::check_tg_url_host), or an error. */
export function tgQuery(url: string, host: string): string {
	let lower = toLower(url)
	if (!lower.startsWith('tg:')) bad('URL must have scheme tg')
	lower = lower.slice(3)
	url = url.slice(3)
	if (url.startsWith('//')) {
		lower = lower.slice(2)
		url = url.slice(2)
	}
	if (!lower.startsWith(host) || (url.length > host.length && !'/?#'.includes(url[host.length] as string)))
		bad(`URL must have host "${host}"`)
	url = url.slice(host.length)
	if (url.startsWith('/')) url = url.slice(1)
	if (!url.startsWith('?')) bad('URL must have parameters')
	url = url.slice(1)
	const hash = url.indexOf('#')
	return hash === -1 ? url : url.slice(0, hash)
}

const parameters = (query: string) =>
	query.split('&').map((p) => {
		const eq = p.indexOf('=')
		return eq === -1 ? [p, ''] : [p.slice(0, eq), p.slice(eq + 1)]
	})

/** LinkManager::get_link_user_id: the user of a `tg://user?id=` link (valid: 1 to 2^40 - 1). */
export function linkUserId(url: string): number | undefined {
	try {
		const query = tgQuery(toLower(url), 'user')
		for (const [key, value] of parameters(query)) {
			if (key !== 'id') continue
			const id = toInt64Safe(value as string)
			return id !== undefined && id > 0n && id < 2n ** 40n ? Number(id) : undefined
		}
	} catch (err) {
		if (!(err instanceof LinkError)) throw err
	}
	return undefined
}

/** LinkManager::get_link_custom_emoji_id; its error, or the emoji's id. */
export function linkCustomEmojiId(url: string): string {
	const query = tgQuery(url, 'emoji')
	for (const [key, value] of parameters(query)) {
		if (key !== 'id') continue
		const id = toInt64Safe(value as string)
		if (id === undefined || id === 0n) bad('Invalid custom emoji identifier specified')
		return String(id)
	}
	return bad('Custom emoji URL must have an emoji identifier')
}

/** What `[text](url)` and `<a href>` make: a mention of a user, a text URL, or nothing. */
export function linkEntity(url: string, offset: number, length: number): Entity | undefined {
	const userId = linkUserId(url)
	if (userId !== undefined) return { type: 'MentionName', offset, length, userId }
	const checked = checkedLink(url)
	return checked ? { type: 'TextUrl', offset, length, argument: fromBinary(checked) } : undefined
}
