/**
 * Idle userbots (docs/capacity.md): N real TDLib clients (offline) across supervisor children, for
 * N = 1,000, 3,000 and 10,000 (`--max N` stops earlier; `--children K` fixes the children, else
 * `SUPERVISORS=auto` sizes them from the machine). First a baseline in the same run: 100 clients in
 * one child. Each run gets a fresh runtime and data folder; each child's resident memory (VmRSS)
 * and open descriptors (/proc/<pid>/fd) are read before the first client and once all of them
 * reached `authorizationStateWaitPhoneNumber`; starts go 64 at a time, as the service restores them.
 * Printed: per client memory, descriptors and start time, as figures and as ratios to the baseline,
 * the children, the core count, and whether a child died (its pid changed or it restarted).
 * Goal (issue 30): 10,000 idle clients at most 1.5 MB and 8 descriptors each, all started within
 * 120 s, no child death, on a 2-core 24 GiB machine.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { availableParallelism, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../src/config'
import { createLogger } from '../../src/logger'
import { createRuntime, type LocalRuntime } from '../../src/supervisor'
import { ShardedRuntime } from '../../src/supervisor/sharded'
import { generateDatabaseKey } from '../../src/userbots/key-crypto'

// Real clients are told networkTypeNone first: no traffic leaves the machine.
process.env.TDLIB_OFFLINE = '1'

const GOAL = { n: 10_000, bytes: 1.5 * 1024 ** 2, fds: 8, ms: 120_000 }
const CONCURRENCY = 64
const arg = (name: string) => {
	const i = process.argv.indexOf(name)
	return i >= 0 ? Number(process.argv[i + 1]) : undefined
}
const max = arg('--max') ?? Number.POSITIVE_INFINITY
const children = arg('--children')
const sizes = [1000, 3000, 10_000].filter((n) => n <= max)

const status = (pid: number) => readFileSync(`/proc/${pid}/status`, 'utf8')
const rss = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(status(pid))?.[1] ?? 0) * 1024
const fds = (pid: number) => readdirSync(`/proc/${pid}/fd`).length
const mb = (bytes: number) => (bytes / 1024 ** 2).toFixed(2)

interface Run {
	n: number
	children: number
	ms: number
	bytes: number
	fds: number
	failed: number
	died: boolean
}

const pidsOf = (rt: LocalRuntime) => (rt instanceof ShardedRuntime ? rt.pids : [rt.pid]) as number[]

async function startAll(runtime: LocalRuntime, n: number): Promise<number> {
	let next = 0
	let failed = 0
	const worker = async () => {
		while (next < n) {
			const id = ++next
			const state = await runtime
				.startClient(id, { encryptionKey: generateDatabaseKey() })
				.catch((err: Error) => err.message)
			if (state !== 'authorizationStateWaitPhoneNumber') {
				if (failed++ === 0) console.log(`  first failure (userbot ${id}): ${state}`)
			}
		}
	}
	await Promise.all(Array.from({ length: CONCURRENCY }, worker))
	return failed
}

async function measure(n: number, supervisors: string): Promise<Run> {
	const dataDir = mkdtempSync(join(tmpdir(), 'ubg-bench-idle-'))
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
	const pids = pidsOf(runtime)
	try {
		await Bun.sleep(300)
		const baseBytes = pids.reduce((s, p) => s + rss(p), 0)
		const baseFds = pids.reduce((s, p) => s + fds(p), 0)
		const started = performance.now()
		const failed = await startAll(runtime, n)
		const ms = performance.now() - started
		// Idle clients keep settling for a moment: take the highest reading over a second.
		let peak = 0
		let openFds = 0
		for (let i = 0; i < 10; i++) {
			peak = Math.max(
				peak,
				pids.reduce((s, p) => s + rss(p), 0),
			)
			openFds = Math.max(
				openFds,
				pids.reduce((s, p) => s + fds(p), 0),
			)
			await Bun.sleep(100)
		}
		const died = runtime.health().restarts > 0 || pidsOf(runtime).some((p, i) => p !== pids[i])
		return {
			n,
			children: pids.length,
			ms,
			bytes: (peak - baseBytes) / n,
			fds: (openFds - baseFds) / n,
			failed,
			died,
		}
	} finally {
		await runtime.close()
		rmSync(dataDir, { recursive: true, force: true })
	}
}

const line = (r: Run, base?: Run) =>
	`idle userbots N=${String(r.n).padStart(5)} in ${r.children} children: start ${(r.ms / 1000).toFixed(1)} s ` +
	`(${(r.ms / r.n).toFixed(2)} ms/userbot${base ? `, ${(r.ms / r.n / (base.ms / base.n)).toFixed(2)}×` : ''}), ` +
	`${mb(r.bytes)} MB/userbot${base ? ` (${(r.bytes / base.bytes).toFixed(2)}×)` : ''}, ` +
	`${r.fds.toFixed(2)} fds/userbot${base ? ` (${(r.fds / base.fds).toFixed(2)}×)` : ''}` +
	(r.failed ? `, ${r.failed} did not reach WaitPhoneNumber` : '') +
	(r.died ? ', A CHILD DIED' : '')

console.log(`machine: ${availableParallelism()} cores, ${(totalmem() / 1024 ** 3).toFixed(1)} GiB`)
const base = await measure(100, '1')
console.log(`${line(base)}  (baseline)`)
const runs: Run[] = []
for (const n of sizes) {
	const r = await measure(n, String(children ?? 'auto'))
	runs.push(r)
	console.log(line(r, base))
}

const goal = runs.find((r) => r.n === GOAL.n)
if (goal) {
	const ok = {
		memory: goal.bytes <= GOAL.bytes,
		fds: goal.fds <= GOAL.fds,
		time: goal.ms <= GOAL.ms && goal.failed === 0,
		alive: !goal.died,
	}
	console.log(
		`goal (10,000 idle userbots, at most 1.5 MB and 8 descriptors each, started within 120 s, no child death): ` +
			`memory ${mb(goal.bytes)} MB ${ok.memory ? 'OK' : 'MISSED'}, descriptors ${goal.fds.toFixed(2)} ${ok.fds ? 'OK' : 'MISSED'}, ` +
			`start ${(goal.ms / 1000).toFixed(1)} s ${ok.time ? 'OK' : 'MISSED'}, children ${ok.alive ? 'all alive' : 'ONE DIED'}`,
	)
	process.exit(Object.values(ok).every(Boolean) ? 0 : 1)
}
process.exit(0)
