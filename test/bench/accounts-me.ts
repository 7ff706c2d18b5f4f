/**
 * Benchmark: GET /accounts/me/ by session against a bare Elysia route returning the same JSON, in
 * one process, driven by the same load generator on 127.0.0.1. Goal: the app serves at least half
 * the bare rate. Also prints login/ requests per second (bound by argon2id). Exits by itself.
 *
 *   node_modules/.bin/bun test/bench/accounts-me.ts
 */
import { Elysia } from 'elysia'
import { accountsPlugin } from '../../plugins/accounts'
import { getTestInstance } from '../helpers'
import { runLoad } from './load'

const DURATION = Number(process.env.BENCH_DURATION_MS ?? 3000)
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64)
const GOAL = 0.5
const PASSWORD = 'Vq7#pLm2!xZr9wTb'

const instance = await getTestInstance({ LOG_LEVEL: 'silent' }, { plugins: [accountsPlugin] })
let stopBare: (() => Promise<void>) | null = null
let exitCode = 0
try {
	const post = (path: string, body: unknown) =>
		fetch(instance.url + path, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		})
	const email = 'bench@example.com'
	const reg = await post('/accounts/register/', {
		email,
		password: PASSWORD,
		first_name: 'Bench',
		last_name: 'Mark',
	})
	if (reg.status !== 201) throw new Error(`register failed: ${reg.status}`)
	const login = await post('/accounts/login/', { email, password: PASSWORD })
	const { sessionid } = (await login.json()) as { sessionid: string }
	const cookie = `sessionid=${sessionid}`
	const meUrl = `${instance.url}/accounts/me/`
	const first = await fetch(meUrl, { headers: { cookie } })
	if (first.status !== 200) throw new Error(`me failed: ${first.status}`)
	const profile = (await first.json()) as Record<string, unknown>

	const bare = new Elysia().get('/accounts/me/', () => profile).listen({ port: 0, hostname: '127.0.0.1' })
	stopBare = async () => {
		await bare.stop(true)
	}
	const bareUrl = `http://127.0.0.1:${bare.server?.port}/accounts/me/`

	const opts = { concurrency: CONCURRENCY, durationMs: DURATION }
	// Warm both up, then measure each alone.
	await runLoad(() => fetch(meUrl, { headers: { cookie } }), { ...opts, durationMs: 500 })
	await runLoad(() => fetch(bareUrl, { headers: { cookie } }), { ...opts, durationMs: 500 })
	const app = await runLoad(() => fetch(meUrl, { headers: { cookie } }), opts)
	const base = await runLoad(() => fetch(bareUrl, { headers: { cookie } }), opts)
	const ratio = app.perSecond / base.perSecond
	console.log(
		`accounts-me: app ${Math.round(app.perSecond)} req/s, bare ${Math.round(base.perSecond)} req/s, ratio ${ratio.toFixed(2)} (goal >= ${GOAL})${app.failed + base.failed ? ` [${app.failed + base.failed} failed]` : ''}`,
	)
	if (ratio < GOAL) exitCode = 1

	const logins = await runLoad(() => post('/accounts/login/', { email, password: PASSWORD }), {
		concurrency: 8,
		durationMs: DURATION,
	})
	console.log(`accounts-login: ${logins.perSecond.toFixed(1)} req/s (argon2id, concurrency 8)`)
} catch (err) {
	console.error(err)
	exitCode = 2
} finally {
	await stopBare?.()
	await instance.stop()
}
process.exit(exitCode)
