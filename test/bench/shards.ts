/**
 * Shards behind NATS: supervisor requests per second with 1, 2 and 4 shard processes (`ROLE=shard`,
 * one supervisor child each) on one real nats-server, printed as ratios to one shard; then the
 * added latency of the bus against the local Unix socket (`ROLE=all` without a bus) at the same
 * steady load. Both on the emulator and on real TDLib's local requests (offline: the children are
 * told `setNetworkType(networkTypeNone)` first, `TDLIB_OFFLINE=1`).
 *
 * The request is `getOption {name: "version"}`: TDLib answers it from memory, before log-in, so
 * what is measured is the path (gateway runtime → bus → shard → child → client → back), not
 * Telegram. The load runs in this process, which is also the gateway: `BENCH_INFLIGHT` requests
 * outstanding over `BENCH_USERBOTS` userbots for `BENCH_SECONDS`; the steady load sends
 * `BENCH_RATE` requests per second and reads p50 and p99.
 *
 *   bun test/bench/shards.ts     (BENCH_SECONDS=3, BENCH_INFLIGHT=256, BENCH_USERBOTS=16, BENCH_RATE=2000)
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generateDatabaseKey } from '../../src/common/util/key-crypto'
import { createLogger } from '../../src/common/util/logger'
import { connectBus } from '../../src/runtime/bus/connection'
import { RemoteRuntime } from '../../src/runtime/bus/remote-runtime'
import { BusKey } from '../../src/runtime/bus/seal'
import { checkSharedSecrets, checkSharedStorage } from '../../src/runtime/bus/storage'
import type { BusConfig } from '../../src/runtime/bus/types'
import { createRuntime } from '../../src/runtime/supervisor'
import type { TelegramRuntime } from '../../src/runtime/supervisor/types'
import { loadConfig } from '../../src/server/config'
import { type ShardProcess, startNats, startShard, until } from '../bus/cluster'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3)
const INFLIGHT = Number(process.env.BENCH_INFLIGHT ?? 256)
const USERBOTS = Number(process.env.BENCH_USERBOTS ?? 16)
const RATE = Number(process.env.BENCH_RATE ?? 2000)
const SHARDS = [1, 2, 4]
const REQUEST = { _: 'getOption', name: 'version' } as const
/** The command the shards' plugin declares `getOption` for (`bench-plugin.ts`): a shard checks it. */
const LABEL = { label: 'bench_get_option' }
const log = createLogger('error')

type Backend = 'emulator' | 'tdlib'
const backendEnv = (backend: Backend): Record<string, string> =>
	backend === 'tdlib'
		? {
				TDLIB_BACKEND: 'tdlib',
				TDLIB_OFFLINE: '1',
				TELEGRAM_API_ID: '1',
				TELEGRAM_API_HASH: '0123456789abcdef0123456789abcdef',
			}
		: { TDLIB_BACKEND: 'emulator' }

const ids = Array.from({ length: USERBOTS }, (_, i) => i + 1)

async function startUserbots(runtime: TelegramRuntime) {
	for (const id of ids) await runtime.startClient(id, { encryptionKey: generateDatabaseKey() })
}

/** Closed loop: INFLIGHT requests always outstanding, spread over the userbots. */
async function throughput(runtime: TelegramRuntime): Promise<{ rate: number; errors: number }> {
	let count = 0
	let errors = 0
	let measuring = false
	let running = true
	let next = 0
	const loop = async () => {
		while (running) {
			const id = ids[next++ % ids.length] as number
			try {
				await runtime.invoke(id, REQUEST, LABEL)
				if (measuring) count++
			} catch {
				if (measuring) errors++
			}
		}
	}
	const loops = Array.from({ length: INFLIGHT }, loop)
	await Bun.sleep(1000)
	measuring = true
	const started = performance.now()
	await Bun.sleep(SECONDS * 1000)
	measuring = false
	const seconds = (performance.now() - started) / 1000
	running = false
	await Promise.all(loops)
	return { rate: count / seconds, errors }
}

/** Open loop: RATE requests a second, sent on a clock whatever the answers do; latency of each. */
async function latency(runtime: TelegramRuntime): Promise<{ p50: number; p99: number; errors: number }> {
	const samples: number[] = []
	let errors = 0
	const pending: Promise<void>[] = []
	const tickMs = 5
	const perTick = (RATE * tickMs) / 1000
	const end = performance.now() + (SECONDS + 1) * 1000
	const measureFrom = performance.now() + 1000
	let owed = 0
	let n = 0
	while (performance.now() < end) {
		owed += perTick
		for (; owed >= 1; owed--) {
			const id = ids[n++ % ids.length] as number
			const sent = performance.now()
			pending.push(
				runtime.invoke(id, REQUEST, LABEL).then(
					() => {
						if (sent >= measureFrom) samples.push(performance.now() - sent)
					},
					() => {
						errors++
					},
				),
			)
		}
		await Bun.sleep(tickMs)
	}
	await Promise.all(pending)
	const sorted = Float64Array.from(samples).sort()
	const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0
	return { p50: at(0.5), p99: at(0.99), errors }
}

