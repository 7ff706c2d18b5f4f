import { linkEntity } from './links'
import {
	type Buffer,
	ch,
	DATES_NOT_EMULATED,
	type Entity,
	fromBinary,
	hexToInt,
	isAlnum,
	isAlpha,
	isDigit,
	isFirstCodeUnit,
	isHexDigit,
	isSpace,
	refuse,
	sortEntities,
	toInt64Safe,
	toLower,
	utf16Units,
} from './text'

/**
 * `parse_html` of td/telegram/MessageEntity.cpp: one pass over the text's bytes, HTML entities
 * decoded as they come, a tag opened with its argument (`openTag`) and its entity made at its end
 * tag (`closeTag`).
 */

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

/** What the pass carries: where it reads (`i`) and writes (`out`), the tags open, the entities made. */
interface Pass {
	t: Buffer
	i: number
	out: number
	utf16: number
	entities: Entity[]
	nested: OpenTag[]
	recheckUtf8: boolean
}

export function parseHtml(t: Buffer): { size: number; entities: Entity[] } {
	const p: Pass = { t, i: 0, out: 0, utf16: 0, entities: [], nested: [], recheckUtf8: false }
	for (; p.i < t.size; p.i++) {
		const c = t.at(p.i)
		if (c === ch('&') && decodedEntity(p)) continue
		if (c !== ch('<')) {
			if (isFirstCodeUnit(c)) p.utf16 += utf16Units(c)
			t.set(p.out++, c)
			continue
		}
		const beginPos = p.i++
		if (t.at(p.i) !== ch('/')) openTag(p, beginPos)
		else closeTag(p, beginPos)
	}
	const open = p.nested[p.nested.length - 1]
	if (open) refuse(`Can't find end tag corresponding to start tag "${fromBinary(open.tag)}"`)
	for (const e of p.entities) if (e.type === 'Code') e.argument = undefined
	sortEntities(p.entities)
	if (p.recheckUtf8)
		refuse(
			'Text contains invalid Unicode characters after decoding HTML entities, check for unmatched surrogate code units',
		)
	return { size: p.out, entities: p.entities }
}

/** `&...;` at `p.i`, written as its character; false when it is none (the `&` is then text). */
function decodedEntity(p: Pass): boolean {
	const { code, end } = decodeHtmlEntity(p.t, p.i)
	if (code === 0) return false
	p.i = end - 1
	p.utf16 += code > 0xffff ? 2 : 1
	if (code >= 0xd800 && code <= 0xdfff) p.recheckUtf8 = true
	for (const b of utf8Bytes(code)) p.t.set(p.out++, b)
	return true
}

/** A start tag from `<` at `beginPos`: its name, its attributes read for its argument, then open. */
function openTag(p: Pass, beginPos: number): void {
	const t = p.t
	while (!isSpace(t.at(p.i)) && t.at(p.i) !== ch('>')) p.i++
	if (t.at(p.i) === 0) refuse(`Unclosed start tag at byte offset ${beginPos}`)
	const tag = toLower(t.binary(beginPos + 1, p.i))
	if (!HTML_TAGS.has(tag)) refuse(`Unsupported start tag "${fromBinary(tag)}" at byte offset ${beginPos}`)
	const argument = tagArgument(p, tag, beginPos)
	if (tag === 'span' && argument !== 'spoiler')
		refuse(`Tag "span" must have class "tg-spoiler" at byte offset ${beginPos}`)
	p.nested.push({ tag, argument, offset: p.utf16, beginPos: p.out })
}

