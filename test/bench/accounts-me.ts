/**
 * Benchmark: GET /accounts/me/ by session against a bare Elysia route returning the same JSON, in
 * one process, driven by the same load generator on 127.0.0.1, in alternating rounds so a noisy
 * machine weighs on both alike. Goal: the app serves at least half the bare rate. Then checks
 * that the cache behind that rate never outlives a revocation (logout, reset, refresh-token reuse:
 * each is refused on the very next request, with the cache warm), and prints login/ requests per
 * second (bound by argon2id). Exits by itself: 0 when both hold.
 *
 *   node_modules/.bin/bun test/bench/accounts-me.ts
 */
import { Elysia } from 'elysia'
import {
	type AccountsApp,
	login,
	PASSWORD,
	registerAccount,
	startAccounts,
	tokenPair,
} from '../plugins/accounts/support'
import { runLoad } from './load'

const DURATION = Number(process.env.BENCH_DURATION_MS ?? 3000)
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64)
const ROUNDS = 2
const GOAL = 0.5

/** The status of /me right after each revocation, its cache warmed just before. */
async function revocations(app: AccountsApp) {
	const user = await registerAccount(app)
	const warm = async (auth: { cookie: string } | { access: string }) => {
		if ((await app.me(auth)).status !== 200) throw new Error('me failed before the revocation')
	}
	const out = await login(app, user.email)
	await warm(out)
	await app.post('/accounts/logout/', {}, { cookie: out.cookie, origin: app.url })
	const logout = (await app.me(out)).status

	const first = await tokenPair(app, user.email)
	const second = (await (await app.post('/accounts/token/refresh/', { refresh: first.refresh })).json()) as {
		access: string
	}
	await warm(second)
	await app.post('/accounts/token/refresh/', { refresh: first.refresh })
	const reuse = (await app.me(second)).status

	const session = await login(app, user.email)
	await warm(session)
	const token = await app.core.resetTokens.issue(user.id, 3600)
	await app.post('/accounts/reset-password/', {
		email: user.email,
		token,
		new_password: 'Fresh-Start-2024!x',
	})
	const reset = (await app.me(session)).status
	return { logout, reset, reuse }
}

const app = await startAccounts({ LOG_LEVEL: 'silent' })
let stopBare: (() => Promise<void>) | null = null
let exitCode = 0
try {
	const user = await registerAccount(app, { first_name: 'Bench', last_name: 'Mark' })
	const { cookie } = await login(app, user.email)
	const meUrl = `${app.url}/accounts/me/`
	const first = await fetch(meUrl, { headers: { cookie } })
	if (first.status !== 200) throw new Error(`me failed: ${first.status}`)
	const profile = (await first.json()) as Record<string, unknown>

	const bare = new Elysia().get('/accounts/me/', () => profile).listen({ port: 0, hostname: '127.0.0.1' })
	stopBare = async () => {
		await bare.stop(true)
	}
	const bareUrl = `http://127.0.0.1:${bare.server?.port}/accounts/me/`
	const hitApp = () => fetch(meUrl, { headers: { cookie } })
	const hitBare = () => fetch(bareUrl, { headers: { cookie } })

	const warmup = { concurrency: CONCURRENCY, durationMs: 500 }
	await runLoad(hitApp, warmup)
	await runLoad(hitBare, warmup)
	const round = { concurrency: CONCURRENCY, durationMs: DURATION / ROUNDS }
	const totals = { app: 0, appSeconds: 0, bare: 0, bareSeconds: 0, failed: 0 }
	for (let i = 0; i < ROUNDS; i++) {
		const a = await runLoad(hitApp, round)
		const b = await runLoad(hitBare, round)
		totals.app += a.ok
		totals.appSeconds += a.seconds
		totals.bare += b.ok
		totals.bareSeconds += b.seconds
		totals.failed += a.failed + b.failed
	}
	const appRate = totals.app / totals.appSeconds
	const bareRate = totals.bare / totals.bareSeconds
	const ratio = appRate / bareRate
	console.log(
		`accounts-me: app ${Math.round(appRate)} req/s, bare ${Math.round(bareRate)} req/s, ratio ${ratio.toFixed(2)} (goal >= ${GOAL})${totals.failed ? ` [${totals.failed} failed]` : ''}`,
	)
	if (ratio < GOAL || totals.failed > 0) exitCode = 1

	const revoked = await revocations(app)
	const allRefused = Object.values(revoked).every((status) => status === 401)
	console.log(
		`accounts-revocation: /me right after logout ${revoked.logout}, reset ${revoked.reset}, refresh reuse ${revoked.reuse} (goal 401 each, cache warm)`,
	)
	if (!allRefused) exitCode = 1

	const logins = await runLoad(
		() => app.post('/accounts/login/', { email: user.email, password: PASSWORD }),
		{ concurrency: 8, durationMs: DURATION },
	)
	console.log(
		`accounts-login: ${logins.perSecond.toFixed(1)} req/s (argon2id, concurrency 8)${logins.failed ? ` [${logins.failed} failed]` : ''}`,
	)
} catch (err) {
	console.error(err)
	exitCode = 2
} finally {
	await stopBare?.()
	await app.stop()
}
process.exit(exitCode)
