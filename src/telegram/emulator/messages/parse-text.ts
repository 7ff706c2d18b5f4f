import { isIPv6 } from 'node:net'
import type * as Td from 'tdlib-types'

/**
 * TDLib 1.8.65's `parseTextEntities` (td/telegram/SynchronousRequests.cpp), its parsers ported from
 * td/telegram/MessageEntity.cpp (`parse_html`, `parse_markdown`, `parse_markdown_v2`) and the link
 * checks of td/telegram/LinkManager.cpp and tdutils' `parse_url`. They work as TDLib's do: on the
 * text's UTF-8 bytes, in place (the text is rewritten into the same buffer as it is read, which
 * shows in a few of TDLib's answers, e.g. Markdown's `[text]` without a URL), with byte offsets in
 * the errors and UTF-16 offsets in the entities. test/telegram/emulator-parity.test.ts holds it to
 * real TDLib. Not ported: `tg-time` / `tg://time` dates (the emulator refuses them in its own words).
 */

/** An entity before it is a TDLib object: TDLib's MessageEntity::Type by name, its argument. */
interface Entity {
	type: EntityType
	offset: number
	length: number
	argument?: string
	userId?: number
	customEmojiId?: string
}

type EntityType =
	| 'Bold'
	| 'Italic'
	| 'Code'
	| 'Pre'
	| 'PreCode'
	| 'TextUrl'
	| 'MentionName'
	| 'Underline'
	| 'Strikethrough'
	| 'BlockQuote'
	| 'Spoiler'
	| 'CustomEmoji'
	| 'ExpandableBlockQuote'

/** MessageEntity::get_type_priority: the order of entities that start and end together. */
const PRIORITY: Record<EntityType, number> = {
	Bold: 90,
	Italic: 91,
	Code: 20,
	Pre: 11,
	PreCode: 10,
	TextUrl: 49,
	MentionName: 49,
	Underline: 92,
	Strikethrough: 93,
	BlockQuote: 0,
	Spoiler: 94,
	CustomEmoji: 99,
	ExpandableBlockQuote: 0,
}

/** A parse error: TDLib's words, which `parseTextEntities` prefixes with "Can't parse entities: ". */
class ParseError extends Error {}
const refuse = (message: string): never => {
	throw new ParseError(message)
}

/** The text as TDLib holds it: its bytes, read as a C string (0 past the end), rewritten in place. */
class Buffer {
	readonly bytes: Uint8Array
	readonly size: number
	constructor(text: string) {
		const encoded = new TextEncoder().encode(text)
		this.size = encoded.length
		this.bytes = new Uint8Array(encoded.length + 8)
		this.bytes.set(encoded)
	}
	at(i: number): number {
		return i >= 0 && i < this.bytes.length ? (this.bytes[i] as number) : 0
	}
	set(i: number, byte: number) {
		this.bytes[i] = byte
	}
	/** Bytes as a binary string (one char a byte), for the byte-wise link checks. */
	binary(from: number, to: number): string {
		let s = ''
		for (let i = from; i < to; i++) s += String.fromCharCode(this.at(i))
		return s
	}
	text(size: number): string {
		return new TextDecoder().decode(this.bytes.subarray(0, size))
	}
}

const fromBinary = (s: string) => new TextDecoder().decode(Uint8Array.from(s, (c) => c.charCodeAt(0) & 0xff))
const ch = (c: string) => c.charCodeAt(0)
const isSpace = (c: number) => c === 32 || c === 9 || c === 13 || c === 10 || c === 0 || c === 11
const isDigit = (c: number) => c >= 48 && c <= 57
const isAlpha = (c: number) => {
	const l = c | 0x20
	return l >= 97 && l <= 122
}
const isAlnum = (c: number) => isDigit(c) || isAlpha(c)
const isHexDigit = (c: number) => isDigit(c) || ((c | 0x20) >= 97 && (c | 0x20) <= 102)
const hexToInt = (c: number) => (isDigit(c) ? c - 48 : (c | 0x20) - 87)
const isFirstCodeUnit = (c: number) => (c & 0xc0) !== 0x80
/** UTF-16 units of the character a first byte starts: 2 for a 4-byte one (a surrogate pair). */
const utf16Units = (c: number) => (c >= 0xf0 ? 2 : 1)
/** td::to_lower: ASCII letters only. */
const toLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase())