/** The tag's attributes up to `>`: the argument the last one that means something gives. */
function tagArgument(p: Pass, tag: string, beginPos: number): string {
	const t = p.t
	let argument = ''
	while (t.at(p.i) !== ch('>')) {
		while (t.at(p.i) !== 0 && isSpace(t.at(p.i))) p.i++
		if (t.at(p.i) === ch('>')) break
		const attributeBegin = p.i
		while (
			!isSpace(t.at(p.i)) &&
			t.at(p.i) !== ch('=') &&
			t.at(p.i) !== ch('>') &&
			t.at(p.i) !== ch('/') &&
			t.at(p.i) !== ch('"') &&
			t.at(p.i) !== ch("'")
		)
			p.i++
		const attribute = t.binary(attributeBegin, p.i)
		if (attribute === '') refuse(`Empty attribute name in the tag "${tag}" at byte offset ${beginPos}`)
		while (t.at(p.i) !== 0 && isSpace(t.at(p.i))) p.i++
		if (t.at(p.i) !== ch('=')) {
			if (t.at(p.i) === 0) refuse(`Unclosed start tag "${tag}" at byte offset ${beginPos}`)
			if (tag === 'blockquote' && attribute === 'expandable') argument = '1'
			continue
		}
		p.i++
		while (t.at(p.i) !== 0 && isSpace(t.at(p.i))) p.i++
		if (t.at(p.i) === 0) refuse(`Unclosed start tag "${tag}" at byte offset ${beginPos}`)
		const value = attributeValue(p)
		if (t.at(p.i) === 0) refuse(`Unclosed start tag at byte offset ${beginPos}`)
		argument = argumentOf(tag, attribute, value) ?? argument
	}
	return argument
}

/** An attribute's value at `p.i`: a name token (lower-cased) or a quoted string, entities decoded. */
function attributeValue(p: Pass): string {
	const t = p.t
	if (t.at(p.i) !== ch("'") && t.at(p.i) !== ch('"')) {
		const tokenBegin = p.i
		while (isAlnum(t.at(p.i)) || t.at(p.i) === ch('.') || t.at(p.i) === ch('-')) p.i++
		const value = toLower(t.binary(tokenBegin, p.i))
		if (!isSpace(t.at(p.i)) && t.at(p.i) !== ch('>'))
			refuse(`Unexpected end of name token at byte offset ${tokenBegin}`)
		return value
	}
	const endCharacter = t.at(p.i++)
	let valueEnd = p.i
	const valueBegin = valueEnd
	while (t.at(p.i) !== endCharacter && t.at(p.i) !== 0) {
		if (t.at(p.i) === ch('&')) {
			const { code, end } = decodeHtmlEntity(t, p.i)
			if (code !== 0) {
				p.i = end
				for (const b of utf8Bytes(code)) t.set(valueEnd++, b)
				continue
			}
		}
		t.set(valueEnd++, t.at(p.i++))
	}
	if (t.at(p.i) === endCharacter) p.i++
	return t.binary(valueBegin, valueEnd)
}

/** The argument an attribute gives its tag, or undefined when it gives none. */
function argumentOf(tag: string, attribute: string, value: string): string | undefined {
	if (tag === 'a' && attribute === 'href') return value
	if (tag === 'code' && attribute === 'class' && value.startsWith('language-')) return value.slice(9)
	if (tag === 'span' && attribute === 'class' && value.startsWith('tg-')) return value.slice(3)
	if (tag === 'tg-emoji' && attribute === 'emoji-id') return value
	if (tag === 'blockquote' && attribute === 'expandable') return '1'
	if (tag === 'tg-time' && (attribute === 'unix' || attribute === 'format')) return value
	return undefined
}

/** An end tag from `<` at `beginPos`: it closes the innermost open tag, whose entity is made. */
function closeTag(p: Pass, beginPos: number): void {
	const t = p.t
	if (p.nested.length === 0) refuse(`Unexpected end tag at byte offset ${beginPos}`)
	while (!isSpace(t.at(p.i)) && t.at(p.i) !== ch('>')) p.i++
	const endTag = toLower(t.binary(beginPos + 2, p.i))
	while (isSpace(t.at(p.i)) && t.at(p.i) !== 0) p.i++
	if (t.at(p.i) !== ch('>')) refuse(`Unclosed end tag at byte offset ${beginPos}`)
	const top = p.nested[p.nested.length - 1] as OpenTag
	const tag = top.tag
	if (endTag !== '' && endTag !== tag)
		refuse(
			`Unmatched end tag at byte offset ${beginPos}, expected "</${fromBinary(tag)}>", found "</${fromBinary(endTag)}>"`,
		)
	if (p.utf16 > top.offset) makeEntity(p, top)
	p.nested.pop()
}

/** The entity of a closed tag that holds text (`<pre><code class>` make one together). */
function makeEntity(p: Pass, top: OpenTag): void {
	const { tag, offset } = top
	const entities = p.entities
	const length = p.utf16 - offset
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
		const url = top.argument || p.t.binary(top.beginPos, p.out)
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
