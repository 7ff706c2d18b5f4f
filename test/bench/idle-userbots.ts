/**
 * Idle userbots: memory and start time of N real TDLib clients (offline) in one supervisor child,
 * for N = 10, 100 and 1,000 (`--max N` stops earlier). Each N gets a fresh supervisor and data
 * folder; the child's resident memory (VmRSS) is read before the first client and once all of them
 * reached `authorizationStateWaitPhoneNumber`. Goal: 1,000 idle userbots under 2 GiB, started
 * within 30 s. Measured before any lifecycle code: about 1.7 MB and 15 ms per idle client at N = 200.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../src/config'
import { createLogger } from '../../src/logger'
import { createRuntime } from '../../src/supervisor'
import { generateDatabaseKey } from '../../src/userbots/key-crypto'

// Real clients are told networkTypeNone first: no traffic leaves the machine.
process.env.TDLIB_OFFLINE = '1'

const GOAL = { n: 1000, bytes: 2 * 1024 ** 3, ms: 30_000 }
const maxArg = process.argv.indexOf('--max')
const max = maxArg >= 0 ? Number(process.argv[maxArg + 1]) : Number.POSITIVE_INFINITY
const sizes = [10, 100, 1000].filter((n) => n <= max)

function rssBytes(pid: number): number {
	const line = readFileSync(`/proc/${pid}/status`, 'utf8')
		.split('\n')
		.find((l) => l.startsWith('VmRSS:'))
	return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) * 1024
}

const mb = (bytes: number) => (bytes / 1024 ** 2).toFixed(2)

interface Run {
	n: number
	ms: number
	base: number
	peak: number
	failed: number
}

async function measure(n: number): Promise<Run> {
	const dataDir = mkdtempSync(join(tmpdir(), 'ubg-bench-idle-'))
	const config = loadConfig({
		DATA_DIR: dataDir,
		TDLIB_BACKEND: 'tdlib',
		TELEGRAM_API_ID: '1',
		TELEGRAM_API_HASH: '0123456789abcdef0123456789abcdef',
		COMMAND_TIMEOUT: '120000',
		LOG_LEVEL: 'error',
	})
	const runtime = await createRuntime(config, createLogger('error'), { closeTimeoutMs: 60_000 })
	if (!runtime?.pid) throw new Error('no supervisor')
	const pid = runtime.pid
	try {
		await Bun.sleep(200)
		const base = rssBytes(pid)
		const started = performance.now()
		const states = await Promise.allSettled(
			Array.from({ length: n }, (_, i) =>
				runtime.startClient(i + 1, { encryptionKey: generateDatabaseKey() }),
			),
		)
		const ms = performance.now() - started
		const failed = states.filter(
			(s) => s.status !== 'fulfilled' || s.value !== 'authorizationStateWaitPhoneNumber',
		).length
		// Idle clients keep settling for a moment: take the highest reading over a second.
		let peak = rssBytes(pid)
		for (let i = 0; i < 10; i++) {
			await Bun.sleep(100)
			peak = Math.max(peak, rssBytes(pid))
		}
		return { n, ms, base, peak, failed }
	} finally {
		await runtime.close()
		rmSync(dataDir, { recursive: true, force: true })
	}
}

const runs: Run[] = []
for (const n of sizes) {
	const r = await measure(n)
	runs.push(r)
	const per = (r.peak - r.base) / n
	console.log(
		`idle userbots N=${String(n).padStart(4)}: start ${r.ms.toFixed(0).padStart(6)} ms (${(r.ms / n).toFixed(2)} ms/userbot), ` +
			`child RSS ${mb(r.base)} -> ${mb(r.peak)} MB (${mb(per)} MB/userbot)` +
			(r.failed ? `, ${r.failed} did not reach WaitPhoneNumber` : ''),
	)
}

const goal = runs.find((r) => r.n === GOAL.n)
if (goal) {
	const memOk = goal.peak < GOAL.bytes
	const timeOk = goal.ms < GOAL.ms && goal.failed === 0
	console.log(
		`goal (1,000 idle userbots in one supervisor under 2 GiB, all started within 30 s): ` +
			`memory ${mb(goal.peak)} MB ${memOk ? 'OK' : 'MISSED'}, start ${(goal.ms / 1000).toFixed(1)} s ${timeOk ? 'OK' : 'MISSED'}`,
	)
	process.exit(memOk && timeOk ? 0 : 1)
}
process.exit(0)
