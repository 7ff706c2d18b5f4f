import { closeEntity, closeLastBlockquote, endOf, type Nested, type Pass } from './markdown-v2-end'
import {
	type Buffer,
	ch,
	type Entity,
	type EntityType,
	fromBinary,
	isFirstCodeUnit,
	isSpace,
	refuse,
	skipOneNewLine,
	sortEntities,
	utf16Units,
} from './text'

/**
 * `parse_markdown_v2` of td/telegram/MessageEntity.cpp: one pass over the text's bytes, an entity
 * opened at its mark (`openEntity`) and made at its end (`closeEntity`), a block quote at the end of
 * its last line (`closeLastBlockquote`).
 */

const reserved = (c: number) =>
	`Character '${String.fromCharCode(c)}' is reserved and must be escaped with the preceding '\\'`

export function parseMarkdownV2(t: Buffer): { size: number; entities: Entity[] } {
	const p: Pass = {
		t,
		i: 0,
		out: 0,
		utf16: 0,
		entities: [],
		nested: [],
		haveBlockquote: false,
		canStartBlockquote: true,
	}
	for (; p.i < t.size; p.i++) {
		const c = t.at(p.i)
		if (c === ch('\\') && t.at(p.i + 1) > 0 && t.at(p.i + 1) <= 126) {
			p.i++
			p.utf16 += 1
			t.set(p.out++, t.at(p.i))
			if (t.at(p.i) !== 13) p.canStartBlockquote = t.at(p.i) === 10
			continue
		}
		const back = p.nested[p.nested.length - 1]
		const inCode = back?.type === 'Code' || back?.type === 'Pre' || back?.type === 'PreCode'
		const reservedChars = inCode ? '`' : '_*[]()~`>#+-=|{}.!\n'
		if (c === 0 || !reservedChars.includes(String.fromCharCode(c))) {
			if (isFirstCodeUnit(c)) {
				p.utf16 += utf16Units(c)
				if (c !== 13) p.canStartBlockquote = false
			}
			t.set(p.out++, c)
			continue
		}
		if (back && ends(p, back, c)) closeEntity(p, back, c)
		else openEntity(p, c)
	}
	if (p.haveBlockquote) closeLastBlockquote(p)
	const open = p.nested[p.nested.length - 1]
	if (open) refuse(endOf(open))
	sortEntities(p.entities)
	return { size: p.out, entities: p.entities }
}

/** Whether the reserved character `c` at `p.i` ends the innermost open entity. */
function ends(p: Pass, back: Nested, c: number): boolean {
	const next = p.t.at(p.i + 1)
	if (p.haveBlockquote && c === 10 && (p.i + 1 === p.t.size || next !== ch('>'))) return true
	switch (back.type) {
		case 'Bold':
			return c === ch('*')
		case 'Italic':
			return c === ch('_') && next !== ch('_')
		case 'Code':
			return c === ch('`')
		case 'Pre':
		case 'PreCode':
			return c === ch('`') && next === ch('`') && p.t.at(p.i + 2) === ch('`')
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
}

/** The reserved character `c` opens an entity (a new line or a second `>` opens none). */
function openEntity(p: Pass, c: number): void {
	const t = p.t
	const next = t.at(p.i + 1)
	const byteOffset = p.i
	let type: EntityType | undefined
	let argument = ''
	switch (String.fromCharCode(c)) {
		case '_':
			if (next === ch('_')) {
				type = 'Underline'
				p.i++
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
			p.i++
			type = 'Spoiler'
			break
		case '[':
			type = 'TextUrl'
			break
		case '`':
			if (next === ch('`') && t.at(p.i + 2) === ch('`')) ({ type, argument } = openPre(p))
			else type = 'Code'
			break
		case '!':
			if (next !== ch('[')) refuse(reserved(c))
			p.i++
			type = 'CustomEmoji'
			break
		case '\n':
			p.utf16 += 1
			t.set(p.out++, 10)
			p.canStartBlockquote = true
			break
		case '>':
			if (!p.canStartBlockquote) refuse(reserved(c))
			if (!p.haveBlockquote) {
				type = 'BlockQuote'
				p.haveBlockquote = true
			}
			break
		default:
			refuse(reserved(c))
	}
	if (type !== undefined) p.nested.push({ type, argument, offset: p.utf16, byteOffset, beginPos: p.out })
}

/** ``` and its language, if one: left on the last byte before the block's text. */
function openPre(p: Pass): { type: EntityType; argument: string } {
	const t = p.t
	p.i += 3
	let type: EntityType = 'Pre'
	let argument = ''
	let languageEnd = p.i
	while (!isSpace(t.at(languageEnd)) && t.at(languageEnd) !== ch('`')) languageEnd++
	if (p.i !== languageEnd && languageEnd < t.size && t.at(languageEnd) !== ch('`')) {
		type = 'PreCode'
		argument = fromBinary(t.binary(p.i, languageEnd))
		p.i = languageEnd
	}
	p.i = skipOneNewLine(t, p.i) - 1
	return { type, argument }
}
