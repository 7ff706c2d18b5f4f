import { checkedLink, LinkError, linkCustomEmojiId, linkUserId, tgQuery } from './links'
import { type Buffer, ch, DATES_NOT_EMULATED, type Entity, type EntityType, fromBinary, refuse } from './text'

/**
 * The end of an entity in `parse_markdown_v2` (markdown-v2.ts): what it reads past its mark (a URL,
 * a custom emoji) and the entity it makes; a block quote still open at the end of the text.
 */

/** An entity opened and not yet ended. */
export interface Nested {
	type: EntityType
	argument: string
	offset: number
	byteOffset: number
	beginPos: number
}

/** What the pass carries: where it reads (`i`) and writes (`out`), the entities open and made. */
export interface Pass {
	t: Buffer
	i: number
	out: number
	utf16: number
	entities: Entity[]
	nested: Nested[]
	haveBlockquote: boolean
	canStartBlockquote: boolean
}

export const endOf = (n: Nested) => `Can't find end of ${n.type} entity at byte offset ${n.byteOffset}`

/** The end of the innermost open entity: made unless it is empty (or a link to nothing). */
export function closeEntity(p: Pass, back: Nested, c: number): void {
	let top = back
	let type = top.type
	if (c === 10 && type !== 'BlockQuote') {
		const justOpenedSpoiler =
			top.byteOffset === p.i - 2 || (top.byteOffset === p.i - 3 && p.out !== 0 && p.t.at(p.out - 1) === 13)
		if (type !== 'Spoiler' || !justOpenedSpoiler) refuse(endOf(top))
		p.nested.pop()
		top = p.nested[p.nested.length - 1] as Nested
		if (top.type !== 'BlockQuote') refuse(endOf(top))
		type = 'ExpandableBlockQuote'
	}
	const made = ending(p, top, type)
	if (!made.skip) {
		const length = p.utf16 - top.offset
		const { offset } = top
		if (made.userId !== undefined)
			p.entities.push({ type: 'MentionName', offset, length, userId: made.userId })
		else if (made.customEmojiId !== undefined)
			p.entities.push({ type: 'CustomEmoji', offset, length, customEmojiId: made.customEmojiId })
		else p.entities.push({ type, offset, length, ...(made.argument ? { argument: made.argument } : {}) })
	}
	p.nested.pop()
}

/** What an entity's end reads past its mark: skipped, or its argument, its user, its custom emoji. */
interface Ending {
	skip: boolean
	argument: string
	userId?: number
	customEmojiId?: string
}

function ending(p: Pass, top: Nested, type: EntityType): Ending {
	const made: Ending = { skip: p.utf16 === top.offset, argument: top.argument }
	switch (type) {
		case 'Underline':
		case 'Spoiler':
			p.i++
			break
		case 'Pre':
		case 'PreCode':
			p.i += 2
			break
		case 'TextUrl': {
			const url = p.t.at(p.i + 1) !== ch('(') ? p.t.binary(top.beginPos, p.out) : parenthesisedUrl(p)
			made.userId = linkUserId(url)
			if (made.userId === undefined) {
				const checked = checkedLink(url)
				if (checked === '') made.skip = true
				else made.argument = fromBinary(checked)
			}
			break
		}
		case 'CustomEmoji':
			made.customEmojiId = customEmojiOf(p)
			break
		case 'BlockQuote':
		case 'ExpandableBlockQuote':
			p.haveBlockquote = false
			p.t.set(p.out++, p.t.at(p.i))
			p.canStartBlockquote = true
			p.utf16 += 1
			made.skip = false
			break
		default:
			break
	}
	return made
}

/** The custom emoji of `![text](tg://emoji?id=...)`; `tg://time` is refused in our own words. */
function customEmojiOf(p: Pass): string {
	if (p.t.at(p.i + 1) !== ch('(')) refuse('The entity must contain a tg://emoji or tg://time URL')
	const url = parenthesisedUrl(p)
	try {
		return linkCustomEmojiId(url)
	} catch (err) {
		if (!(err instanceof LinkError)) throw err
		let isDate = false
		try {
			tgQuery(url, 'time')
			isDate = true
		} catch {}
		return refuse(isDate ? DATES_NOT_EMULATED : 'Invalid tg://emoji or tg://time URL specified')
	}
}

/** `(url)` after `]` at `p.i`: read up to `)`, left on it. */
function parenthesisedUrl(p: Pass): string {
	p.i += 2
	const begin = p.i
	const { url, end } = readUrl(p.t, p.i)
	p.i = end
	if (p.t.at(p.i) !== ch(')')) refuse(`Can't find end of a URL at byte offset ${begin}`)
	return url
}

/** A block quote still open at the end of the text ends there (expandable after a `||`). */
export function closeLastBlockquote(p: Pass): void {
	let type: EntityType = 'BlockQuote'
	let top = p.nested[p.nested.length - 1] as Nested
	if (top.type === 'Spoiler' && top.byteOffset === p.t.size - 2) {
		p.nested.pop()
		top = p.nested[p.nested.length - 1] as Nested
		type = 'ExpandableBlockQuote'
	}
	if (top.type === 'BlockQuote') {
		const length = p.utf16 - top.offset
		if (length !== 0) p.entities.push({ type, offset: top.offset, length })
		p.nested.pop()
	}
}

/** `(url)` of MarkdownV2 from `i`: up to `)`, a backslash escaping the next ASCII character; where it stopped. */
function readUrl(t: Buffer, i: number): { url: string; end: number } {
	let url = ''
	while (i < t.size && t.at(i) !== ch(')')) {
		if (t.at(i) === ch('\\') && t.at(i + 1) > 0 && t.at(i + 1) <= 126) {
			url += String.fromCharCode(t.at(i + 1))
			i += 2
			continue
		}
		url += String.fromCharCode(t.at(i++))
	}
	return { url, end: i }
}
