import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { company, session, userProfile } from '../../../db/schema'
import type { TestInstance } from '../../helpers'
import {
	FAKE_PAIR,
	FAKE_PROFILE,
	type FakeHandler,
	type FakeMain,
	jsonAnswer,
	stalledBody,
	startFakeMain,
} from './fake-main'
import {
	edgeLogin,
	edgeSession,
	loggedIn,
	logout,
	MAIN_UNAVAILABLE,
	mainAccount,
	type Pair,
	startEdge,
	startPair,
} from './support'

const fakes: FakeMain[] = []
const edges: TestInstance[] = []
afterAll(async () => {
	for (const e of edges) await e.stop()
	for (const f of fakes) await f.stop()
})

/** An edge in front of a fake main answering as `handler` says. */
async function edgeBefore(handler: FakeHandler, env: Record<string, string> = {}) {
	const fake = startFakeMain(handler)
	fakes.push(fake)
	const edge = await startEdge(fake.url, env)
	edges.push(edge)
	return { fake, edge }
}

const countRows = async (edge: TestInstance) => ({
	users: (await edge.ctx.db.select().from(userProfile)).length,
	companies: (await edge.ctx.db.select().from(company)).length,
	sessions: (await edge.ctx.db.select().from(session)).length,
})

/** The answer is 502 "Main server unavailable", and nothing was stored nor any cookie set. */
async function expectUnavailable(edge: TestInstance, email = FAKE_PROFILE.email) {
	const login = await edgeLogin(edge, email)
	expect(login.status).toBe(502)
	expect(login.body).toEqual(MAIN_UNAVAILABLE)
	expect(login.setCookies).toEqual([])
	expect(await countRows(edge)).toEqual({ users: 0, companies: 0, sessions: 0 })
}

describe('main server stopped', () => {
	let pair: Pair
	beforeAll(async () => {
		pair = await startPair()
	})
	afterAll(() => pair.stop())

	it('answers login 502 with no local session, and logout still clears everything here', async () => {
		const owner = await mainAccount(pair.main)
		const login = await loggedIn(pair.edge, owner.email)
		await pair.main.halt()
		const before = await countRows(pair.edge)
		const refused = await edgeLogin(pair.edge, owner.email)
		expect(refused.status).toBe(502)
		expect(refused.body).toEqual(MAIN_UNAVAILABLE)
		expect(refused.setCookies).toEqual([])
		expect(await countRows(pair.edge)).toEqual(before)

		const res = await logout(pair.edge, login.cookie)
		expect(res.status).toBe(200)
		expect(await res.json()).toEqual({
			message:
				'Logged out on this server; the main server could not be reached, so its session may still be active.',
		})
		const cookies = res.headers.getSetCookie()
		expect(cookies.some((c) => c.startsWith('sessionid=;') && c.includes('Max-Age=0'))).toBe(true)
		expect(cookies.some((c) => c.startsWith('csrftoken=;') && c.includes('Max-Age=0'))).toBe(true)
		expect(await edgeSession(pair.edge, login.sessionId)).toBeUndefined()
		const me = await fetch(`${pair.edge.url}/accounts/me/`, { headers: { cookie: login.cookie } })
		expect(me.status).toBe(401)
	})

	it('does not count a login the main server could not answer toward the rate limit', async () => {
		for (let i = 0; i < 7; i++) expect((await edgeLogin(pair.edge, 'someone@example.com')).status).toBe(502)
	})
})

