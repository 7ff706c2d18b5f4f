import { and, eq } from 'drizzle-orm'
import { company, refreshToken, session, statusOnWork, userProfile } from '../../../db/schema'
import type { AuthCore } from '../../../src/server/auth'
import { getTestInstance, type TestInstance } from '../../helpers'
import { storedSession } from '../accounts/support'

/**
 * Two real instances on 127.0.0.1, each on its own data folder and libSQL file: a main server with
 * family A, and an edge with family B (and family A, to show its users cannot use it) whose
 * MAIN_SERVER_URL is the main's URL. No Telegram runtime unless a test asks for the emulator.
 */
export interface Pair {
	main: TestInstance
	edge: TestInstance
	mainCore: AuthCore
	edgeCore: AuthCore
	stop(): Promise<void>
}

export interface PairOptions {
	edgeEnv?: Record<string, string>
	mainLogLines?: string[]
	edgeLogLines?: string[]
	/** Point the edge at this URL instead of the main's (a fake main server). */
	mainUrl?: string
}

const NO_TELEGRAM = { TDLIB_BACKEND: 'tdlib' }

export async function startPair(opts: PairOptions = {}): Promise<Pair> {
	const main = await getTestInstance({ ...NO_TELEGRAM, PLUGINS: 'accounts' }, { logLines: opts.mainLogLines })
	try {
		const edge = await startEdge(opts.mainUrl ?? main.url, opts.edgeEnv, opts.edgeLogLines)
		return {
			main,
			edge,
			mainCore: main.auth,
			edgeCore: edge.auth,
			async stop() {
				await edge.stop()
				await main.stop()
			},
		}
	} catch (err) {
		await main.stop()
		throw err
	}
}

export function startEdge(mainUrl: string, env: Record<string, string> = {}, logLines?: string[]) {
	return getTestInstance(
		{ ...NO_TELEGRAM, PLUGINS: 'accounts,api-accounts', MAIN_SERVER_URL: mainUrl, ...env },
		{ logLines },
	)
}

export const PASSWORD = 'Vq7#pLm2!xZr9wTb'

let counter = 0
export const uniqueEmail = (tag = 'user') =>
	`${tag}.${Date.now().toString(36)}${(counter++).toString(36)}@example.com`

export function post(base: string, path: string, body: unknown, headers: Record<string, string> = {}) {
	return fetch(base + path, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...headers },
		body: typeof body === 'string' ? body : JSON.stringify(body),
	})
}

export interface MainAccount {
	id: number
	email: string
	password: string
	companyId: number
	/** A bearer access token on the main (to invite, as an owner). */
	access: string
}

/**
 * Registers an account on the main: the owner of a new company, or with `invitedBy` a member of
 * that owner's company (through a real invite).
 */
export async function mainAccount(
	main: TestInstance,
	fields: { first_name?: string; last_name?: string; invitedBy?: MainAccount; email?: string } = {},
): Promise<MainAccount> {
	const email = fields.email ?? uniqueEmail()
	let invite: string | undefined
	if (fields.invitedBy) {
		const res = await post(
			main.url,
			'/accounts/invites/',
			{},
			{ authorization: `Bearer ${fields.invitedBy.access}` },
		)
		if (res.status !== 201) throw new Error(`invite: ${res.status} ${await res.text()}`)
		invite = ((await res.json()) as { token: string }).token
	}
	const reg = await post(main.url, '/accounts/register/', {
		email,
		password: PASSWORD,
		first_name: fields.first_name ?? 'Ada',
		last_name: fields.last_name ?? 'Lovelace',
		...(invite ? { invite } : {}),
	})
	if (reg.status !== 201) throw new Error(`register: ${reg.status} ${await reg.text()}`)
	const { id } = (await reg.json()) as { id: number }
	const tok = await post(main.url, '/accounts/token/', { email, password: PASSWORD })
	const { access } = (await tok.json()) as { access: string }
	const [row] = await main.ctx.db.select().from(userProfile).where(eq(userProfile.id, id))
	if (!row?.companyId) throw new Error('registered without a company')
	return { id, email, password: PASSWORD, companyId: row.companyId, access }
}

