/**
 * Idle userbots (docs/capacity.md): N real TDLib clients (offline, waiting for a phone number)
 * across supervisor children, for N = 1,000, 3,000 and 10,000 (`--n N` runs that one size only,
 * `--max N` stops earlier; `--children K` fixes the children, else `SUPERVISORS=auto` sizes them
 * from the machine; `--concurrency C` the starts in flight, 64 by default as the service restores
 * them).
 *
 * Two starts per size, as an operator meets them. First creation: a fresh data folder, every
 * client's folders made (once per userbot, when it is added). Then the runtime is closed and a new
 * one starts every client again from its folder: the service restarting with N userbots on disk,
 * the start the goal is about. Each child's resident memory (VmRSS) and open descriptors
 * (/proc/<pid>/fd) are read before the first client and once all of them reached
 * `authorizationStateWaitPhoneNumber`; the CPU time of the children (/proc/<pid>/stat) and of this
 * process around each storm: where the start time goes. A child that dies is counted.
 *
 * Baselines measured in the same run: 100 clients in one child (memory, descriptors), and bare tdl
 * clients in one process with no supervisor at all (`idle-bare-tdl.ts`), both with TDLib's SQLite
 * database (how every client started before docs/capacity.md#start-time) and without it (how a
 * client that has not logged in starts now). Printed: per client memory, descriptors, start time
 * and CPU, as figures and as ratios, the children, the core count, the load average, and the goal.
 * Goal (issue 30): 10,000 idle clients at most 1.5 MB and 8 descriptors each, all started within
 * 120 s, no child death, on a 2-core 24 GiB machine. `bun test/bench/idle-userbots.ts --n 10000`.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { availableParallelism, loadavg, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { generateDatabaseKey } from '../../src/common/util/key-crypto'
import { createLogger } from '../../src/common/util/logger'
import { createRuntime, type LocalRuntime } from '../../src/runtime/supervisor'
import { ShardedRuntime } from '../../src/runtime/supervisor/sharded'
import { loadConfig } from '../../src/server/config'
import type { StartFigures } from './idle-bare-tdl'
import { type Bare, cpuOf, fdsOf, goalLines, type Run, rssOf, runLine, type Storm } from './idle-report'

// Real clients are told networkTypeNone first: no traffic leaves the machine.

const arg = (name: string) => {
	const i = process.argv.indexOf(name)
	return i >= 0 ? Number(process.argv[i + 1]) : undefined
}
const only = arg('--n')
const max = arg('--max') ?? Number.POSITIVE_INFINITY
const children = arg('--children')
const concurrency = arg('--concurrency') ?? 64
const sizes = only !== undefined ? [only] : [1000, 3000, 10_000].filter((n) => n <= max)
const load = () =>
	loadavg()
		.map((l) => l.toFixed(1))
		.join(' ')

const pidsOf = (rt: LocalRuntime) => (rt instanceof ShardedRuntime ? rt.pids : [rt.pid]) as number[]
const sum = (pids: number[], f: (pid: number) => number) => pids.reduce((s, p) => s + f(p), 0)

async function storm(runtime: LocalRuntime, keys: string[]): Promise<Storm> {
	const pids = pidsOf(runtime)
	const before = pids.map(cpuOf)
	const parent = process.cpuUsage()
	const started = performance.now()
	let next = 0
	let failed = 0
	const worker = async () => {
		while (next < keys.length) {
			const id = ++next
			const state = await runtime
				.startClient(id, { encryptionKey: keys[id - 1] as string })
				.catch((err: Error) => err.message)
			if (state !== 'authorizationStateWaitPhoneNumber') {
				if (failed++ === 0) console.log(`  first failure (userbot ${id}): ${state}`)
			}
		}
	}
	await Promise.all(Array.from({ length: concurrency }, worker))
	const ms = performance.now() - started
	const after = pids.map(cpuOf)
	const used = process.cpuUsage(parent)
	const n = keys.length
	const userMs = after.reduce((s, a, i) => s + a.user - (before[i]?.user ?? 0), 0)
	const sysMs = after.reduce((s, a, i) => s + a.sys - (before[i]?.sys ?? 0), 0)
	return {
		ms: ms / n,
		userMs: userMs / n,
		sysMs: sysMs / n,
		parentMs: (used.user + used.system) / 1000 / n,
		failed,
	}
}

async function open(dataDir: string, supervisors: string): Promise<LocalRuntime> {
	const config = loadConfig({
		DATA_DIR: dataDir,
		TDLIB_BACKEND: 'tdlib',
		TDLIB_OFFLINE: '1',
		TELEGRAM_API_ID: '1',
		TELEGRAM_API_HASH: '0123456789abcdef0123456789abcdef',
		COMMAND_TIMEOUT: '300000',
		LOG_LEVEL: 'error',
		SUPERVISORS: supervisors,
	})
	const runtime = await createRuntime(config, createLogger('error'), { closeTimeoutMs: 120_000 })
	if (!runtime) throw new Error('no supervisor')
	await Bun.sleep(300)
	return runtime
}

/** The highest memory and descriptors of the children over a second: idle clients keep settling. */
async function settled(pids: number[]): Promise<{ bytes: number; fds: number }> {
	let bytes = 0
	let fds = 0
	for (let i = 0; i < 10; i++) {
		bytes = Math.max(bytes, sum(pids, rssOf))
		fds = Math.max(fds, sum(pids, fdsOf))
		await Bun.sleep(100)
	}
	return { bytes, fds }
}

