/**
 * Text a client sends that we store (e-mail addresses, names, userbot names) or look stored text up
 * by. Three faults make stored text lie, so they are refused, never repaired:
 * - control characters (C0, DEL, C1, and the Unicode line and paragraph separators): the embedded
 *   database reads a string back cut at its first NUL, so `a@example.com\u0000.zz` would register as
 *   a new account and then read back as someone else's address; the others break logs and mail
 *   headers;
 * - lone surrogates: UTF-8 cannot encode them, so one is stored as U+FFFD and the stored value no
 *   longer equals what the client will send next time (a password hashed that way would match a
 *   different password too).
 * What passes is put in NFC, so the composed and decomposed forms of one name or address are one
 * value. Import from here wherever client text is stored or compared with stored text.
 */

export type TextFault = 'control' | 'surrogate'

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** Why `text` cannot be stored as it is, or null when it can. */
export function textFault(text: string): TextFault | null {
	if (LONE_SURROGATE.test(text)) return 'surrogate'
	if (CONTROL.test(text)) return 'control'
	return null
}

/** Only the lone-surrogate check: for secrets (passwords), where control characters are allowed. */
export const secretFault = (text: string): TextFault | null =>
	LONE_SURROGATE.test(text) ? 'surrogate' : null

/** Field-error wording (Django's validators say the same, without quoting the character). */
export const TEXT_FAULT_MESSAGES: Record<TextFault, string> = {
	control: 'Control characters are not allowed.',
	surrogate: 'Surrogate characters are not allowed.',
}

/** Stored form of a name: trimmed (as DRF's CharField does) and in NFC. Check `textFault` first. */
export const normalizeText = (text: string): string => text.trim().normalize('NFC')

/**
 * Stored and looked-up form of an e-mail address: trimmed, NFC, lower-cased (one account per
 * address whatever its case), and NFC again, since lower-casing can leave a sequence unnormalised.
 */
export const normalizeEmail = (email: string): string =>
	email.trim().normalize('NFC').toLowerCase().normalize('NFC')
