import { describe, expect, it } from 'bun:test'
import { generateDatabaseKey, openDatabaseKey, sealDatabaseKey } from '../../src/common/util/key-crypto'

const dataKey = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')

describe('userbot database keys', () => {
	it('generates 32 random bytes, base64', () => {
		const a = generateDatabaseKey()
		expect(Buffer.from(a, 'base64').byteLength).toBe(32)
		expect(generateDatabaseKey()).not.toBe(a)
	})

	it('seals a key so the stored form is not the key, and opens it back', async () => {
		const key = generateDatabaseKey()
		const sealed = await sealDatabaseKey(dataKey, 7, key)
		expect(sealed).not.toContain(key)
		expect(sealed.startsWith('v1.')).toBe(true)
		expect(await openDatabaseKey(dataKey, 7, sealed)).toBe(key)
		// A fresh IV each time: the same key never seals to the same text.
		expect(await sealDatabaseKey(dataKey, 7, key)).not.toBe(sealed)
	})

	it('refuses another data key, another userbot, or a tampered text', async () => {
		const sealed = await sealDatabaseKey(dataKey, 7, generateDatabaseKey())
		const other = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')
		await expect(openDatabaseKey(other, 7, sealed)).rejects.toThrow()
		await expect(openDatabaseKey(dataKey, 8, sealed)).rejects.toThrow()
		const tampered = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}A`
		await expect(openDatabaseKey(dataKey, 7, tampered)).rejects.toThrow()
		await expect(openDatabaseKey(dataKey, 7, 'raw-key')).rejects.toThrow()
	})
})
