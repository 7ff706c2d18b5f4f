import { describe, expect, it } from 'bun:test'
import { createTokenSigner, readClaims } from '../../src/server/auth/tokens'

const signer = createTokenSigner('x'.repeat(32))

describe('createTokenSigner', () => {
	it('signs and verifies a token of the asked type, with jti and family', () => {
		const { token, claims } = signer.sign('access', 7, 'fam-1', 60)
		expect(signer.verify(token, 'access')).toEqual(claims)
		expect(claims.user_id).toBe(7)
		expect(claims.fam).toBe('fam-1')
		expect(claims.jti.length).toBeGreaterThan(10)
		expect(readClaims(token)).toEqual(claims)
	})

	it('refuses the other type, an expired token, a tampered one and another key', () => {
		const { token } = signer.sign('refresh', 7, 'fam-1', 60, Date.now())
		expect(signer.verify(token, 'access')).toBeNull()
		expect(signer.verify(token, 'refresh', Date.now() + 61_000)).toBeNull()
		const [h, p, s] = token.split('.') as [string, string, string]
		const forged = Buffer.from(JSON.stringify({ ...readClaims(token), user_id: 1 })).toString('base64url')
		expect(signer.verify(`${h}.${forged}.${s}`, 'refresh')).toBeNull()
		expect(signer.verify(`${h}.${p}.${s}`, 'refresh')).not.toBeNull()
		expect(createTokenSigner('y'.repeat(32)).verify(token, 'refresh')).toBeNull()
	})
})
