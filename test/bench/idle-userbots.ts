/**
 * Idle userbots (docs/capacity.md): N real TDLib clients (offline) across supervisor children, for
 * N = 1,000, 3,000 and 10,000 (`--max N` stops earlier; `--children K` fixes the children, else
 * `SUPERVISORS=auto` sizes them from the machine; `--concurrency C` the starts in flight, 64 by
 * default as the service restores them). Each run gets a fresh runtime and data folder; each
 * child's resident memory (VmRSS) and open descriptors (/proc/<pid>/fd) are read before the first
 * client and once all of them reached `authorizationStateWaitPhoneNumber`. Then the runtime is
 * closed and a new one starts every client again from its database, as a restart of the service
 * restores them. The CPU time of the children (/proc/<pid>/stat) and of this process is read around
 * each storm: where the start time goes.
 * Baselines measured in the same run: 100 clients in one child (memory, descriptors), and bare tdl
 * clients in one process with no supervisor at all (`idle-bare-tdl.ts`: the start time TDLib itself
 * takes here). Printed: per client memory, descriptors, start time and CPU, as figures and as
 * ratios, the children, the core count, and whether a child died.
 * Goal (issue 30): 10,000 idle clients at most 1.5 MB and 8 descriptors each, all started within
 * 120 s, no child death, on a 2-core 24 GiB machine.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { availableParallelism, loadavg, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../src/config'
import { createLogger } from '../../src/logger'
import { createRuntime, type LocalRuntime } from '../../src/supervisor'
import { ShardedRuntime } from '../../src/supervisor/sharded'
import { generateDatabaseKey } from '../../src/userbots/key-crypto'
import type { StartFigures } from './idle-bare-tdl'

// Real clients are told networkTypeNone first: no traffic leaves the machine.
process.env.TDLIB_OFFLINE = '1'

const GOAL = { n: 10_000, bytes: 1.5 * 1024 ** 2, fds: 8, ms: 120_000 }
const arg = (name: string) => {
	const i = process.argv.indexOf(name)
	return i >= 0 ? Number(process.argv[i + 1]) : undefined
}
const max = arg('--max') ?? Number.POSITIVE_INFINITY
const children = arg('--children')
const concurrency = arg('--concurrency') ?? 64
const sizes = [1000, 3000, 10_000].filter((n) => n <= max)
const TICK_MS = 1000 / Number(Bun.spawnSync(['getconf', 'CLK_TCK']).stdout.toString().trim() || 100)

const status = (pid: number) => readFileSync(`/proc/${pid}/status`, 'utf8')
const rss = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(status(pid))?.[1] ?? 0) * 1024
const fds = (pid: number) => readdirSync(`/proc/${pid}/fd`).length
const mb = (bytes: number) => (bytes / 1024 ** 2).toFixed(2)
/** User and system CPU milliseconds of a process (fields 14 and 15 of its stat, after the name). */
const cpuOf = (pid: number) => {
	const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
	return { user: Number(fields[11]) * TICK_MS, sys: Number(fields[12]) * TICK_MS }
}

interface Storm extends StartFigures {
	failed: number
	/** This process's CPU milliseconds per client (the supervisors' parent side). */
	parentMs: number
}

interface Run {
	n: number
	children: number
	first: Storm
	restart: Storm
	bytes: number
	fds: number
	died: boolean
}

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

async function measure(n: number, supervisors: string): Promise<Run> {
	const dataDir = mkdtempSync(join(tmpdir(), 'ubg-bench-idle-'))
	const keys = Array.from({ length: n }, () => generateDatabaseKey())
	try {
		let runtime = await open(dataDir, supervisors)
		const pids = pidsOf(runtime)
		const baseBytes = sum(pids, rss)
		const baseFds = sum(pids, fds)
		const first = await storm(runtime, keys)
		// Idle clients keep settling for a moment: take the highest reading over a second.
		let peak = 0
		let openFds = 0
		for (let i = 0; i < 10; i++) {
			peak = Math.max(peak, sum(pids, rss))
			openFds = Math.max(openFds, sum(pids, fds))
			await Bun.sleep(100)
		}
		const died = runtime.health().restarts > 0 || pidsOf(runtime).some((p, i) => p !== pids[i])
		await runtime.close()
		runtime = await open(dataDir, supervisors)
		const restart = await storm(runtime, keys)
		const diedAgain = runtime.health().restarts > 0
		await runtime.close()
		return {
			n,
			children: pids.length,
			first,
			restart,
			bytes: (peak - baseBytes) / n,
			fds: (openFds - baseFds) / n,
			died: died || diedAgain,
		}
	} finally {
		rmSync(dataDir, { recursive: true, force: true })
	}
}

