/**
 * Benchmark of the command path: `get_default_message_auto_delete_time` over 64 WebSocket
 * connections through gateway → IPC → supervisor → emulator, against a bare Bun WebSocket echo
 * server driven by the same load generator (ws-load.ts, in a process of its own so it shares no event
 * loop with the server it measures) in the same run.
 *
 *   bun test/bench/ws-commands.ts            (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_INFLIGHT)
 */
import { getTestInstance } from '../helpers'
import { createLoggedInUserbot, registerUser } from '../helpers-ws'
import { cpuOf, loadFromChild } from './ws-load'

async function main() {
	const connections = Number(process.env.BENCH_CONNECTIONS ?? 64)
	const inflight = Number(process.env.BENCH_INFLIGHT ?? 4)
	const seconds = Number(process.env.BENCH_SECONDS ?? 5)
	const warmupSeconds = 1

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
		const common = { connections, inflight, seconds, warmupSeconds, frames: [frame] }

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

await main()
process.exit(0)
