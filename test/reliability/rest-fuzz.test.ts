import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import fc from 'fast-check'
import { getTestInstance, type TestInstance } from '../helpers'
import { createLoggedInUserbot, registerUser, type TestUser } from '../helpers-ws'
import { type FakeMain, jsonAnswer, startFakeMain } from '../plugins/api-accounts/fake-main'
import { type Route, requestArbitrary } from './rest-arbitraries'
import { type RestState, sendRest } from './rest-driver'
import { runtimeCounts } from './runtime-counts'

/**
 * Issue 13: random REST bodies against every route of every plugin (family A, family B against a
 * main server that answers junk, userbots), seeded and bounded. No request may get a 5xx, a body
 * that is not JSON, or a leak; the server and its supervisor stay up. `FUZZ_SEED`, `FUZZ_RUNS`.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261122)
const RUNS = Number(process.env.FUZZ_RUNS ?? 30)

/** The main server of family B, answering in turn every way a main server can go wrong. */
const MAIN_ANSWERS: Array<() => Response> = [
	() => jsonAnswer({ detail: 'No active account found with the given credentials' }, 401),
	() => jsonAnswer({ detail: 'throttled' }, 429, { 'retry-after': 'soon' }),
	() => jsonAnswer({ access: 5, refresh: null }),
	() => new Response('<html>', { status: 200 }),
	() => jsonAnswer({ id: 'x', email: '\u0000', company: [] }),
	() => new Response(null, { status: 302, headers: { location: 'http://127.0.0.1:9/' } }),
	() => jsonAnswer({ detail: 'oops' }, 500),
]

let t: TestInstance
let main: FakeMain
let alice: TestUser
let state: RestState
let foreignUserbotId: number

const bearerJson = (token: string, body?: unknown): RequestInit => ({
	method: 'POST',
	headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
	body: JSON.stringify(body ?? {}),
})

/** Puts back what a fuzzed request took away: the bearer token, the userbot, the invite. */
async function restore() {
	const me = await fetch(`${t.url}/accounts/me/`, { headers: { authorization: `Bearer ${state.bearer}` } })
	if (me.status !== 200) {
		const tok = await fetch(`${t.url}/accounts/token/`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ email: alice.email, password: alice.password }),
		})
		state.bearer = ((await tok.json()) as { access: string }).access
	}
	const bot = await fetch(`${t.url}/api/userbots/${state.userbotId}/`, {
		headers: { authorization: `Bearer ${state.bearer}` },
	})
	if (bot.status === 404) {
		const made = await fetch(`${t.url}/api/userbots/`, bearerJson(state.bearer, { name: 'fuzz' }))
		state.userbotId = ((await made.json()) as { id: number }).id
	}
}

beforeAll(async () => {
	let turn = 0
	main = startFakeMain(() => MAIN_ANSWERS[turn++ % MAIN_ANSWERS.length]!())
	t = await getTestInstance({ MAIN_SERVER_URL: main.url, COMMAND_TIMEOUT: '3000' })
	alice = await registerUser(t, 'rest-fuzz-alice@example.com')
	const mallory = await registerUser(t, 'rest-fuzz-mallory@example.com')
	const userbotId = await createLoggedInUserbot(t, alice.companyId)
	foreignUserbotId = await createLoggedInUserbot(t, mallory.companyId, '9996614444')
	const invite = await fetch(`${t.url}/accounts/invites/`, bearerJson(alice.access))
	const inviteId = ((await invite.json()) as { id: number }).id
	state = { bearer: alice.access, userbotId, inviteId }
})
afterAll(async () => {
	await t.stop()
	await main.stop()
})

describe('fuzzed REST requests', () => {
	it('are answered below 500, in JSON (pages and assets aside), without a leak, on every route', async () => {
		const routes: Route[] = t.app.routes
			.filter((r) => r.method !== 'WS' && r.method !== 'ALL')
			.map((r) => ({ method: r.method, path: r.path }))
		// Every plugin's routes are fuzzed: family A, family B, userbots, health.
		for (const prefix of ['/accounts/', '/api/accounts/', '/api/userbots/', '/health']) {
			expect(routes.some((r) => r.path.startsWith(prefix))).toBe(true)
		}
		const pid = runtimeCounts(t).pid
		const statuses = new Map<number, number>()
		const hit = new Set<string>()
		let sent = 0
		const requests = fc.array(requestArbitrary(routes, { foreignUserbotId }), {
			minLength: 10,
			maxLength: 30,
			size: 'max',
		})
		await fc.assert(
			fc.asyncProperty(requests, async (batch) => {
				await restore()
				const answers = await Promise.all(batch.map((req) => sendRest(t.url, req, state)))
				sent += batch.length
				for (const [i, a] of answers.entries()) {
					statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1)
					hit.add(`${batch[i]!.method} ${batch[i]!.path}`)
				}
				const problems = answers.flatMap((a) => (a.problem ? [a.problem] : []))
				if (problems.length > 0) throw new Error(problems.slice(0, 5).join('\n'))
			}),
			{ seed: SEED, numRuns: RUNS, endOnFailure: true },
		)
		if (process.env.FUZZ_VERBOSE)
			console.log(
				sent,
				[...statuses].sort((a, b) => a[0] - b[0]),
			)
		expect(sent).toBeGreaterThanOrEqual(RUNS * 10)
		// Requests got past the checks too (2xx), not only refusals.
		expect([...statuses.keys()].some((s) => s >= 200 && s < 300)).toBe(true)
		expect(runtimeCounts(t).pid).toBe(pid)
		expect(runtimeCounts(t).restarts).toBe(0)
		const health = await fetch(`${t.url}/health`)
		expect(health.status).toBe(200)
	}, 120_000)
})
