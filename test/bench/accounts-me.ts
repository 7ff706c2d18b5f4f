/**
 * Benchmark: GET /accounts/me/ by session against a bare Elysia route returning the same JSON, in
 * one server process, driven by a load generator in a process of its own (test/bench/http-load-child.ts,
 * 32 connections, as the issue's wrk run had them) on 127.0.0.1, in alternating rounds so a noisy
 * machine weighs on both alike. Goal: the app serves at least 0.6 of the bare route's requests per
 * second. It also prints the server's CPU per request of each and their ratio (bare over app): the
 * rate ratio a machine with cores to spare for the load generator would see. Then
 * checks that the cache behind that rate never outlives a revocation (logout, reset, refresh-token
 * reuse: each is refused on the very next request, with the cache warm), and prints login/
 * requests per second (bound by argon2id). Exits by itself: 0 when both hold.
 *
 *   node_modules/.bin/bun test/bench/accounts-me.ts   (BENCH_DURATION_MS, BENCH_CONCURRENCY, BENCH_ROUNDS)
 */
import { loadavg } from 'node:os'
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
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4)
const GOAL = 0.6
const LOAD_CHILD = new URL('./http-load-child.ts', import.meta.url).pathname

/** One round of load from its own process, with the CPU this process spent serving it. */
async function round(url: string, headers: Record<string, string>, durationMs: number) {
	const cpu = process.cpuUsage()
	const child = Bun.spawn([process.execPath, LOAD_CHILD, url, String(CONCURRENCY), String(durationMs)], {
		env: { ...process.env, BENCH_HEADERS: JSON.stringify(headers) },
		stdout: 'pipe',
		stderr: 'inherit',
	})
	const out = await new Response(child.stdout).text()
	if ((await child.exited) !== 0) throw new Error('the load process failed')
	const used = process.cpuUsage(cpu)
	const result = JSON.parse(out.trim().split('\n').pop() ?? '{}') as Awaited<ReturnType<typeof runLoad>>
	return { ...result, cpuMicros: used.user + used.system }
}

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
	const headers = { cookie }
	await round(meUrl, headers, 500)
	await round(bareUrl, headers, 500)
	const totals = { app: 0, appSeconds: 0, appCpu: 0, bare: 0, bareSeconds: 0, bareCpu: 0, failed: 0 }
	for (let i = 0; i < ROUNDS; i++) {
		const a = await round(meUrl, headers, DURATION / ROUNDS)
		const b = await round(bareUrl, headers, DURATION / ROUNDS)
		totals.app += a.ok
		totals.appSeconds += a.seconds
		totals.appCpu += a.cpuMicros
		totals.bare += b.ok
		totals.bareSeconds += b.seconds
		totals.bareCpu += b.cpuMicros
		totals.failed += a.failed + b.failed
	}
	const appRate = totals.app / totals.appSeconds
	const bareRate = totals.bare / totals.bareSeconds
	const appCpu = totals.appCpu / Math.max(1, totals.app)
	const bareCpu = totals.bareCpu / Math.max(1, totals.bare)
	const ratio = appRate / bareRate
	console.log(
		`accounts-me: app ${Math.round(appRate)} req/s at ${appCpu.toFixed(1)} µs CPU each, bare ${Math.round(bareRate)} req/s at ${bareCpu.toFixed(1)} µs; ratio ${ratio.toFixed(2)} (goal >= ${GOAL}); CPU ratio ${(bareCpu / appCpu).toFixed(2)}; load average ${loadavg()[0]?.toFixed(1)}${totals.failed ? ` [${totals.failed} failed]` : ''}`,
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
