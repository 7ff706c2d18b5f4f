import { describe, expect, it } from 'bun:test'
import fc from 'fast-check'
import { parseFrame } from '../../src/server/gateway/frame-json'

/** The frame parse: JSON.parse, but an integer literal past 2^53 keeps every digit (a bigint). */
describe('parseFrame', () => {
	it('keeps every digit of an integer past 2^53, positive or negative, at any depth', () => {
		expect(parseFrame('{"session_id": 3088675158945946166}')).toEqual({ session_id: 3088675158945946166n })
		expect(
			parseFrame(
				'{"a": [1, -12345678901234567890, {"b": {"c": [9223372036854775807, -9223372036854775808]}}]}',
			),
		).toEqual({ a: [1, -12345678901234567890n, { b: { c: [9223372036854775807n, -9223372036854775808n] } }] })
		expect(parseFrame('123456789012345678901234567890')).toBe(123456789012345678901234567890n)
		// 2^53 itself is no safe integer (2^53 + 1 reads the same as a double).
		expect(parseFrame('[9007199254740992, 9007199254740993]')).toEqual([9007199254740992n, 9007199254740993n])
	})

	it('leaves safe integers, fractions and exponents as JSON.parse reads them', () => {
		const text =
			'{"safe": 9007199254740991, "neg": -9007199254740991, "small": 42, "frac": 12345678901234567890.5, "exp": 1e300, "exp2": 3088675158945946166e0, "zero": -0}'
		const parsed = parseFrame(text) as Record<string, unknown>
		expect(parsed).toEqual(JSON.parse(text))
		for (const value of Object.values(parsed)) expect(typeof value).toBe('number')
	})

	it('keeps every digit in a long frame too, where it walks the parsed values to tell', () => {
		const text = `{"text": "${'0123456789 '.repeat(200)}", "ids": [1, [{"id": -3088675158945946166}]], "x": 1e300}`
		expect(text.length).toBeGreaterThan(512)
		expect(parseFrame(text)).toEqual({ ...JSON.parse(text), ids: [1, [{ id: -3088675158945946166n }]] })
		const plain = `{"text": "${'12345678901234567890 '.repeat(100)}", "n": 9007199254740991, "e": 1.5e300}`
		expect(parseFrame(plain)).toEqual(JSON.parse(plain))
	})

	it('leaves digits inside strings alone, keys included', () => {
		const text =
			'{"12345678901234567890": "12345678901234567890", "t": "id 3088675158945946166 here", "n": 1}'
		expect(parseFrame(text)).toEqual(JSON.parse(text))
	})

	it('keeps a key named __proto__ a key, as JSON.parse does', () => {
		const parsed = parseFrame('{"__proto__": 12345678901234567890, "x": 1}') as Record<string, unknown>
		expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype)
		expect(Object.hasOwn(parsed, '__proto__')).toBe(true)
		expect(Object.getOwnPropertyDescriptor(parsed, '__proto__')?.value).toBe(12345678901234567890n)
	})

	it('throws on text that is not JSON, with or without long digits', () => {
		expect(() => parseFrame('{not json')).toThrow()
		expect(() => parseFrame('{"a": 12345678901234567890')).toThrow()
		expect(() => parseFrame('{"a": 0012345678901234567890}')).toThrow()
	})

	it('reads any JSON as it was written: integers past 2^53 digit for digit, the rest as JSON.parse', () => {
		const rawJSON = (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON
		/** What a frame written from `value` must read back as: a model that needs no reviver. */
		const expected = (value: unknown): unknown => {
			if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value
			if (typeof value === 'number') {
				const text = JSON.stringify(value)
				// A double past 2^53 is written as digits (2^60 as 1152921504606846976): an integer literal.
				return /^-?\d+$/.test(text) && !Number.isSafeInteger(value) ? BigInt(text) : JSON.parse(text)
			}
			if (Array.isArray(value)) return value.map(expected)
			if (typeof value === 'object' && value !== null)
				return Object.fromEntries(Object.entries(value).map(([k, x]) => [k, expected(x)]))
			return value
		}
		const json = fc.letrec((tie) => ({
			value: fc.oneof(
				{ depthSize: 'small' },
				fc.string(),
				fc.stringMatching(/^-?\d{14,22}$/),
				fc.double({ noNaN: true, noDefaultInfinity: true }),
				fc.integer(),
				fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
				fc.boolean(),
				fc.constant(null),
				fc.array(tie('value'), { maxLength: 4 }),
				fc.dictionary(fc.string({ maxLength: 6 }), tie('value'), { maxKeys: 4 }),
			),
		})).value
		// Padded past 512 characters, a frame takes the other way of telling (parse, then walk).
		const frame = fc
			.tuple(json, fc.boolean())
			.map(([value, long]) => (long ? { pad: 'x'.repeat(600), value } : value))
		fc.assert(
			fc.property(frame, (value) => {
				const text = JSON.stringify(value, (_k, x) => (typeof x === 'bigint' ? rawJSON(String(x)) : x))
				expect(parseFrame(text)).toEqual(expected(value))
			}),
			{ numRuns: 1000 },
		)
	})
})
