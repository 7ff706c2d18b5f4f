import { createHmac } from 'node:crypto'
import { randomToken, safeEqual } from './crypto'

/**
 * HS256 JWTs in simplejwt's shape, with its default claim names: `token_type` (access | refresh),
 * `jti`, `user_id`, `iat`, `exp`, and our `fam` (the rotation family every refresh descends from). A
 * simplejwt service configured with the same signing key accepts our access tokens, and refuses a
 * refresh token where an access token belongs, as we do. Signing is a plain HMAC, synchronous and
 * cheap, which keeps bearer checks off the hot path's async work.
 *
 * Tokens signed before the claim took simplejwt's name carry the type as `typ`: they are still
 * read (their signature is ours), so that an upgrade logs no session out; every new one is signed
 * with `token_type` only.
 */
export type TokenType = 'access' | 'refresh'

export interface TokenClaims {
	token_type: TokenType
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
				token_type: typ,
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
			if (!claims || claims.token_type !== typ || claims.exp * 1000 <= now) return null
			return claims
		},
	}
}

/** Reads the claims of a token this server stored itself (the session's pair), without checking. */
export function readClaims(token: string): TokenClaims | null {
	const payload = token.split('.')[1]
	return payload ? decodeClaims(payload) : null
}

type StoredClaims = Partial<TokenClaims> & { typ?: unknown }

function decodeClaims(payload: string): TokenClaims | null {
	try {
		const c = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as StoredClaims
		// `typ` only where `token_type` is absent: a token signed before the rename.
		const type = 'token_type' in c ? c.token_type : c.typ
		if (
			(type === 'access' || type === 'refresh') &&
			typeof c.jti === 'string' &&
			typeof c.fam === 'string' &&
			typeof c.user_id === 'number' &&
			typeof c.iat === 'number' &&
			typeof c.exp === 'number'
		) {
			return { token_type: type, jti: c.jti, fam: c.fam, user_id: c.user_id, iat: c.iat, exp: c.exp }
		}
	} catch {}
	return null
}