async function local(backend: Backend) {
	const dataDir = mkdtempSync(join(tmpdir(), 'ubg-bench-local-'))
	const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'error', ...backendEnv(backend) })
	const runtime = await createRuntime(config, log)
	if (!runtime) throw new Error('no runtime')
	try {
		await startUserbots(runtime)
		return { tput: await throughput(runtime), lat: await latency(runtime) }
	} finally {
		await runtime.close()
		rmSync(dataDir, { recursive: true, force: true })
	}
}

async function onBus(backend: Backend, shardCount: number, withLatency: boolean) {
	const nats = await startNats()
	const dataDir = mkdtempSync(join(tmpdir(), 'ubg-bench-bus-'))
	const env = {
		BUS_URL: nats.url,
		BUS_HEARTBEAT: '1000',
		DATA_DIR: dataDir,
		PLUGINS: join(import.meta.dir, 'bench-plugin.ts'),
		...backendEnv(backend),
	}
	const shards: ShardProcess[] = []
	let runtime: RemoteRuntime | undefined
	let close = async () => {}
	try {
		// The gateway first (it sets the bus up), with the data key the shards read from DATA_DIR too.
		const config = loadConfig(env)
		const bus = await connectBus({
			config: config.bus as BusConfig,
			role: 'gateway',
			id: 'bench',
			key: BusKey.fromDataKey(config.secrets.dataKey),
			heartbeatMs: 1000,
			bufferSize: 256,
			bufferAgeMs: 3_600_000,
			log,
		})
		close = () => bus.close()
		await checkSharedStorage(bus.leases, dataDir)
		await checkSharedSecrets(bus.leases, config.secrets, bus.codec.fingerprint)
		for (let i = 0; i < shardCount; i++) shards.push(await startShard(env, `b${i}`, { LOG_LEVEL: 'info' }))
		runtime = new RemoteRuntime({
			bus,
			gatewayId: crypto.randomUUID(),
			heartbeatMs: 1000,
			commandTimeoutMs: 30_000,
			backend,
			log,
		})
		await runtime.start()
		const rt = runtime
		await until('every shard seen', () => (rt.membership.shards().size === shardCount ? true : undefined))
		await startUserbots(rt)
		const tput = await throughput(rt)
		return { tput, lat: withLatency ? await latency(rt) : undefined }
	} finally {
		await runtime?.close()
		await close()
		await Promise.allSettled(shards.map((s) => s.stop()))
		await nats.stop()
		rmSync(dataDir, { recursive: true, force: true })
	}
}

const f0 = (n: number) => n.toFixed(0)
const f1 = (n: number) => (n >= 10 ? n.toFixed(1) : n.toFixed(2))

for (const backend of ['emulator', 'tdlib'] as const) {
	const base = await local(backend)
	const runs: Array<{ n: number; rate: number; errors: number }> = []
	let busLat: { p50: number; p99: number; errors: number } | undefined
	for (const n of SHARDS) {
		const r = await onBus(backend, n, n === 1)
		runs.push({ n, rate: r.tput.rate, errors: r.tput.errors })
		if (r.lat) busLat = r.lat
	}
	const one = runs[0]?.rate ?? Number.NaN
	console.log(
		`shards ${backend}: ${runs
			.map((r) => `${r.n} shard${r.n > 1 ? 's' : ''} ${f0(r.rate)}/s (${(r.rate / one).toFixed(2)})`)
			.join(
				', ',
			)}; local socket ${f0(base.tput.rate)}/s (1 shard on the bus: ${(one / base.tput.rate).toFixed(2)} of it)` +
			`${runs.some((r) => r.errors) ? ` [errors: ${runs.map((r) => r.errors).join('/')}]` : ''}` +
			` [${INFLIGHT} in flight, ${USERBOTS} userbots, ${SECONDS}s]`,
	)
	if (busLat)
		console.log(
			`shards ${backend} latency at ${RATE}/s: bus (1 shard) p50 ${f1(busLat.p50)} ms, p99 ${f1(busLat.p99)} ms; ` +
				`local socket p50 ${f1(base.lat.p50)} ms, p99 ${f1(base.lat.p99)} ms; ` +
				`added p50 ${f1(busLat.p50 - base.lat.p50)} ms, p99 ${f1(busLat.p99 - base.lat.p99)} ms` +
				`${busLat.errors + base.lat.errors ? ` [errors ${busLat.errors}/${base.lat.errors}]` : ''}`,
		)
}
process.exit(0)