export interface EdgeLogin {
	res: Response
	status: number
	body: Record<string, unknown>
	sessionId: string
	csrfToken: string
	/** `Cookie` header value with both cookies. */
	cookie: string
	setCookies: string[]
}

export async function edgeLogin(
	edge: TestInstance,
	email: string,
	password = PASSWORD,
	headers: Record<string, string> = {},
): Promise<EdgeLogin> {
	const res = await post(edge.url, '/api/accounts/login/', { email, password }, headers)
	const body = (await res.json()) as Record<string, unknown>
	const setCookies = res.headers.getSetCookie()
	const value = (name: string) =>
		setCookies
			.find((c) => c.startsWith(`${name}=`))
			?.split(';')[0]
			?.slice(name.length + 1) ?? ''
	const sessionId = value('sessionid')
	const csrfToken = value('csrftoken')
	return {
		res,
		status: res.status,
		body,
		sessionId,
		csrfToken,
		cookie: `sessionid=${sessionId}; csrftoken=${csrfToken}`,
		setCookies,
	}
}

/** Logs in on the edge and fails the test unless it worked. */
export async function loggedIn(edge: TestInstance, email: string): Promise<EdgeLogin> {
	const login = await edgeLogin(edge, email)
	if (login.status !== 200) throw new Error(`edge login: ${login.status} ${JSON.stringify(login.body)}`)
	return login
}

export const logout = (edge: TestInstance, cookie: string, headers: Record<string, string> = {}) =>
	post(edge.url, '/api/accounts/logout/', {}, { cookie, origin: edge.url, ...headers })

/** No API sets a work status: an administrator writes the main's database; its cache is told. */
export async function setMainStatus(pair: Pair, userId: number, code: string) {
	const [status] = await pair.main.ctx.db.select().from(statusOnWork).where(eq(statusOnWork.code, code))
	if (!status) throw new Error(`no status ${code}`)
	await pair.main.ctx.db.update(userProfile).set({ statusId: status.id }).where(eq(userProfile.id, userId))
	pair.mainCore.invalidateUser(userId)
}

export async function setMainProfile(
	pair: Pair,
	userId: number,
	fields: Partial<typeof userProfile.$inferInsert>,
) {
	await pair.main.ctx.db.update(userProfile).set(fields).where(eq(userProfile.id, userId))
	pair.mainCore.invalidateUser(userId)
}

export async function setMainCompanyActive(pair: Pair, companyId: number, active: boolean) {
	await pair.main.ctx.db.update(company).set({ active }).where(eq(company.id, companyId))
	const members = await pair.main.ctx.db
		.select({ id: userProfile.id })
		.from(userProfile)
		.where(eq(userProfile.companyId, companyId))
	for (const m of members) pair.mainCore.invalidateUser(m.id)
}

/** The main's live (active) refresh tokens of a user: what a login there leaves behind. */
export async function liveMainTokens(pair: Pair, userId: number) {
	return pair.main.ctx.db
		.select()
		.from(refreshToken)
		.where(and(eq(refreshToken.userId, userId), eq(refreshToken.state, 'active')))
}

export async function edgeUser(edge: TestInstance, email: string) {
	const [row] = await edge.ctx.db.select().from(userProfile).where(eq(userProfile.email, email))
	return row
}

/** The edge's session row with its sealed secrets opened (test/plugins/accounts/support.ts). */
export const edgeSession = (edge: TestInstance, sessionId: string) => storedSession(edge, sessionId)

export async function edgeSessionsOf(edge: TestInstance, userId: number) {
	return edge.ctx.db.select().from(session).where(eq(session.userId, userId))
}

export const PERMISSION_DENIED = (code: string) => ({ detail: 'Permission denied', code })
export const MAIN_UNAVAILABLE = { detail: 'Main server unavailable' }
export const BAD_CREDENTIALS = {
	detail: 'No active account found with the given credentials',
	code: 'no_active_account',
}
