/**
 * Benchmark of webhook deliveries: events published to the update hub of a real app (emulator
 * backend, libSQL file) for USERBOTS userbots of one company with one endpoint, delivered through
 * the outbox (stored leased to this gateway, signed, POSTed, settled) to a receiver that answers 200 at once,
 * against a bare `fetch` loop (USERBOTS loops side by side, one request at a time each: the same
 * concurrency as the outbox's one-in-flight-per-userbot order) to the same receiver, same body
 * size and headers, in the same run. Each round ends at the receiver's last request. The receiver runs in a process of its own (this script with `--receiver`).
 *
 * Printed: deliveries per second of each, this process's CPU per request or delivery, and their
 * ratio, per round and the median (goal ≥ 0.5), with the load average (figures from a busy machine
 * say so); then, at a steady rate, the
 * p50/p99 from the hub receiving an update (what the supervisor forwards from TDLib) to the
 * receiver's request, on the wall clock both processes share.
 *
 * With BENCH_OUTBOX=jetstream (or `--jetstream`) the outbox is the one a gateway on a bus keeps in
 * JetStream (docs/webhooks.md#the-outbox-on-a-bus): the bench starts a nats-server on 127.0.0.1 (the
 * tests' own, test/bus/nats.ts) and a gateway on it (ROLE=gateway), and stops both at the end; the
 * rest is the same.
 *
 * With BENCH_THREADS=1, each round also prints the CPU of each thread of this process per request or
 * delivery (Linux, /proc/self/task): the event loop, the outbox's writer thread, Bun's HTTP client
 * thread, the others.
 *
 *   bun test/bench/webhooks.ts   (BENCH_EVENTS, BENCH_USERBOTS, BENCH_RATE, BENCH_ROUNDS, BENCH_OUTBOX, BENCH_THREADS)
 */
import { readdirSync, readFileSync } from 'node:fs'
import os from 'node:os'
import { startNats } from '../bus/nats'
import { getTestInstance, type TestInstance } from '../helpers'
import { registerUser } from '../helpers-ws'
import { call, insertUserbot } from '../plugins/webhooks/receiver'

const EVENTS = Number(process.env.BENCH_EVENTS ?? 4000)
const USERBOTS = Number(process.env.BENCH_USERBOTS ?? 8)
const RATE = Number(process.env.BENCH_RATE ?? 200)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const JETSTREAM = process.env.BENCH_OUTBOX === 'jetstream' || process.argv.includes('--jetstream')
if (!JETSTREAM && (process.env.BENCH_OUTBOX ?? 'database') !== 'database')
	throw new Error('BENCH_OUTBOX is database (the default) or jetstream')
const wallClock = () => performance.timeOrigin + performance.now()
/** This process's CPU time (user + system), in µs. */
const cpuNow = () => {
	const u = process.cpuUsage()
	return u.user + u.system
}
const PER_THREAD = process.env.BENCH_THREADS === '1'
/** Clock ticks per second of /proc's CPU times (100 on Linux). */
const TICK_US = 10_000
/** Each thread's CPU time (user + system) in µs, by `name#tid`; empty unless BENCH_THREADS=1. */
function threadCpu(): Map<string, number> {
	const out = new Map<string, number>()
	if (!PER_THREAD) return out
	for (const tid of readdirSync('/proc/self/task')) {
		try {
			const name = readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim()
			const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
			// The fields after the name (in parentheses, which may hold spaces): utime, stime are 14, 15.
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
			out.set(`${name}#${tid}`, (Number(fields[11]) + Number(fields[12])) * TICK_US)
		} catch {
			// The thread ended meanwhile.
		}
	}
	return out
}
/** The threads' CPU between two `threadCpu()`, per item, busiest first (those of 1 µs or more). */
function perThread(before: Map<string, number>, after: Map<string, number>, items: number): string {
	return [...after]
		.map(([k, v]) => [k, (v - (before.get(k) ?? 0)) / items] as const)
		.filter(([, v]) => v >= 1)
		.sort((x, y) => y[1] - x[1])
		.map(([k, v]) => `${k} ${v.toFixed(0)} µs`)
		.join(', ')
}

