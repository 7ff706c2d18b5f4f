/** What the parsers share: an entity before it is a TDLib object, the text's bytes, TDLib's byte tests. */

/** An entity before it is a TDLib object: TDLib's MessageEntity::Type by name, its argument. */
export interface Entity {
	type: EntityType
	offset: number
	length: number
	argument?: string
	userId?: number
	customEmojiId?: string
}

export type EntityType =
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
export const PRIORITY: Record<EntityType, number> = {
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
export class ParseError extends Error {}
export const refuse = (message: string): never => {
	throw new ParseError(message)
}

/** The text as TDLib holds it: its bytes, read as a C string (0 past the end), rewritten in place. */
export class Buffer {
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

export const fromBinary = (s: string) =>
	new TextDecoder().decode(Uint8Array.from(s, (c) => c.charCodeAt(0) & 0xff))
export const ch = (c: string) => c.charCodeAt(0)
export const isSpace = (c: number) => c === 32 || c === 9 || c === 13 || c === 10 || c === 0 || c === 11
export const isDigit = (c: number) => c >= 48 && c <= 57
export const isAlpha = (c: number) => {
	const l = c | 0x20
	return l >= 97 && l <= 122
}
export const isAlnum = (c: number) => isDigit(c) || isAlpha(c)
export const isHexDigit = (c: number) => isDigit(c) || ((c | 0x20) >= 97 && (c | 0x20) <= 102)
export const hexToInt = (c: number) => (isDigit(c) ? c - 48 : (c | 0x20) - 87)
export const isFirstCodeUnit = (c: number) => (c & 0xc0) !== 0x80
/** UTF-16 units of the character a first byte starts: 2 for a 4-byte one (a surrogate pair). */
export const utf16Units = (c: number) => (c >= 0xf0 ? 2 : 1)
/** td::to_lower: ASCII letters only. */
export const toLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase())

/** td::to_integer_safe<int64>: the digits must print back as they were written. */
export function toInt64Safe(s: string): bigint | undefined {
	if (!/^-?\d+$/.test(s)) return undefined
	const n = BigInt(s)
	if (n > 9223372036854775807n || n < -9223372036854775808n || n.toString() !== s) return undefined
	return n
}

export function toInt32Safe(s: string): number | undefined {
	const n = toInt64Safe(s)
	return n !== undefined && n <= 2147483647n && n >= -2147483648n ? Number(n) : undefined
}

export const DATES_NOT_EMULATED = 'emulator: dates (tg-time, tg://time) are not emulated'

export function sortEntities(entities: Entity[]) {
	entities.sort((a, b) =>
		a.offset !== b.offset
			? a.offset - b.offset
			: a.length !== b.length
				? b.length - a.length
				: PRIORITY[a.type] - PRIORITY[b.type],
	)
}

/** Skips one new line at the start of a pre block (\n, \r, \r\n or \n\r). */
export function skipOneNewLine(t: Buffer, i: number): number {
	const c = t.at(i)
	if (c !== 10 && c !== 13) return i
	const next = t.at(i + 1)
	return (next === 10 || next === 13) && c !== next ? i + 2 : i + 1
}