function bare(n: number): { first: StartFigures; restart: StartFigures } {
	const out = Bun.spawnSync(
		[process.execPath, join(import.meta.dir, 'idle-bare-tdl.ts'), String(n), String(concurrency)],
		{
			stderr: 'inherit',
		},
	)
	return JSON.parse(out.stdout.toString().trim().split('\n').pop() as string)
}

const ratio = (a: number, b?: number) => (b ? ` (${(a / b).toFixed(2)}×)` : '')
const cpu = (s: StartFigures & { parentMs?: number }) =>
	`CPU ${(s.userMs + s.sysMs).toFixed(1)} ms (user ${s.userMs.toFixed(1)}, system ${s.sysMs.toFixed(1)}` +
	(s.parentMs !== undefined ? `; parent ${s.parentMs.toFixed(1)}` : '') +
	')'
const startLine = (what: string, s: Storm, n: number, baseline?: StartFigures) =>
	`  ${what}: ${((s.ms * n) / 1000).toFixed(1)} s, ${s.ms.toFixed(2)} ms/userbot${ratio(s.ms, baseline?.ms)}, ${cpu(s)}` +
	(s.failed ? `, ${s.failed} did not reach WaitPhoneNumber` : '')
const line = (r: Run, base?: Run, tdl?: { first: StartFigures; restart: StartFigures }) =>
	`idle userbots N=${String(r.n).padStart(5)} in ${r.children} children: ` +
	`${mb(r.bytes)} MB/userbot${ratio(r.bytes, base?.bytes)}, ${r.fds.toFixed(2)} fds/userbot${ratio(r.fds, base?.fds)}` +
	(r.died ? ', A CHILD DIED' : '') +
	`\n${startLine('first start', r.first, r.n, tdl?.first)}\n${startLine('restart', r.restart, r.n, tdl?.restart)}`

console.log(
	`machine: ${availableParallelism()} cores, ${(totalmem() / 1024 ** 3).toFixed(1)} GiB, load average ${loadavg()
		.map((l) => l.toFixed(1))
		.join(' ')}; ${concurrency} starts in flight`,
)
const tdlBase = bare(Math.min(1000, ...sizes))
console.log(
	`bare tdl, ${Math.min(1000, ...sizes)} clients in one process (the start time baseline):\n` +
		`  first start: ${tdlBase.first.ms.toFixed(2)} ms/client, ${cpu(tdlBase.first)}\n` +
		`  restart: ${tdlBase.restart.ms.toFixed(2)} ms/client, ${cpu(tdlBase.restart)}`,
)
const base = await measure(100, '1')
console.log(`${line(base)}  (baseline of memory and descriptors)`)
const runs: Run[] = []
for (const n of sizes) {
	const r = await measure(n, String(children ?? 'auto'))
	runs.push(r)
	console.log(line(r, base, tdlBase))
}
console.log(
	`load average at the end: ${loadavg()
		.map((l) => l.toFixed(1))
		.join(' ')}`,
)

const goal = runs.find((r) => r.n === GOAL.n)
if (goal) {
	const within = (s: Storm) => s.ms * goal.n <= GOAL.ms && s.failed === 0
	const ok = {
		memory: goal.bytes <= GOAL.bytes,
		fds: goal.fds <= GOAL.fds,
		time: within(goal.first) && within(goal.restart),
		alive: !goal.died,
	}
	console.log(
		`goal (10,000 idle userbots, at most 1.5 MB and 8 descriptors each, started within 120 s, no child death): ` +
			`memory ${mb(goal.bytes)} MB ${ok.memory ? 'OK' : 'MISSED'}, descriptors ${goal.fds.toFixed(2)} ${ok.fds ? 'OK' : 'MISSED'}, ` +
			`start ${((goal.first.ms * goal.n) / 1000).toFixed(1)} s, restart ${((goal.restart.ms * goal.n) / 1000).toFixed(1)} s ${ok.time ? 'OK' : 'MISSED'}, ` +
			`children ${ok.alive ? 'all alive' : 'ONE DIED'}`,
	)
	process.exit(Object.values(ok).every(Boolean) ? 0 : 1)
}
process.exit(0)
