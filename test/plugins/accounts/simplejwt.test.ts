import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { createHmac } from 'node:crypto'
import { readClaims } from '../../../src/server/auth/tokens'
import { type AccountsApp, registerAccount, startAccounts, tokenPair } from './support'

/**
 * A service built on djangorestframework-simplejwt shares our signing key: it must accept our
 * access tokens and refuse a refresh token where an access token belongs, as we must. The verifier
 * below is written from simplejwt's defaults, with WebCrypto only: ALGORITHM HS256 (the header's
 * `alg`, nothing else), the signature, `exp` (LEEWAY 0) and `iat` as PyJWT checks them,
 * TOKEN_TYPE_CLAIM `token_type` equal to the token class's type (AccessToken: `access`),
 * JTI_CLAIM `jti` present, and USER_ID_CLAIM `user_id` naming the user (JWTAuthentication).
 */
type Verdict = { ok: true; userId: number } | { ok: false; reason: string }

const b64url = (text: string) => Buffer.from(text, 'base64url')

async function simplejwtVerify(
	token: string,
	key: string,
	tokenType: 'access' | 'refresh',
): Promise<Verdict> {
	const parts = token.split('.')
	if (parts.length !== 3) return { ok: false, reason: 'Token is invalid' }
	const [header, payload, signature] = parts as [string, string, string]
	const head = JSON.parse(b64url(header).toString('utf8')) as { alg?: string }
	if (head.alg !== 'HS256') return { ok: false, reason: 'The specified alg value is not allowed' }
	const hmac = await crypto.subtle.importKey(
		'raw',
		new TextEncoder().encode(key),
		{ name: 'HMAC', hash: 'SHA-256' },
		false,
		['verify'],
	)
	const signed = await crypto.subtle.verify(
		'HMAC',
		hmac,
		b64url(signature),
		new TextEncoder().encode(`${header}.${payload}`),
	)
	if (!signed) return { ok: false, reason: 'Signature verification failed' }
	const claims = JSON.parse(b64url(payload).toString('utf8')) as Record<string, unknown>
	const now = Math.floor(Date.now() / 1000)
	if (typeof claims.exp !== 'number') return { ok: false, reason: "Token has no 'exp' claim" }
	if (claims.exp <= now) return { ok: false, reason: 'Token is expired' }
	if (claims.iat !== undefined && (typeof claims.iat !== 'number' || claims.iat > now))
		return { ok: false, reason: 'The token is not yet valid (iat)' }
	if (!('jti' in claims)) return { ok: false, reason: 'Token has no id' }
	if (claims.token_type !== tokenType) return { ok: false, reason: 'Token has wrong type' }
	if (typeof claims.user_id !== 'number')
		return { ok: false, reason: 'Token contained no recognizable user identification' }
	return { ok: true, userId: claims.user_id }
}

let app: AccountsApp
beforeAll(async () => {
	app = await startAccounts()
})
afterAll(() => app.stop())

const key = () => app.config.secrets.jwtSecret
const refresh = (token: string) => app.post('/accounts/token/refresh/', { refresh: token })

describe('tokens and a simplejwt service sharing the signing key', () => {
	it('the simplejwt verifier accepts our access token for its user, and our refresh token as a refresh token', async () => {
		const user = await registerAccount(app)
		const pair = await tokenPair(app, user.email)
		expect(await simplejwtVerify(pair.access, key(), 'access')).toEqual({ ok: true, userId: user.id })
		expect(await simplejwtVerify(pair.refresh, key(), 'refresh')).toEqual({ ok: true, userId: user.id })
		// Another key is another service: nothing passes.
		expect(await simplejwtVerify(pair.access, 'x'.repeat(40), 'access')).toEqual({
			ok: false,
			reason: 'Signature verification failed',
		})
	})

	it('the simplejwt verifier refuses each of our tokens where the other type belongs', async () => {
		const user = await registerAccount(app)
		const pair = await tokenPair(app, user.email)
		expect(await simplejwtVerify(pair.refresh, key(), 'access')).toEqual({
			ok: false,
			reason: 'Token has wrong type',
		})
		expect(await simplejwtVerify(pair.access, key(), 'refresh')).toEqual({
			ok: false,
			reason: 'Token has wrong type',
		})
	})

	it('our server refuses a token of the wrong type: a refresh token as bearer, an access token to refresh or blacklist', async () => {
		const user = await registerAccount(app)
		const pair = await tokenPair(app, user.email)
		const asBearer = await app.me({ access: pair.refresh })
		expect(asBearer.status).toBe(401)
		expect(await asBearer.json()).toEqual({ detail: 'Token is invalid or expired', code: 'token_not_valid' })
		const asRefresh = await refresh(pair.access)
		expect(asRefresh.status).toBe(401)
		expect((await app.post('/accounts/token/blacklist/', { refresh: pair.access })).status).toBe(401)
		// Both still work where they belong: nothing was spent by the refusals.
		expect((await app.me({ access: pair.access })).status).toBe(200)
		expect((await refresh(pair.refresh)).status).toBe(200)
	})

	it('our server refuses a token signed with our key whose token_type is wrong, and reads a token signed before the rename', async () => {
		const user = await registerAccount(app)
		const pair = await tokenPair(app, user.email)
		const claims = readClaims(pair.access)
		if (!claims) throw new Error('no claims')
		const sign = (body: Record<string, unknown>) => {
			const head = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url')
			const data = `${head}.${Buffer.from(JSON.stringify(body)).toString('base64url')}`
			return `${data}.${createHmac('sha256', key()).update(data).digest('base64url')}`
		}
		const { token_type: _, ...rest } = claims
		expect((await app.me({ access: sign({ ...rest, token_type: 'refresh' }) })).status).toBe(401)
		expect((await app.me({ access: sign({ ...rest, token_type: 'sliding' }) })).status).toBe(401)
		expect((await app.me({ access: sign({ ...rest, token_type: 'access' }) })).status).toBe(200)
		// `typ` is what tokens of the previous version carried; `token_type`, when present, decides.
		expect((await app.me({ access: sign({ ...rest, typ: 'access' }) })).status).toBe(200)
		expect((await app.me({ access: sign({ ...rest, typ: 'access', token_type: 'refresh' }) })).status).toBe(
			401,
		)
	})
})
