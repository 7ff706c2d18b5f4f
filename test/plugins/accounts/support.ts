import { eq } from 'drizzle-orm'
import { session } from '../../../db/schema'
import { accounts } from '../../../plugins/accounts'
import { createLogger } from '../../../src/common/util/logger'
import type { AuthCore } from '../../../src/server/auth'
import { sha256 } from '../../../src/server/auth/crypto'
import { openSealedSession } from '../../../src/server/auth/session-seal'
import { getTestInstance, type TestInstance } from '../../helpers'

/** Shared steps of the accounts tests (and the accounts benchmark): an app with only this plugin. */
export interface AccountsApp extends TestInstance {
	core: AuthCore
	/** JSON POST; a string body is sent as it is. */
	post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>
	get(path: string, headers?: Record<string, string>): Promise<Response>
	/** GET /accounts/me/ with a session's cookie header or a bearer access token. */
	me(auth: { cookie: string } | { access: string }): Promise<Response>
}

export interface StartOptions {
	/** Receives every log line (JSON), at info level and above. */
	logLines?: string[]
}

export async function startAccounts(
	env: Record<string, string> = {},
	opts: StartOptions = {},
): Promise<AccountsApp> {
	const lines = opts.logLines
	const instance = await getTestInstance(
		lines ? { LOG_LEVEL: 'info', ...env } : env,
		lines
			? { plugins: [accounts()], logger: createLogger('info', {}, (line) => lines.push(line)) }
			: { plugins: [accounts()] },
	)
	const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
		fetch(instance.url + path, {
			method: 'POST',
			headers: { 'content-type': 'application/json', ...headers },
			body: typeof body === 'string' ? body : JSON.stringify(body),
		})
	const get = (path: string, headers: Record<string, string> = {}) => fetch(instance.url + path, { headers })
	const me = (auth: { cookie: string } | { access: string }) =>
		get(
			'/accounts/me/',
			'cookie' in auth ? { cookie: auth.cookie } : { authorization: `Bearer ${auth.access}` },
		)
	return { ...instance, core: instance.auth, post, get, me }
}

export const PASSWORD = 'Vq7#pLm2!xZr9wTb'

let counter = 0
/** A fresh address per call: rate limits count per email, so tests do not collide. */
export const uniqueEmail = (tag = 'user') =>
	`${tag}.${Date.now().toString(36)}${(counter++).toString(36)}@example.com`

export interface Account {
	id: number
	email: string
}

export async function registerAccount(
	app: AccountsApp,
	fields: { email?: string; first_name?: string; last_name?: string; invite?: string } = {},
): Promise<Account> {
	const email = fields.email ?? uniqueEmail()
	const res = await app.post('/accounts/register/', {
		password: PASSWORD,
		first_name: 'Ada',
		last_name: 'Lovelace',
		...fields,
		email,
	})
	if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`)
	return (await res.json()) as Account
}

export interface LoggedIn {
	sessionId: string
	csrfToken: string
	/** `Cookie` header value carrying both cookies. */
	cookie: string
	setCookies: string[]
}

export async function login(
	app: AccountsApp,
	email: string,
	password = PASSWORD,
	headers: Record<string, string> = {},
) {
	const res = await app.post('/accounts/login/', { email, password }, headers)
	if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`)
	const setCookies = res.headers.getSetCookie()
	const value = (name: string) =>
		setCookies
			.find((c) => c.startsWith(`${name}=`))
			?.split(';')[0]
			?.slice(name.length + 1) ?? ''
	const sessionId = value('sessionid')
	const csrfToken = value('csrftoken')
	return {
		sessionId,
		csrfToken,
		cookie: `sessionid=${sessionId}; csrftoken=${csrfToken}`,
		setCookies,
	} satisfies LoggedIn
}

export async function tokenPair(app: AccountsApp, email: string, password = PASSWORD) {
	const res = await app.post('/accounts/token/', { email, password })
	if (res.status !== 200) throw new Error(`token failed: ${res.status}`)
	return (await res.json()) as { access: string; refresh: string }
}

/**
 * The server-side row of a session, or undefined once it is gone, with what it holds sealed
 * (its JWT pair, its CSRF token, family B's main pair), opened with the cookie value as a request
 * that carries it would.
 */
export async function storedSession(app: Pick<TestInstance, 'ctx'>, sessionId: string) {
	const [row] = await app.ctx.db
		.select()
		.from(session)
		.where(eq(session.idHash, sha256(sessionId)))
	if (!row) return undefined
	const secrets = openSealedSession(sessionId, row.idHash, row.userId, row.sealed)
	if (!secrets) throw new Error('the session row does not open with its cookie value')
	return {
		...row,
		csrfToken: secrets.csrfToken,
		accessToken: secrets.access,
		refreshToken: secrets.refresh,
		mainAccessToken: secrets.mainAccess,
		mainRefreshToken: secrets.mainRefresh,
	}
}