/** Every client started in `runtime`, its memory and descriptors per client, and its child deaths. */
async function round(runtime: LocalRuntime, keys: string[]) {
	const pids = pidsOf(runtime)
	const base = { bytes: sum(pids, rssOf), fds: sum(pids, fdsOf) }
	const start = await storm(runtime, keys)
	const peak = await settled(pids)
	const replaced = pidsOf(runtime).filter((p, i) => p !== pids[i]).length
	const deaths = Math.max(runtime.health().restarts, replaced)
	await runtime.close()
	const n = keys.length
	return { start, bytes: (peak.bytes - base.bytes) / n, fds: (peak.fds - base.fds) / n, deaths }
}

async function measure(n: number, supervisors: string): Promise<Run> {
	const dataDir = mkdtempSync(join(tmpdir(), 'ubg-bench-idle-'))
	const keys = Array.from({ length: n }, () => generateDatabaseKey())
	try {
		const runtime = await open(dataDir, supervisors)
		const childCount = pidsOf(runtime).length
		const first = await round(runtime, keys)
		const restart = await round(await open(dataDir, supervisors), keys)
		return {
			n,
			children: childCount,
			first: first.start,
			restart: restart.start,
			// The higher of the two: the clients after a restart are the ones an operator keeps.
			bytes: Math.max(first.bytes, restart.bytes),
			fds: Math.max(first.fds, restart.fds),
			deaths: first.deaths + restart.deaths,
		}
	} finally {
		rmSync(dataDir, { recursive: true, force: true })
	}
}

function bare(n: number, databases: 'databases' | 'none'): { first: StartFigures; restart: StartFigures } {
	const script = join(import.meta.dir, 'idle-bare-tdl.ts')
	const out = Bun.spawnSync([process.execPath, script, String(n), String(concurrency), databases], {
		stderr: 'inherit',
	})
	return JSON.parse(out.stdout.toString().trim().split('\n').pop() as string)
}

const cores = availableParallelism()
console.log(
	`machine: ${cores} cores, ${(totalmem() / 1024 ** 3).toFixed(1)} GiB, load average ${load()}; ` +
		`${concurrency} starts in flight`,
)
const bareN = Math.min(1000, ...sizes)
const baseline: Bare = { withDb: bare(bareN, 'databases'), light: bare(bareN, 'none') }
const cpuMs = (s: StartFigures) => (s.userMs + s.sysMs).toFixed(1)
console.log(
	`bare tdl, ${bareN} clients in one process (the start time baselines), load average ${load()}:\n` +
		`  with TDLib's SQLite database: first start ${baseline.withDb.first.ms.toFixed(2)} ms/client, CPU ${cpuMs(baseline.withDb.first)} ms; ` +
		`restart ${baseline.withDb.restart.ms.toFixed(2)} ms/client, CPU ${cpuMs(baseline.withDb.restart)} ms\n` +
		`  without it (not logged in): first start ${baseline.light.first.ms.toFixed(2)} ms/client, CPU ${cpuMs(baseline.light.first)} ms; ` +
		`restart ${baseline.light.restart.ms.toFixed(2)} ms/client, CPU ${cpuMs(baseline.light.restart)} ms`,
)
const one = await measure(100, '1')
console.log(`${runLine(one)}  (baseline of memory and descriptors)`)
let last: Run | undefined
for (const n of sizes) {
	last = await measure(n, String(children ?? 'auto'))
	console.log(runLine(last, one, baseline))
	console.log(`  load average after N=${n}: ${load()}`)
}
if (!last) process.exit(0)
const { lines, met } = goalLines(last, cores, load())
for (const l of lines) console.log(l)
process.exit(met === false ? 1 : 0)
