import { describe, expect, it } from 'bun:test'
import { randomToken, sha256 } from '../../src/server/auth/crypto'
import { openSealedSession, type SessionSecrets, sealSession } from '../../src/server/auth/session-seal'

const SECRETS: SessionSecrets = {
	csrfToken: randomToken(32),
	access: `eyJ.${randomToken(40)}.${randomToken(32)}`,
	refresh: `eyJ.${randomToken(40)}.${randomToken(32)}`,
	mainAccess: `eyJ.${randomToken(40)}.${randomToken(32)}`,
	mainRefresh: `eyJ.${randomToken(40)}.${randomToken(32)}`,
}

describe('sealed session secrets', () => {
	const cookie = randomToken(32)
	const hash = sha256(cookie)
	const sealed = sealSession(cookie, hash, 7, SECRETS)

	it('open with the cookie value for their row, and hold none of the secrets as text', () => {
		expect(openSealedSession(cookie, hash, 7, sealed)).toEqual(SECRETS)
		for (const value of Object.values(SECRETS)) expect(sealed).not.toContain(value)
		expect(sealed).not.toContain(cookie)
		// A fresh IV each time: two seals of the same secrets differ.
		expect(sealSession(cookie, hash, 7, SECRETS)).not.toBe(sealed)
	})

	it('keep family A sessions without a main-server pair', () => {
		const { mainAccess: _a, mainRefresh: _r, ...familyA } = SECRETS
		const opened = openSealedSession(cookie, hash, 7, sealSession(cookie, hash, 7, familyA))
		expect(opened).toEqual({ ...familyA, mainAccess: undefined, mainRefresh: undefined })
	})

	it('do not open with the id hash (what the table holds), another cookie, row or user', () => {
		expect(openSealedSession(hash, hash, 7, sealed)).toBeNull()
		expect(openSealedSession(randomToken(32), hash, 7, sealed)).toBeNull()
		expect(openSealedSession(cookie, sha256('other'), 7, sealed)).toBeNull()
		expect(openSealedSession(cookie, hash, 8, sealed)).toBeNull()
	})

	it('refuse a changed or malformed text', () => {
		const [version, iv, body] = sealed.split('.') as [string, string, string]
		const flipped = `${body.slice(0, 5)}${body[5] === 'A' ? 'B' : 'A'}${body.slice(6)}`
		expect(openSealedSession(cookie, hash, 7, `${version}.${iv}.${flipped}`)).toBeNull()
		for (const bad of ['', 'v1', 'v1..', `v2.${iv}.${body}`, `v1.${iv}.AAAA`, JSON.stringify(SECRETS)])
			expect(openSealedSession(cookie, hash, 7, bad)).toBeNull()
	})
})
