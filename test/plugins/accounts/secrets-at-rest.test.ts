import { afterAll, beforeAll, describe, expect, it, setSystemTime } from 'bun:test'
import { createHmac } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { refreshToken } from '../../../db/schema'
import { sha256 } from '../../../src/server/auth/crypto'
import { readClaims } from '../../../src/server/auth/tokens'
import { getTestInstance, type TestInstance } from '../../helpers'
import { edgeLogin, mainAccount, post, startEdge } from '../api-accounts/support'
import { type Inbox, resetLinkOf, startInbox } from './smtp'
import { storedSession } from './support'

/**
 * No bearer secret at rest (docs/rest.md#secrets-at-rest): after a family A login (cookie session
 * and token pair), the refreshes of both, a reset request, an invite, an API key and a family B
 * login, none of the strings handed out (nor the JWT pairs held in the sessions, nor the ids and
 * families those tokens carry) is in the bytes of the database files, the WAL and its index
 * included; nothing read from the database is accepted as a refresh token, an access token or a
 * session cookie; and nothing in it lets one who also holds the signing key (a backup holds
 * secrets.json beside app.db) sign a token that is accepted.
 */
let inbox: Inbox
let main: TestInstance
let edge: TestInstance
/** Every credential handed out (or held for a client) during the run. */
const secrets: Record<string, string> = {}
/** What must be in the files: proof that the scan reads the rows written. */
const present: string[] = []

const files = (t: TestInstance) =>
	['app.db', 'app.db-wal', 'app.db-shm'].map((f) => join(t.dataDir, f)).filter((f) => existsSync(f))

/** What a JWT carries that the server looks up: its id and its family, by the token's name. */
const idsOf = (tokens: Record<string, string>) =>
	Object.entries(tokens).flatMap(([name, value]): Array<[string, string]> => {
		const claims = readClaims(value)
		return claims
			? [
					[`${name}.jti`, claims.jti],
					[`${name}.fam`, claims.fam],
				]
			: []
	})

/** The secrets (and the ids of the tokens among them) whose bytes are in one of the files, by name. */
function found(t: TestInstance): string[] {
	const contents = files(t).map((f) => readFileSync(f))
	return [...Object.entries(secrets), ...idsOf(secrets)]
		.filter(([, value]) => contents.some((bytes) => bytes.includes(Buffer.from(value))))
		.map(([name]) => name)
}

/** An HS256 JWT in our claims' shape, signed with `secret`: what one holding the signing key can make. */
function forge(
	secret: string,
	type: 'access' | 'refresh',
	ids: { jti: string; fam: string; user_id: number },
) {
	const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
	const iat = Math.floor(Date.now() / 1000)
	const body = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ token_type: type, ...ids, iat, exp: iat + 300 })}`
	return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`
}

const TOKEN_LIKE = /[A-Za-z0-9_-]{16,}(\.[A-Za-z0-9_-]{16,}){0,2}/g

const json = async <T>(res: Response, status = 200): Promise<T> => {
	if (res.status !== status) throw new Error(`${res.url}: ${res.status} ${await res.text()}`)
	return (await res.json()) as T
}

beforeAll(async () => {
	inbox = await startInbox()
	main = await getTestInstance({ TDLIB_BACKEND: 'tdlib', PLUGINS: 'accounts', SMTP_URL: inbox.url })
	edge = await startEdge(main.url)

	// Family A: an owner with a cookie session and a token pair.
	const owner = await mainAccount(main)
	present.push(owner.email)
	const login = await post(main.url, '/accounts/login/', { email: owner.email, password: owner.password })
	expect(login.status).toBe(200)
	const cookies = login.headers.getSetCookie().map((c) => c.split(';')[0] ?? '')
	const cookieValue = (name: string) =>
		cookies.find((c) => c.startsWith(`${name}=`))?.slice(name.length + 1) ?? ''
	const sessionId = cookieValue('sessionid')
	const csrfToken = cookieValue('csrftoken')
	const cookie = `sessionid=${sessionId}; csrftoken=${csrfToken}`
	Object.assign(secrets, { sessionId, csrfToken })
	present.push(sha256(sessionId))
	const first = await storedSession(main, sessionId)
	Object.assign(secrets, { sessionAccess: first?.accessToken, sessionRefresh: first?.refreshToken })

	// The session's access token expires: the next request refreshes its pair server-side.
	setSystemTime(new Date(Date.now() + 2 * main.config.accessTokenLifetime * 1000))
	try {
		expect((await fetch(`${main.url}/accounts/me/`, { headers: { cookie } })).status).toBe(200)
	} finally {
		setSystemTime()
	}
	const rotated = await storedSession(main, sessionId)
	expect(rotated?.refreshToken).not.toBe(first?.refreshToken)
	Object.assign(secrets, { rotatedAccess: rotated?.accessToken, rotatedRefresh: rotated?.refreshToken })

	// A token pair, refreshed.
	const pair = await json<{ access: string; refresh: string }>(
		await post(main.url, '/accounts/token/', { email: owner.email, password: owner.password }),
	)
	const next = await json<{ access: string; refresh: string }>(
		await post(main.url, '/accounts/token/refresh/', { refresh: pair.refresh }),
	)
	Object.assign(secrets, {
		pairAccess: pair.access,
		pairRefresh: pair.refresh,
		nextAccess: next.access,
		nextRefresh: next.refresh,
	})

	// A reset request (the token from the mail), an invite, an API key.
	await json(await post(main.url, '/accounts/request-reset/', { email: owner.email }))
	secrets.resetToken = resetLinkOf((await inbox.next(owner.email)).text).params.get('token') ?? ''
	const bearer = { authorization: `Bearer ${next.access}` }
	secrets.inviteToken = (
		await json<{ token: string }>(await post(main.url, '/accounts/invites/', {}, bearer), 201)
	).token
	secrets.apiKey = (
		await json<{ key: string }>(await post(main.url, '/api/keys/', { name: 'ci' }, bearer), 201)
	).key

	// Family B: a session on the edge, which holds the main server's pair for it.
	const member = await mainAccount(main)
	const b = await edgeLogin(edge, member.email)
	expect(b.status).toBe(200)
	const held = await storedSession(edge, b.sessionId)
	Object.assign(secrets, {
		edgeSessionId: b.sessionId,
		edgeCsrfToken: b.csrfToken,
		edgeSessionAccess: held?.accessToken,
		edgeSessionRefresh: held?.refreshToken,
		mainAccess: held?.mainAccessToken,
		mainRefresh: held?.mainRefreshToken,
	})
	present.push(member.email)
})

