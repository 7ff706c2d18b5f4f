/**
 * Benchmark of the command path: `get_default_message_auto_delete_time` over 64 WebSocket
 * connections through gateway → IPC → supervisor → emulator, against a bare Bun WebSocket echo
 * server driven by the same load generator in the same run. The load generator runs in its own
 * process so it does not share an event loop with the server it measures.
 *
 *   bun test/bench/ws-commands.ts            (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_INFLIGHT)
 */
import { createLoggedInUserbot, registerUser } from '../helpers-ws'

interface LoadSpec {
	url: string
	headers: Record<string, string>
	frame: Record<string, unknown>
	connections: number
	inflight: number
	seconds: number
	warmupSeconds: number
}

interface LoadResult {
	/** CPU seconds the load generator itself spent. */
	cpu: number
	count: number
	seconds: number
	p50: number
	p99: number
	errors: number
}

const percentile = (sorted: Float64Array, p: number) =>
	sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0

/** The load generator: `inflight` requests outstanding per connection, for a bounded time. */
async function generateLoad(spec: LoadSpec): Promise<LoadResult> {
	const latencies: number[] = []
	let errors = 0
	let measuring = false
	let running = true
	const sockets: WebSocket[] = []
	await Promise.all(
		Array.from({ length: spec.connections }, (_, conn) => {
			const ws = new WebSocket(spec.url, { headers: spec.headers } as unknown as string[])
			sockets.push(ws)
			const sentAt = new Map<number, number>()
			let next = 0
			const sendOne = () => {
				const id = next++
				sentAt.set(id, performance.now())
				ws.send(JSON.stringify({ ...spec.frame, request_id: id }))
			}
			ws.onmessage = (event) => {
				const reply = JSON.parse(String(event.data)) as {
					request_id?: number
					payload?: { request_id?: number; error?: string }
				}
				// The gateway echoes request_id in the payload; the echo server sends the frame back as it was.
				const id = reply.payload?.request_id ?? reply.request_id
				if (id === undefined) return
				const started = sentAt.get(id)
				sentAt.delete(id)
				if (started !== undefined && measuring) {
					latencies.push(performance.now() - started)
					if (reply.payload?.error) errors++
				}
				if (running) sendOne()
			}
			return new Promise<void>((resolve, reject) => {
				ws.onopen = () => {
					for (let i = 0; i < spec.inflight; i++) sendOne()
					resolve()
				}
				ws.onerror = () => reject(new Error(`connection ${conn} failed`))
			})
		}),
	)
	await Bun.sleep(spec.warmupSeconds * 1000)
	measuring = true
	const started = performance.now()
	const cpuStart = process.cpuUsage()
	await Bun.sleep(spec.seconds * 1000)
	measuring = false
	const cpuUsed = process.cpuUsage(cpuStart)
	const seconds = (performance.now() - started) / 1000
	running = false
	for (const ws of sockets) ws.close()
	const sorted = Float64Array.from(latencies).sort()
	const cpu = (cpuUsed.user + cpuUsed.system) / 1e6
	return {
		cpu,
		count: sorted.length,
		seconds,
		p50: percentile(sorted, 0.5),
		p99: percentile(sorted, 0.99),
		errors,
	}
}

/** CPU seconds used so far by a process, from /proc (Linux), or NaN. */
async function cpuOf(pid: number | undefined): Promise<number> {
	try {
		const stat = await Bun.file(`/proc/${pid}/stat`).text()
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
		return (Number(fields[11]) + Number(fields[12])) / 100
	} catch {
		return Number.NaN
	}
}

/** Runs the load generator in a child process and reads its result. */
async function loadFromChild(spec: LoadSpec): Promise<LoadResult> {
	const proc = Bun.spawn([process.execPath, import.meta.path], {
		env: { ...process.env, BENCH_ROLE: 'load', BENCH_SPEC: JSON.stringify(spec) },
		stdout: 'pipe',
		stderr: 'inherit',
	})
	const out = await new Response(proc.stdout).text()
	if ((await proc.exited) !== 0) throw new Error('load generator failed')
	return JSON.parse(out) as LoadResult
}

