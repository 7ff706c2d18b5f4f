import { describe, expect, it } from 'bun:test'
import { normalizeEmail, normalizeText, secretFault, textFault } from '../src/common/util/text'

describe('textFault', () => {
	it('finds C0, DEL, C1 and the Unicode line separators', () => {
		for (const c of [
			'\u0000',
			'\u0007',
			'\t',
			'\n',
			'\r',
			'\u001f',
			'\u007f',
			'\u0085',
			'\u009f',
			'\u2028',
			'\u2029',
		])
			expect(textFault(`ab${c}cd`)).toBe('control')
	})

	it('finds a lone high or low surrogate, at either end or inside, but not a pair', () => {
		for (const s of ['\ud800', 'a\ud800', '\udc00a', 'a\udbffb', 'a\udfffb', '\udc00\ud800'])
			expect(textFault(s)).toBe('surrogate')
		expect(textFault('emoji 😀 and 𝄞')).toBeNull()
	})

	it('lets ordinary text through, in any script, spaces and joiners included', () => {
		for (const s of ['Ada Lovelace', 'Zoë', 'José', 'محمد', '张伟', 'क्षत्रिय', 'family 👨‍👩‍👧', ''])
			expect(textFault(s)).toBeNull()
	})
})

describe('secretFault', () => {
	it('refuses only lone surrogates: a password may hold control characters', () => {
		expect(secretFault('tab\there\u0000')).toBeNull()
		expect(secretFault('pass\ud800word')).toBe('surrogate')
	})
})

describe('normalizeEmail and normalizeText', () => {
	it('make the composed and decomposed forms of one address and one name equal', () => {
		const composed = 'jos\u00e9@example.com'
		const decomposed = 'jose\u0301@example.com'
		expect(composed).not.toBe(decomposed)
		expect(normalizeEmail(decomposed)).toBe(normalizeEmail(composed))
		expect(normalizeEmail(` JOSE\u0301@Example.COM `)).toBe(composed)
		expect(normalizeText(' Zoe\u0308 ')).toBe('Zo\u00eb')
	})

	it('leave an address in NFC even where lower-casing decomposes a letter', () => {
		// U+0130 lower-cases to "i" + U+0307; the result must still be the NFC form.
		const email = normalizeEmail('\u0130STANBUL@example.com')
		expect(email).toBe(email.normalize('NFC'))
	})
})