/** The receiver's side: counts POSTs and the latency from the stamp each carries. */
function receiver(): void {
	let count = 0
	let latencies: number[] = []
	/** The wall clock at the latest request: a round ends there, not at the next look at the count. */
	let last = 0
	const server = Bun.serve({
		hostname: '127.0.0.1',
		port: 0,
		async fetch(request) {
			const path = new URL(request.url).pathname
			if (path === '/stats') {
				const body = JSON.stringify({ count, latencies, last })
				count = 0
				latencies = []
				return new Response(body)
			}
			const text = await request.text()
			count++
			last = wallClock()
			const stamp = /"stamp":([0-9.]+)/.exec(text)
			if (stamp) latencies.push(wallClock() - Number(stamp[1]))
			return new Response('ok')
		},
	})
	console.log(server.port)
}

const percentile = (xs: number[], p: number) => {
	const s = [...xs].sort((a, b) => a - b)
	return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN
}

async function main(): Promise<void> {
	const child = Bun.spawn([process.execPath, import.meta.path, '--receiver'], {
		stdout: 'pipe',
		stderr: 'inherit',
	})
	const reader = child.stdout.getReader()
	const first = new TextDecoder().decode((await reader.read()).value)
	const port = Number(first.trim())
	const base = `http://127.0.0.1:${port}`
	const stats = async () =>
		(await (await fetch(`${base}/stats`)).json()) as { count: number; latencies: number[]; last: number }
	const { t, stop } = await startGateway({
		WEBHOOK_ALLOW_HTTP: 'true',
		WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
		WEBHOOK_POLL: '1000',
	})
	try {
		const owner = await registerUser(t, 'bench@example.com')
		const bots: number[] = []
		for (let i = 0; i < USERBOTS; i++) bots.push(await insertUserbot(t, owner.companyId))
		const made = await call(t, owner.access)('POST', '/api/webhooks/', { url: `${base}/hook` })
		if (made.status !== 201) throw new Error(`endpoint: ${made.status}`)
		const update = (n: number) => ({
			_: 'updateNewMessage',
			message: { id: n, text: 'x'.repeat(200) },
			stamp: wallClock(),
		})
		const bodyOf = (n: number) =>
			JSON.stringify({
				type: 'updateNewMessage',
				timestamp: new Date().toISOString(),
				data: { userbot_id: 1, seq: n, update: update(n) },
			})

		// Warm-up of both paths.
		for (let n = 0; n < 50; n++) t.ctx.updates.publish(bots[n % USERBOTS] as number, update(n))
		// (`/stats` hands over its count and starts again at 0: the counts add up.)
		let warm = 0
		await until(async () => {
			warm += (await stats()).count
			return warm >= 50
		}, 30_000)

		// The bare fetch loop: USERBOTS loops, one request at a time each, with the headers a delivery
		// carries (their values fixed: no signing), so both send requests of one size.
		const headers = {
			host: new URL(base).host,
			'content-type': 'application/json',
			'user-agent': 'userbot-gateway-webhooks',
			'webhook-id': 'msg_1000000',
			'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
			'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')}`,
		}
		const bareRound = async () => {
			const start = wallClock()
			const cpu = cpuNow()
			const threads = threadCpu()
			await Promise.all(
				Array.from({ length: USERBOTS }, async (_, k) => {
					for (let n = k; n < EVENTS; n += USERBOTS)
						await (await fetch(`${base}/hook`, { method: 'POST', body: bodyOf(n), headers })).text()
				}),
			)
			const cpuPer = (cpuNow() - cpu) / EVENTS
			if (PER_THREAD)
				console.log(`  bare fetch loop, CPU per request: ${perThread(threads, threadCpu(), EVENTS)}`)
			const { last } = await stats()
			return { rate: EVENTS / ((last - start) / 1000), cpuPer }
		}
		// The outbox: every event published at once, delivered in order per userbot.
		// Both rounds end at the receiver's last request (its clock is the one both processes share),
		// not at the next look at its count: that look, every 20 ms, cost a short round a few percent.
		const outboxRound = async () => {
			const start = wallClock()
			const cpu = cpuNow()
			const threads = threadCpu()
			for (let n = 0; n < EVENTS; n++) t.ctx.updates.publish(bots[n % USERBOTS] as number, update(n))
			let delivered = 0
			let end = 0
			await until(async () => {
				const got = await stats()
				delivered += got.count
				if (got.count > 0) end = got.last
				return delivered >= EVENTS
			}, 600_000)
			if (PER_THREAD)
				console.log(`  webhook outbox, CPU per delivery: ${perThread(threads, threadCpu(), EVENTS)}`)
			return { rate: EVENTS / ((end - start) / 1000), cpuPer: (cpuNow() - cpu) / EVENTS }
		}
		// Rounds of both, side by side: on a shared machine the load moves, and a ratio taken within
		// one round compares like with like. The median round is the figure.
		const ratios: number[] = []
		for (let round = 1; round <= ROUNDS; round++) {
			const bare = await bareRound()
			const ours = await outboxRound()
			ratios.push(ours.rate / bare.rate)
			console.log(
				`round ${round}: bare fetch loop ${bare.rate.toFixed(0)} requests/s (${bare.cpuPer.toFixed(0)} µs CPU each), webhook outbox${JETSTREAM ? ' (JetStream)' : ''} ${ours.rate.toFixed(0)} deliveries/s (${ours.cpuPer.toFixed(0)} µs CPU each) (${USERBOTS} loops/userbots), ratio ${(ours.rate / bare.rate).toFixed(2)}, load average ${loadAverage()}`,
			)
		}
		console.log(
			`ratio:           ${percentile(ratios, 50).toFixed(2)} (median of ${ROUNDS} rounds; goal ≥ 0.5), load average ${loadAverage()}, ${os.cpus().length} cores`,
		)

		// Latency at a steady rate: hub → receiver.
		const steady = Math.min(EVENTS, RATE * 5)
		const latencies: number[] = []
		for (let n = 0; n < steady; n++) {
			t.ctx.updates.publish(bots[n % USERBOTS] as number, update(n))
			await Bun.sleep(1000 / RATE)
		}
		await until(async () => {
			latencies.push(...(await stats()).latencies)
			return latencies.length >= steady
		}, 120_000)
		console.log(
			`latency at ${RATE}/s: p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms (update at the hub → receiver)`,
		)
	} finally {
		await stop()
		child.kill()
	}
}

/**
 * The app whose outbox is measured: alone with its database, or (JETSTREAM) a gateway on a
 * nats-server started here, its outbox in JetStream. `stop` stops both.
 */
async function startGateway(
	env: Record<string, string>,
): Promise<{ t: TestInstance; stop(): Promise<void> }> {
	if (!JETSTREAM) {
		const t = await getTestInstance(env)
		return { t, stop: () => t.stop() }
	}
	const nats = await startNats()
	try {
		const t = await getTestInstance({
			...env,
			BUS_URL: nats.url,
			BUS_HEARTBEAT: '300',
			ROLE: 'gateway',
			WEBHOOK_OUTBOX: 'jetstream',
		})
		if (t.ctx.bus === undefined) throw new Error('the gateway is not on the bus')
		return {
			t,
			async stop() {
				await t.stop()
				await nats.stop()
			},
		}
	} catch (err) {
		await nats.stop()
		throw err
	}
}

/** The machine's load average (1, 5, 15 min): figures taken on a busy machine say so. */
const loadAverage = () =>
	os
		.loadavg()
		.map((l) => l.toFixed(2))
		.join(' ')

async function until(check: () => Promise<boolean>, ms: number): Promise<void> {
	const end = Date.now() + ms
	while (!(await check())) {
		if (Date.now() > end) throw new Error(`not within ${ms} ms`)
		await Bun.sleep(20)
	}
}

if (process.argv.includes('--receiver')) receiver()
else await main()