async function main() {
	const connections = Number(process.env.BENCH_CONNECTIONS ?? 64)
	const inflight = Number(process.env.BENCH_INFLIGHT ?? 4)
	const seconds = Number(process.env.BENCH_SECONDS ?? 5)
	const warmupSeconds = 1

	const { getTestInstance } = await import('../helpers')
	const t = await getTestInstance({ LOG_LEVEL: 'error' })
	const echo = Bun.serve({
		port: 0,
		hostname: '127.0.0.1',
		fetch: (req, server) => (server.upgrade(req) ? undefined : new Response('upgrade', { status: 400 })),
		websocket: { message: (ws, message) => void ws.send(message) },
	})
	try {
		const user = await registerUser(t, 'bench@example.com')
		const userbotId = await createLoggedInUserbot(t, user.companyId)
		const frame = { action: 'get_default_message_auto_delete_time', userbot_id: userbotId }
		const common = { connections, inflight, seconds, warmupSeconds, frame }

		const supervisorPid = (t.ctx.runtime as unknown as { pid?: number }).pid
		const before = { self: await cpuOf(process.pid), supervisor: await cpuOf(supervisorPid) }
		const app = await loadFromChild({
			...common,
			url: `${t.url.replace(/^http/, 'ws')}/ws`,
			headers: { authorization: `Bearer ${user.access}` },
		})
		const after = { self: await cpuOf(process.pid), supervisor: await cpuOf(supervisorPid) }
		// BENCH_ONLY=app skips the echo run (profiling the gateway alone).
		const bare =
			process.env.BENCH_ONLY === 'app'
				? { ...app, count: Number.NaN }
				: await loadFromChild({ ...common, url: `ws://127.0.0.1:${echo.port}/`, headers: {} })

		const appRate = app.count / app.seconds
		const echoRate = bare.count / bare.seconds
		const ratio = appRate / echoRate
		const p99Ratio = app.p99 / bare.p99
		const f = (n: number) => (n >= 10 ? n.toFixed(0) : n.toFixed(2))
		console.log(
			`ws-commands: app ${appRate.toFixed(0)} cmd/s p50 ${f(app.p50)}ms p99 ${f(app.p99)}ms` +
				`${app.errors ? ` (${app.errors} errors)` : ''}; ` +
				`echo ${echoRate.toFixed(0)} msg/s p50 ${f(bare.p50)}ms p99 ${f(bare.p99)}ms; ` +
				`ratio ${ratio.toFixed(2)} (goal >= 0.6), p99 ratio ${p99Ratio.toFixed(2)} (goal <= 2)` +
				` [${connections} connections x ${inflight} in flight, ${seconds}s]`,
		)
		// Where the CPU went (whole app phase incl. warm-up for the servers, measured window for the load).
		const phase = seconds + warmupSeconds
		console.log(
			`ws-commands cpu (cores busy, ${navigator.hardwareConcurrency} available): ` +
				`app run: gateway ${((after.self - before.self) / phase).toFixed(2)}, ` +
				`supervisor ${((after.supervisor - before.supervisor) / phase).toFixed(2)}, ` +
				`load ${(app.cpu / app.seconds).toFixed(2)}; echo run: load ${(bare.cpu / bare.seconds).toFixed(2)}`,
		)
	} finally {
		echo.stop(true)
		await t.stop()
	}
}

if (process.env.BENCH_ROLE === 'load') {
	const result = await generateLoad(JSON.parse(process.env.BENCH_SPEC ?? '{}') as LoadSpec)
	process.stdout.write(JSON.stringify(result))
	process.exit(0)
} else {
	await main()
	process.exit(0)
}
