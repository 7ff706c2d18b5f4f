import { describe, expect, it } from 'bun:test'
import {
	generateDatabaseKey,
	openDatabaseKey,
	sealDatabaseKey,
	userbotSealing,
} from '../../src/common/util/key-crypto'

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

describe("ctx.sealing (a userbot's secrets through the context)", () => {
	const sealing = userbotSealing(dataKey)

	it('opens what it sealed for the same userbot and purpose, as the stored forms were made before', async () => {
		const key = sealing.newDatabaseKey()
		const sealed = await sealing.seal(7, 'database', key)
		expect(await sealing.open(7, 'database', sealed)).toBe(key)
		// The database key's stored form is the one the backup's check and older rows open.
		expect(await openDatabaseKey(dataKey, 7, sealed)).toBe(key)
		expect(await sealing.open(7, 'database', await sealDatabaseKey(dataKey, 7, key))).toBe(key)
		const proxy = await sealing.seal(7, 'proxy', '{"password":"p"}')
		expect(await sealing.open(7, 'proxy', proxy)).toBe('{"password":"p"}')
		expect(await openDatabaseKey(dataKey, 7, proxy, 'userbot-proxy')).toBe('{"password":"p"}')
	})

	it('refuses a secret of another purpose, another userbot or another data key', async () => {
		const proxy = await sealing.seal(7, 'proxy', 'secret')
		await expect(sealing.open(7, 'database', proxy)).rejects.toThrow()
		await expect(sealing.open(8, 'proxy', proxy)).rejects.toThrow()
		const other = userbotSealing(
			Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url'),
		)
		await expect(other.open(7, 'proxy', proxy)).rejects.toThrow()
	})
})