/** td::to_integer_safe<int64>: the digits must print back as they were written. */
function toInt64Safe(s: string): bigint | undefined {
	if (!/^-?\d+$/.test(s)) return undefined
	const n = BigInt(s)
	if (n > 9223372036854775807n || n < -9223372036854775808n || n.toString() !== s) return undefined
	return n
}

function toInt32Safe(s: string): number | undefined {
	const n = toInt64Safe(s)
	return n !== undefined && n <= 2147483647n && n >= -2147483648n ? Number(n) : undefined
}

// ---- tdutils' parse_url and LinkManager's link checks, on binary strings ----

interface HttpUrl {
	https: boolean
	userinfo: string
	host: string
	isIpv6: boolean
	specifiedPort: number
	query: string
}

class LinkError extends Error {}
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
function checkedLink(link: string): string {
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
function tgQuery(url: string, host: string): string {
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
function linkUserId(url: string): number | undefined {
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
function linkCustomEmojiId(url: string): string {
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
function linkEntity(url: string, offset: number, length: number): Entity | undefined {
	const userId = linkUserId(url)
	if (userId !== undefined) return { type: 'MentionName', offset, length, userId }
	const checked = checkedLink(url)
	return checked ? { type: 'TextUrl', offset, length, argument: fromBinary(checked) } : undefined
}

const DATES_NOT_EMULATED = 'emulator: dates (tg-time, tg://time) are not emulated'

function sortEntities(entities: Entity[]) {
	entities.sort((a, b) =>
		a.offset !== b.offset
			? a.offset - b.offset
			: a.length !== b.length
				? b.length - a.length
				: PRIORITY[a.type] - PRIORITY[b.type],
	)
}

// ---- parse_markdown (version 0 and 1) ----

function parseMarkdown(t: Buffer): { size: number; entities: Entity[] } {
	let resultSize = 0
	const entities: Entity[] = []
	const size = t.size
	let utf16 = 0
	for (let i = 0; i < size; i++) {
		const c = t.at(i)
		const next = t.at(i + 1)
		if (c === ch('\\') && (next === ch('_') || next === ch('*') || next === ch('`') || next === ch('['))) {
			i++
			t.set(resultSize++, t.at(i))
			utf16++
			continue
		}
		if (c !== ch('_') && c !== ch('*') && c !== ch('`') && c !== ch('[')) {
			if (isFirstCodeUnit(c)) utf16 += utf16Units(c)
			t.set(resultSize++, c)
			continue
		}
		const beginPos = i
		const endCharacter = c === ch('[') ? ch(']') : c
		let isPre = false
		i++
		let language = ''
		if (c === ch('`') && t.at(i) === ch('`') && t.at(i + 1) === ch('`')) {
			i += 2
			isPre = true
			let languageEnd = i
			while (!isSpace(t.at(languageEnd)) && t.at(languageEnd) !== ch('`')) languageEnd++
			if (i !== languageEnd && languageEnd < size && t.at(languageEnd) !== ch('`')) {
				language = t.binary(i, languageEnd)
				i = languageEnd
			}
			i = skipOneNewLine(t, i)
		}
		const entityOffset = utf16
		while (
			i < size &&
			(t.at(i) !== endCharacter || (isPre && !(t.at(i + 1) === ch('`') && t.at(i + 2) === ch('`'))))
		) {
			const cur = t.at(i)
			if (isFirstCodeUnit(cur)) utf16 += utf16Units(cur)
			t.set(resultSize++, t.at(i++))
		}
		if (i === size) refuse(`Can't find end of the entity starting at byte offset ${beginPos}`)
		if (entityOffset !== utf16) {
			const length = utf16 - entityOffset
			if (c === ch('_')) entities.push({ type: 'Italic', offset: entityOffset, length })
			else if (c === ch('*')) entities.push({ type: 'Bold', offset: entityOffset, length })
			else if (c === ch('[')) {
				let url = ''
				if (t.at(i + 1) !== ch('(')) {
					url = t.binary(beginPos + 1, i)
				} else {
					i += 2
					while (i < size && t.at(i) !== ch(')')) url += String.fromCharCode(t.at(i++))
				}
				const entity = linkEntity(url, entityOffset, length)
				if (entity) entities.push(entity)
			} else if (isPre) {
				entities.push(
					language
						? { type: 'PreCode', offset: entityOffset, length, argument: fromBinary(language) }
						: { type: 'Pre', offset: entityOffset, length },
				)
			} else {
				entities.push({ type: 'Code', offset: entityOffset, length })
			}
		}
		if (isPre) i += 2
	}
	return { size: resultSize, entities }
}

/** Skips one new line at the start of a pre block (\n, \r, \r\n or \n\r). */
function skipOneNewLine(t: Buffer, i: number): number {
	const c = t.at(i)
	if (c !== 10 && c !== 13) return i
	const next = t.at(i + 1)
	return (next === 10 || next === 13) && c !== next ? i + 2 : i + 1
}

// ---- parse_markdown_v2 ----

interface Nested {
	type: EntityType
	argument: string
	offset: number
	byteOffset: number
	beginPos: number
}

const reserved = (c: number) =>
	`Character '${String.fromCharCode(c)}' is reserved and must be escaped with the preceding '\\'`

function parseMarkdownV2(t: Buffer): { size: number; entities: Entity[] } {
	let resultSize = 0
	const entities: Entity[] = []
	let utf16 = 0
	const nested: Nested[] = []
	let haveBlockquote = false
	let canStartBlockquote = true
	const size = t.size
	const endOf = (n: Nested) => `Can't find end of ${n.type} entity at byte offset ${n.byteOffset}`
	for (let i = 0; i < size; i++) {
		const c = t.at(i)
		if (c === ch('\\') && t.at(i + 1) > 0 && t.at(i + 1) <= 126) {
			i++
			utf16 += 1
			t.set(resultSize++, t.at(i))
			if (t.at(i) !== 13) canStartBlockquote = t.at(i) === 10
			continue
		}
		const back = nested[nested.length - 1]
		const inCode = back?.type === 'Code' || back?.type === 'Pre' || back?.type === 'PreCode'
		const reservedChars = inCode ? '`' : '_*[]()~`>#+-=|{}.!\n'
		if (c === 0 || !reservedChars.includes(String.fromCharCode(c))) {
			if (isFirstCodeUnit(c)) {
				utf16 += utf16Units(c)
				if (c !== 13) canStartBlockquote = false
			}
			t.set(resultSize++, c)
			continue
		}
		const next = t.at(i + 1)
		const isEnd = (() => {
			if (!back) return false
			if (haveBlockquote && c === 10 && (i + 1 === size || next !== ch('>'))) return true
			switch (back.type) {
				case 'Bold':
					return c === ch('*')
				case 'Italic':
					return c === ch('_') && next !== ch('_')
				case 'Code':
					return c === ch('`')
				case 'Pre':
				case 'PreCode':
					return c === ch('`') && next === ch('`') && t.at(i + 2) === ch('`')
				case 'TextUrl':
					return c === ch(']')
				case 'Underline':
					return c === ch('_') && next === ch('_')
				case 'Strikethrough':
					return c === ch('~')
				case 'Spoiler':
					return c === ch('|') && next === ch('|')
				case 'CustomEmoji':
					return c === ch(']')
				default:
					return false
			}
		})()
		if (!isEnd) {
			let type: EntityType | undefined
			let argument = ''
			const byteOffset = i
			switch (String.fromCharCode(c)) {
				case '_':
					if (next === ch('_')) {
						type = 'Underline'
						i++
					} else type = 'Italic'
					break
				case '*':
					type = 'Bold'
					break
				case '~':
					type = 'Strikethrough'
					break
				case '|':
					if (next !== ch('|')) refuse(reserved(c))
					i++
					type = 'Spoiler'
					break
				case '[':
					type = 'TextUrl'
					break
				case '`':
					if (next === ch('`') && t.at(i + 2) === ch('`')) {
						i += 3
						type = 'Pre'
						let languageEnd = i
						while (!isSpace(t.at(languageEnd)) && t.at(languageEnd) !== ch('`')) languageEnd++
						if (i !== languageEnd && languageEnd < size && t.at(languageEnd) !== ch('`')) {
							type = 'PreCode'
							argument = fromBinary(t.binary(i, languageEnd))
							i = languageEnd
						}
						i = skipOneNewLine(t, i)
						i--
					} else type = 'Code'
					break
				case '!':
					if (next !== ch('[')) refuse(reserved(c))
					i++
					type = 'CustomEmoji'
					break
				case '\n':
					utf16 += 1
					t.set(resultSize++, 10)
					canStartBlockquote = true
					break
				case '>':
					if (!canStartBlockquote) refuse(reserved(c))
					if (!haveBlockquote) {
						type = 'BlockQuote'
						haveBlockquote = true
					}
					break
				default:
					refuse(reserved(c))
			}
			if (type === undefined) continue
			nested.push({ type, argument, offset: utf16, byteOffset, beginPos: resultSize })
			continue
		}
		// the end of an entity
		let top = back as Nested
		let type = top.type
		if (c === 10 && type !== 'BlockQuote') {
			const justOpenedSpoiler =
				top.byteOffset === i - 2 ||
				(top.byteOffset === i - 3 && resultSize !== 0 && t.at(resultSize - 1) === 13)
			if (type !== 'Spoiler' || !justOpenedSpoiler) refuse(endOf(top))
			nested.pop()
			top = nested[nested.length - 1] as Nested
			if (top.type !== 'BlockQuote') refuse(endOf(top))
			type = 'ExpandableBlockQuote'
		}
		let argument = top.argument
		let userId: number | undefined
		let customEmojiId: string | undefined
		let skip = utf16 === top.offset
		switch (type) {
			case 'Underline':
			case 'Spoiler':
				i++
				break
			case 'Pre':
			case 'PreCode':
				i += 2
				break
			case 'TextUrl': {
				let url = ''
				if (t.at(i + 1) !== ch('(')) {
					url = t.binary(top.beginPos, resultSize)
				} else {
					i += 2
					const begin = i
					url = readUrl(t, i)
					i += urlBytes(t, i)
					if (t.at(i) !== ch(')')) refuse(`Can't find end of a URL at byte offset ${begin}`)
				}
				userId = linkUserId(url)
				if (userId === undefined) {
					const checked = checkedLink(url)
					if (checked === '') skip = true
					else argument = fromBinary(checked)
				}
				break
			}
			case 'CustomEmoji': {
				if (t.at(i + 1) !== ch('(')) refuse('The entity must contain a tg://emoji or tg://time URL')
				i += 2
				const begin = i
				const url = readUrl(t, i)
				i += urlBytes(t, i)
				if (t.at(i) !== ch(')')) refuse(`Can't find end of a URL at byte offset ${begin}`)
				try {
					customEmojiId = linkCustomEmojiId(url)
				} catch (err) {
					if (!(err instanceof LinkError)) throw err
					let isDate = false
					try {
						tgQuery(url, 'time')
						isDate = true
					} catch {}
					refuse(isDate ? DATES_NOT_EMULATED : 'Invalid tg://emoji or tg://time URL specified')
				}
				break
			}
			case 'BlockQuote':
			case 'ExpandableBlockQuote':
				haveBlockquote = false
				t.set(resultSize++, t.at(i))
				canStartBlockquote = true
				utf16 += 1
				skip = false
				break
			default:
				break
		}
		if (!skip) {
			const length = utf16 - top.offset
			if (userId !== undefined) entities.push({ type: 'MentionName', offset: top.offset, length, userId })
			else if (customEmojiId !== undefined)
				entities.push({ type: 'CustomEmoji', offset: top.offset, length, customEmojiId })
			else entities.push({ type, offset: top.offset, length, ...(argument ? { argument } : {}) })
		}
		nested.pop()
	}
	if (haveBlockquote) {
		let type: EntityType = 'BlockQuote'
		let top = nested[nested.length - 1] as Nested
		if (top.type === 'Spoiler' && top.byteOffset === size - 2) {
			nested.pop()
			top = nested[nested.length - 1] as Nested
			type = 'ExpandableBlockQuote'
		}
		if (top.type === 'BlockQuote') {
			const length = utf16 - top.offset
			if (length !== 0) entities.push({ type, offset: top.offset, length })
			nested.pop()
		}
	}
	const open = nested[nested.length - 1]
	if (open) refuse(endOf(open))
	sortEntities(entities)
	return { size: resultSize, entities }
}

/** `(url)` of MarkdownV2: up to `)`, a backslash escaping the next ASCII character. */
function readUrl(t: Buffer, i: number): string {
	let url = ''
	while (i < t.size && t.at(i) !== ch(')')) {
		if (t.at(i) === ch('\\') && t.at(i + 1) > 0 && t.at(i + 1) <= 126) {
			url += String.fromCharCode(t.at(i + 1))
			i += 2
			continue
		}
		url += String.fromCharCode(t.at(i++))
	}
	return url
}

/** How many bytes `readUrl` read from `i`. */
function urlBytes(t: Buffer, i: number): number {
	const start = i
	while (i < t.size && t.at(i) !== ch(')'))
		i += t.at(i) === ch('\\') && t.at(i + 1) > 0 && t.at(i + 1) <= 126 ? 2 : 1
	return i - start
}

// ---- parse_html ----

/** decode_html_entity: the code point of `&...;` at `pos` and where it ends, or 0. */
function decodeHtmlEntity(t: Buffer, pos: number): { code: number; end: number } {
	let endPos = pos + 1
	let res = 0
	if (t.at(pos + 1) === ch('#')) {
		endPos++
		if (t.at(pos + 2) === ch('x')) {
			endPos++
			while (isHexDigit(t.at(endPos))) res = (res * 16 + hexToInt(t.at(endPos++))) % 2 ** 32
		} else {
			while (isDigit(t.at(endPos))) res = (res * 10 + t.at(endPos++) - 48) % 2 ** 32
		}
		if (res === 0 || res >= 0x10ffff || endPos - pos >= 10) return { code: 0, end: pos }
	} else {
		while (isAlpha(t.at(endPos))) endPos++
		const name = t.binary(pos + 1, endPos)
		const named: Record<string, number> = { lt: 60, gt: 62, amp: 38, quot: 34 }
		res = named[name] ?? 0
		if (res === 0) return { code: 0, end: pos }
	}
	return { code: res, end: t.at(endPos) === ch(';') ? endPos + 1 : endPos }
}

/** append_utf8_character_unsafe: a code point's UTF-8 bytes (surrogates too, as TDLib writes them). */
function utf8Bytes(code: number): number[] {
	if (code <= 0x7f) return [code]
	if (code <= 0x7ff) return [0xc0 | (code >> 6), 0x80 | (code & 0x3f)]
	if (code <= 0xffff) return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
	return [
		0xf0 | (code >> 18),
		0x80 | ((code >> 12) & 0x3f),
		0x80 | ((code >> 6) & 0x3f),
		0x80 | (code & 0x3f),
	]
}

const HTML_TAGS = new Set([
	'a',
	'b',
	'strong',
	'i',
	'em',
	's',
	'strike',
	'del',
	'u',
	'ins',
	'tg-spoiler',
	'tg-emoji',
	'tg-time',
	'span',
	'pre',
	'code',
	'blockquote',
])

interface OpenTag {
	tag: string
	argument: string
	offset: number
	beginPos: number
}

function parseHtml(t: Buffer): { size: number; entities: Entity[] } {
	const size = t.size
	let out = 0
	const entities: Entity[] = []
	let utf16 = 0
	let recheckUtf8 = false
	const nested: OpenTag[] = []
	const write = (bytes: number[]) => {
		for (const b of bytes) t.set(out++, b)
	}
	for (let i = 0; i < size; i++) {
		const c = t.at(i)
		if (c === ch('&')) {
			const { code, end } = decodeHtmlEntity(t, i)
			if (code !== 0) {
				i = end - 1
				utf16 += code > 0xffff ? 2 : 1
				if (code >= 0xd800 && code <= 0xdfff) recheckUtf8 = true
				write(utf8Bytes(code))
				continue
			}
		}
		if (c !== ch('<')) {
			if (isFirstCodeUnit(c)) utf16 += utf16Units(c)
			t.set(out++, c)
			continue
		}
		const beginPos = i++
		if (t.at(i) !== ch('/')) {
			while (!isSpace(t.at(i)) && t.at(i) !== ch('>')) i++
			if (t.at(i) === 0) refuse(`Unclosed start tag at byte offset ${beginPos}`)
			const tag = toLower(t.binary(beginPos + 1, i))
			if (!HTML_TAGS.has(tag)) refuse(`Unsupported start tag "${fromBinary(tag)}" at byte offset ${beginPos}`)
			let argument = ''
			while (t.at(i) !== ch('>')) {
				while (t.at(i) !== 0 && isSpace(t.at(i))) i++
				if (t.at(i) === ch('>')) break
				const attributeBegin = i
				while (
					!isSpace(t.at(i)) &&
					t.at(i) !== ch('=') &&
					t.at(i) !== ch('>') &&
					t.at(i) !== ch('/') &&
					t.at(i) !== ch('"') &&
					t.at(i) !== ch("'")
				)
					i++
				const attribute = t.binary(attributeBegin, i)
				if (attribute === '') refuse(`Empty attribute name in the tag "${tag}" at byte offset ${beginPos}`)
				while (t.at(i) !== 0 && isSpace(t.at(i))) i++
				if (t.at(i) !== ch('=')) {
					if (t.at(i) === 0) refuse(`Unclosed start tag "${tag}" at byte offset ${beginPos}`)
					if (tag === 'blockquote' && attribute === 'expandable') argument = '1'
					continue
				}
				i++
				while (t.at(i) !== 0 && isSpace(t.at(i))) i++
				if (t.at(i) === 0) refuse(`Unclosed start tag "${tag}" at byte offset ${beginPos}`)
				let value = ''
				if (t.at(i) !== ch("'") && t.at(i) !== ch('"')) {
					const tokenBegin = i
					while (isAlnum(t.at(i)) || t.at(i) === ch('.') || t.at(i) === ch('-')) i++
					value = toLower(t.binary(tokenBegin, i))
					if (!isSpace(t.at(i)) && t.at(i) !== ch('>'))
						refuse(`Unexpected end of name token at byte offset ${tokenBegin}`)
				} else {
					const endCharacter = t.at(i++)
					let valueEnd = i
					const valueBegin = valueEnd
					while (t.at(i) !== endCharacter && t.at(i) !== 0) {
						if (t.at(i) === ch('&')) {
							const { code, end } = decodeHtmlEntity(t, i)
							if (code !== 0) {
								i = end
								for (const b of utf8Bytes(code)) t.set(valueEnd++, b)
								continue
							}
						}
						t.set(valueEnd++, t.at(i++))
					}
					if (t.at(i) === endCharacter) i++
					value = t.binary(valueBegin, valueEnd)
				}
				if (t.at(i) === 0) refuse(`Unclosed start tag at byte offset ${beginPos}`)
				if (tag === 'a' && attribute === 'href') argument = value
				else if (tag === 'code' && attribute === 'class' && value.startsWith('language-'))
					argument = value.slice(9)
				else if (tag === 'span' && attribute === 'class' && value.startsWith('tg-')) argument = value.slice(3)
				else if (tag === 'tg-emoji' && attribute === 'emoji-id') argument = value
				else if (tag === 'blockquote' && attribute === 'expandable') argument = '1'
				else if (tag === 'tg-time' && (attribute === 'unix' || attribute === 'format')) argument = value
			}
			if (tag === 'span' && argument !== 'spoiler')
				refuse(`Tag "span" must have class "tg-spoiler" at byte offset ${beginPos}`)
			nested.push({ tag, argument, offset: utf16, beginPos: out })
			continue
		}
		// the end of an entity
		if (nested.length === 0) refuse(`Unexpected end tag at byte offset ${beginPos}`)
		while (!isSpace(t.at(i)) && t.at(i) !== ch('>')) i++
		const endTag = toLower(t.binary(beginPos + 2, i))
		while (isSpace(t.at(i)) && t.at(i) !== 0) i++
		if (t.at(i) !== ch('>')) refuse(`Unclosed end tag at byte offset ${beginPos}`)
		const top = nested[nested.length - 1] as OpenTag
		const tag = top.tag
		if (endTag !== '' && endTag !== tag)
			refuse(
				`Unmatched end tag at byte offset ${beginPos}, expected "</${fromBinary(tag)}>", found "</${fromBinary(endTag)}>"`,
			)
		if (utf16 > top.offset) {
			const offset = top.offset
			const length = utf16 - offset
			const last = entities[entities.length - 1]
			const same = last !== undefined && last.offset === offset && last.length === length
			if (tag === 'i' || tag === 'em') entities.push({ type: 'Italic', offset, length })
			else if (tag === 'b' || tag === 'strong') entities.push({ type: 'Bold', offset, length })
			else if (tag === 's' || tag === 'strike' || tag === 'del')
				entities.push({ type: 'Strikethrough', offset, length })
			else if (tag === 'u' || tag === 'ins') entities.push({ type: 'Underline', offset, length })
			else if (tag === 'tg-spoiler' || tag === 'span') entities.push({ type: 'Spoiler', offset, length })
			else if (tag === 'tg-emoji') {
				const id = toInt64Safe(top.argument)
				if (id === undefined || id === 0n) refuse('Invalid custom emoji identifier specified')
				entities.push({ type: 'CustomEmoji', offset, length, customEmojiId: String(id) })
			} else if (tag === 'tg-time') refuse(DATES_NOT_EMULATED)
			else if (tag === 'a') {
				const url = top.argument || t.binary(top.beginPos, out)
				const entity = linkEntity(url, offset, length)
				if (entity) entities.push(entity)
			} else if (tag === 'pre') {
				if (same && last.type === 'Code' && last.argument) last.type = 'PreCode'
				else entities.push({ type: 'Pre', offset, length })
			} else if (tag === 'code') {
				if (same && last.type === 'Pre' && top.argument) {
					last.type = 'PreCode'
					last.argument = fromBinary(top.argument)
				} else entities.push({ type: 'Code', offset, length, argument: fromBinary(top.argument) })
			} else if (tag === 'blockquote') {
				entities.push({ type: top.argument ? 'ExpandableBlockQuote' : 'BlockQuote', offset, length })
			}
		}
		nested.pop()
	}
	const open = nested[nested.length - 1]
	if (open) refuse(`Can't find end tag corresponding to start tag "${fromBinary(open.tag)}"`)
	for (const e of entities) if (e.type === 'Code') e.argument = undefined
	sortEntities(entities)
	if (recheckUtf8)
		refuse(
			'Text contains invalid Unicode characters after decoding HTML entities, check for unmatched surrogate code units',
		)
	return { size: out, entities }
}

// ---- the request ----

function entityType(e: Entity): Td.TextEntityType {
	switch (e.type) {
		case 'Bold':
			return { _: 'textEntityTypeBold' }
		case 'Italic':
			return { _: 'textEntityTypeItalic' }
		case 'Underline':
			return { _: 'textEntityTypeUnderline' }
		case 'Strikethrough':
			return { _: 'textEntityTypeStrikethrough' }
		case 'Spoiler':
			return { _: 'textEntityTypeSpoiler' }
		case 'Code':
			return { _: 'textEntityTypeCode' }
		case 'Pre':
			return { _: 'textEntityTypePre' }
		case 'PreCode':
			return { _: 'textEntityTypePreCode', language: e.argument ?? '' }
		case 'TextUrl':
			return { _: 'textEntityTypeTextUrl', url: e.argument ?? '' }
		case 'MentionName':
			return { _: 'textEntityTypeMentionName', user_id: e.userId ?? 0 }
		case 'CustomEmoji':
			return { _: 'textEntityTypeCustomEmoji', custom_emoji_id: e.customEmojiId ?? '0' }
		case 'BlockQuote':
			return { _: 'textEntityTypeBlockQuote' }
		case 'ExpandableBlockQuote':
			return { _: 'textEntityTypeExpandableBlockQuote' }
	}
}

/** The outcome of `parseTextEntities`: TDLib's formattedText, or its error's message (code 400). */
export function parseTextEntities(
	text: string,
	mode: Td.TextParseMode$Input | undefined,
): { ok: true; text: Td.formattedText } | { ok: false; message: string } {
	if (!mode) return { ok: false, message: 'Parse mode must be non-empty' }
	const t = new Buffer(text)
	try {
		let codePoints = 0
		for (let i = 0; i < t.size; i++) if (isFirstCodeUnit(t.at(i))) codePoints++
		if (codePoints > 65536) refuse('Text is too long')
		let parsed: { size: number; entities: Entity[] }
		if (mode._ === 'textParseModeHTML') parsed = parseHtml(t)
		else {
			const version = mode.version ?? 0
			if (version === 0 || version === 1) parsed = parseMarkdown(t)
			else if (version === 2) parsed = parseMarkdownV2(t)
			else return refuse('Wrong Markdown version specified')
		}
		return {
			ok: true,
			text: {
				_: 'formattedText',
				text: t.text(parsed.size),
				entities: parsed.entities.map((e) => ({
					_: 'textEntity',
					offset: e.offset,
					length: e.length,
					type: entityType(e),
				})),
			},
		}
	} catch (err) {
		if (err instanceof ParseError) {
			const dates = err.message === DATES_NOT_EMULATED
			return { ok: false, message: dates ? err.message : `Can't parse entities: ${err.message}` }
		}
		throw err
	}
}
