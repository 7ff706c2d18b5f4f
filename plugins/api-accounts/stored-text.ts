/**
 * Text the main server sends is stored here and shown to others later, so it is held to the same
 * bar as text a client sends: well-formed Unicode, NFC, no control characters (C0, C1, DEL), no line
 * or paragraph separators, no bidirectional overrides that would make a name read differently from
 * what it is, and at most `max` characters. Null when the text fails.
 */
const FORBIDDEN = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069\uFEFF]/u

export function storedText(value: string, max: number): string | null {
	if (!value.isWellFormed()) return null
	const text = value.normalize('NFC')
	if (text.length > max || FORBIDDEN.test(text)) return null
	return text
}