afterAll(async () => {
	await edge?.stop()
	await main?.stop()
	await inbox?.close()
})

describe('the database files', () => {
	it('were given every secret to look for', () => {
		expect(Object.keys(secrets)).toHaveLength(19)
		for (const [name, value] of Object.entries(secrets))
			expect([name, typeof value]).toEqual([name, 'string'])
		for (const value of Object.values(secrets)) expect(value.length).toBeGreaterThanOrEqual(32)
	})

	it('hold none of them, in the file, the WAL or its index, while the servers run', () => {
		// The premise: the rows are in these files (the WAL at least), so the scan sees them.
		const bytes = Buffer.concat(files(main).map((f) => readFileSync(f)))
		for (const value of present.slice(0, 2)) expect(bytes.includes(Buffer.from(value))).toBe(true)
		expect(files(main).some((f) => f.endsWith('-wal'))).toBe(true)
		expect(found(main)).toEqual([])
		expect(found(edge)).toEqual([])
	})

	it('give nothing that is accepted as a refresh token, an access token or a session cookie', async () => {
		const values = new Set<string>()
		for (const t of [main, edge]) {
			const tables = await t.handle.client.execute("select name from sqlite_master where type = 'table'")
			for (const { name } of tables.rows) {
				const rows = await t.handle.client.execute(`select * from "${String(name)}"`)
				for (const row of rows.rows)
					for (const cell of Object.values(row)) {
						if (typeof cell !== 'string' || cell.length < 16) continue
						values.add(cell)
						// And every token-like piece of it (a JWT, a base64url run), should a cell hold several.
						for (const piece of cell.match(TOKEN_LIKE) ?? []) values.add(piece)
					}
			}
		}
		// The session rows, the refresh tokens' ids and families, the hashes: all of it is tried.
		expect(values.size).toBeGreaterThan(20)
		const answers = { refresh: new Set<number>(), bearer: new Set<number>(), cookie: new Set<number>() }
		for (const value of values) {
			for (const t of [main, edge]) {
				answers.refresh.add((await post(t.url, '/accounts/token/refresh/', { refresh: value })).status)
				const me = (headers: Record<string, string>) => fetch(`${t.url}/accounts/me/`, { headers })
				answers.bearer.add((await me({ authorization: `Bearer ${value}` })).status)
				answers.cookie.add((await me({ cookie: `sessionid=${value}` })).status)
			}
		}
		// 400 is a value past the field's 512 characters (the sealed session rows).
		expect([...answers.refresh].sort()).toEqual([400, 401])
		expect([...answers.bearer]).toEqual([401])
		expect([...answers.cookie]).toEqual([401])
	})

	it('give nothing to sign an accepted token with, to one who also holds the signing key', async () => {
		const answers = { access: new Set<number>(), refresh: new Set<number>() }
		let rows = 0
		for (const t of [main, edge]) {
			const secret = t.config.secrets.jwtSecret
			for (const row of await t.ctx.db.select().from(refreshToken)) {
				rows++
				const ids = { jti: row.jti, fam: row.familyId, user_id: row.userId }
				const me = await fetch(`${t.url}/accounts/me/`, {
					headers: { authorization: `Bearer ${forge(secret, 'access', ids)}` },
				})
				answers.access.add(me.status)
				answers.refresh.add(
					(await post(t.url, '/accounts/token/refresh/', { refresh: forge(secret, 'refresh', ids) })).status,
				)
			}
		}
		expect(rows).toBeGreaterThan(5)
		// The premise: the key signs what the server accepts, given a live family as a token carries it.
		const live = readClaims(secrets.nextAccess ?? '')
		const real = forge(main.config.secrets.jwtSecret, 'access', {
			jti: 'forged',
			fam: live?.fam ?? '',
			user_id: live?.user_id ?? 0,
		})
		expect(
			(await fetch(`${main.url}/accounts/me/`, { headers: { authorization: `Bearer ${real}` } })).status,
		).toBe(200)
		expect([...answers.access]).toEqual([401])
		expect([...answers.refresh]).toEqual([401])
	})

	it('hold none of them once the servers stopped and the WAL was written back', async () => {
		await main.halt()
		await edge.halt()
		const bytes = Buffer.concat(files(edge).map((f) => readFileSync(f)))
		expect(bytes.includes(Buffer.from(present[2] ?? '-'))).toBe(true)
		expect(found(main)).toEqual([])
		expect(found(edge)).toEqual([])
	})
})
