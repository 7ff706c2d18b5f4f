import { createHmac } from 'node:crypto'
import { randomToken, safeEqual } from './crypto'

/**
 * HS256 JWTs in simplejwt's shape: `typ` (access | refresh), `jti`, `fam` (the rotation family
 * every refresh descends from), `user_id`, `iat`, `exp`. Signing is a plain HMAC, synchronous and
 * cheap, which keeps bearer checks off the hot path's async work.
 */
export type TokenType = 'access' | 'refresh'

export interface TokenClaims {
	typ: TokenType
	jti: string
	fam: string
	user_id: number
	iat: number
	exp: number
}

export interface IssuedToken {
	token: string
	claims: TokenClaims
}

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url')

export interface TokenSigner {
	sign(typ: TokenType, userId: number, family: string, lifetimeSeconds: number, now?: number): IssuedToken
	/** The claims when the signature, type and expiry are good, else null. */
	verify(token: string, typ: TokenType, now?: number): TokenClaims | null
}

export function createTokenSigner(secret: string): TokenSigner {
	const mac = (data: string) => createHmac('sha256', secret).update(data).digest('base64url')
	return {
		sign(typ, userId, family, lifetimeSeconds, now = Date.now()) {
			const iat = Math.floor(now / 1000)
			const claims: TokenClaims = {
				typ,
				jti: randomToken(16),
				fam: family,
				user_id: userId,
				iat,
				exp: iat + lifetimeSeconds,
			}
			const body = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`
			return { token: `${body}.${mac(body)}`, claims }
		},
		verify(token, typ, now = Date.now()) {
			if (token.length > 2048) return null
			const parts = token.split('.')
			if (parts.length !== 3 || parts[0] !== HEADER) return null
			const [header, payload, signature] = parts as [string, string, string]
			if (!safeEqual(mac(`${header}.${payload}`), signature)) return null
			const claims = decodeClaims(payload)
			if (!claims || claims.typ !== typ || claims.exp * 1000 <= now) return null
			return claims
		},
	}
}

/** Reads the claims of a token this server stored itself (the session's pair), without checking. */
export function readClaims(token: string): TokenClaims | null {
	const payload = token.split('.')[1]
	return payload ? decodeClaims(payload) : null
}

function decodeClaims(payload: string): TokenClaims | null {
	try {
		const c = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<TokenClaims>
		if (
			(c.typ === 'access' || c.typ === 'refresh') &&
			typeof c.jti === 'string' &&
			typeof c.fam === 'string' &&
			typeof c.user_id === 'number' &&
			typeof c.iat === 'number' &&
			typeof c.exp === 'number'
		) {
			return c as TokenClaims
		}
	} catch {}
	return null
}
