import { describe, expect, it } from 'bun:test'
import { argon2idHash, argon2idVerify } from '../../src/server/auth/argon2-portable'
import { createPasswordHasher, DUMMY_HASH } from '../../src/server/auth/passwords'

const PARAMS = { memoryCost: 19456, timeCost: 2 }

describe('the portable argon2id (Deno)', () => {
	it("writes Bun's PHC format with the same parameters, and Bun verifies it", async () => {
		const hash = await argon2idHash('Lamp-Orbit-4821', PARAMS)
		expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/)
		expect(await Bun.password.verify('Lamp-Orbit-4821', hash)).toBe(true)
		expect(await Bun.password.verify('Lamp-Orbit-4822', hash)).toBe(false)
	})

	it('verifies a hash Bun made, and refuses a wrong password', async () => {
		const hash = await Bun.password.hash('Lamp-Orbit-4821', { algorithm: 'argon2id', ...PARAMS })
		expect(await argon2idVerify('Lamp-Orbit-4821', hash)).toBe(true)
		expect(await argon2idVerify('lamp-Orbit-4821', hash)).toBe(false)
		expect(await argon2idVerify('x', DUMMY_HASH)).toBe(true)
	})

	it('answers false, never throws, for anything that is not an argon2id hash', async () => {
		const bcrypt = await Bun.password.hash('pw', { algorithm: 'bcrypt', cost: 4 })
		for (const stored of ['', 'plain', bcrypt, DUMMY_HASH.replace('argon2id', 'argon2i'), `${DUMMY_HASH}$`]) {
			expect(await argon2idVerify('pw', stored)).toBe(false)
		}
	})
})

describe('createPasswordHasher', () => {
	it('makes hashes either runtime accepts, and asks for a rehash on the same terms', async () => {
		const bun = createPasswordHasher('bun')
		const portable = createPasswordHasher('portable')
		expect(await bun.verify('Lamp-Orbit-4821', await portable.hash('Lamp-Orbit-4821'))).toBe(true)
		expect(await portable.verify('Lamp-Orbit-4821', await bun.hash('Lamp-Orbit-4821'))).toBe(true)
		const weaker =
			'$argon2id$v=19$m=4096,t=1,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g'
		expect(bun.needsRehash(weaker)).toBe(true)
		expect(portable.needsRehash(weaker)).toBe(true)
		expect(portable.needsRehash(DUMMY_HASH)).toBe(false)
	})
})