describe('main server slow, failing or sending garbage', () => {
	it('answers 502 when the main does not answer within MAIN_SERVER_TIMEOUT', async () => {
		let fake: FakeMain | undefined
		const made = await edgeBefore(
			async () => {
				await fake?.never()
				return jsonAnswer(FAKE_PAIR)
			},
			{ MAIN_SERVER_TIMEOUT: '300' },
		)
		fake = made.fake
		await expectUnavailable(made.edge)
		expect(made.fake.calls).toEqual(['POST /accounts/token/'])
	})

	it('answers 502 when the main sends headers and then stalls its body', async () => {
		const { edge } = await edgeBefore(() => stalledBody(), { MAIN_SERVER_TIMEOUT: '300' })
		await expectUnavailable(edge)
	})

	it('answers 502 when me/ is slow: one deadline covers token/ and me/, and the pair is blacklisted', async () => {
		let fake: FakeMain | undefined
		const made = await edgeBefore(
			async (path) => {
				if (path === '/accounts/token/') return jsonAnswer(FAKE_PAIR)
				if (path === '/accounts/me/') await fake?.never()
				return jsonAnswer({})
			},
			{ MAIN_SERVER_TIMEOUT: '300' },
		)
		fake = made.fake
		await expectUnavailable(made.edge)
		expect(made.fake.calls).toContain('POST /accounts/token/blacklist/')
		expect(made.fake.bodies.at(-1)).toEqual({ refresh: FAKE_PAIR.refresh })
	})

	it.each([
		['a 5xx', () => jsonAnswer({ detail: 'boom' }, 503)],
		[
			'a redirect (not followed)',
			() => new Response(null, { status: 302, headers: { location: 'http://127.0.0.1:1/' } }),
		],
		['HTML', () => new Response('<html></html>', { headers: { 'content-type': 'text/html' } })],
		['JSON without a token pair', () => jsonAnswer({ access: FAKE_PAIR.access })],
		['a token that is no JWT', () => jsonAnswer({ access: 'a b', refresh: FAKE_PAIR.refresh })],
		['an answer too large', () => jsonAnswer({ ...FAKE_PAIR, pad: 'x'.repeat(100_000) })],
		['a 403', () => jsonAnswer({ detail: 'no' }, 403)],
	])('answers 502 when token/ sends %s', async (_, answer) => {
		const { edge } = await edgeBefore(() => answer())
		await expectUnavailable(edge)
	})

	const garbage: Array<[string, Record<string, unknown>]> = [
		['a control character in a name', { first_name: 'Eve\u0000il' }],
		['a line separator in a name', { last_name: 'One\u2028Two' }],
		[
			'a bidirectional override in the company name',
			{ company: { id: 7, name: 'Acme\u202Eevil', active: true } },
		],
		['a name over 150 characters', { first_name: 'n'.repeat(151) }],
		['an e-mail that is no e-mail', { email: 'not-an-email' }],
		['an id that is no integer', { id: 1.5 }],
		['no status', { status: null }],
		['a company without its active flag', { company: { id: 7, name: 'Acme' } }],
		['a lone surrogate in a name', { first_name: 'Bad\uD800' }],
	]
	it.each(garbage)(
		'answers 502, stores nothing and blacklists the pair when me/ sends %s',
		async (_, change) => {
			const { fake, edge } = await edgeBefore((path) => {
				if (path === '/accounts/token/') return jsonAnswer(FAKE_PAIR)
				if (path === '/accounts/me/') return jsonAnswer({ ...FAKE_PROFILE, ...change })
				return jsonAnswer({})
			})
			await expectUnavailable(edge)
			expect(fake.calls).toEqual([
				'POST /accounts/token/',
				'GET /accounts/me/',
				'POST /accounts/token/blacklist/',
			])
		},
	)

	it('stores names from the main in NFC', async () => {
		const { edge } = await edgeBefore((path) => {
			if (path === '/accounts/token/') return jsonAnswer(FAKE_PAIR)
			if (path === '/accounts/me/') return jsonAnswer({ ...FAKE_PROFILE, first_name: 'Zoe\u0301' })
			return jsonAnswer({})
		})
		const login = await edgeLogin(edge, FAKE_PROFILE.email)
		expect(login.status).toBe(200)
		const [row] = await edge.ctx.db
			.select()
			.from(userProfile)
			.where(eq(userProfile.email, FAKE_PROFILE.email))
		expect(row?.firstName).toBe('Zo\u00e9')
	})

	it('reaches a main server served under a path prefix', async () => {
		const fake = startFakeMain((path) => {
			if (path === '/prefix/accounts/token/') return jsonAnswer(FAKE_PAIR)
			if (path === '/prefix/accounts/me/') return jsonAnswer(FAKE_PROFILE)
			return jsonAnswer({}, 404)
		})
		fakes.push(fake)
		const edge = await startEdge(`${fake.url}/prefix`)
		edges.push(edge)
		expect((await edgeLogin(edge, FAKE_PROFILE.email)).status).toBe(200)
		expect(fake.calls).toEqual(['POST /prefix/accounts/token/', 'GET /prefix/accounts/me/'])
	})

	it('passes the main server throttling on as 429 with its Retry-After, and does not count it', async () => {
		const { fake, edge } = await edgeBefore(() =>
			jsonAnswer({ detail: 'slow down' }, 429, { 'retry-after': '42' }),
		)
		for (let i = 0; i < 6; i++) {
			const login = await edgeLogin(edge, FAKE_PROFILE.email)
			expect(login.status).toBe(429)
			expect(login.res.headers.get('retry-after')).toBe('42')
			expect(login.body).toEqual({
				detail: 'Request was throttled. Expected available in 42 seconds.',
				code: 'throttled',
			})
		}
		// Every one of them reached the main: none was counted here.
		expect(fake.calls.length).toBe(6)
	})
})
