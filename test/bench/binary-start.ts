/**
 * Benchmark: the compiled binary against `npm start` of the same source (`bun src/entry/main.ts`, what
 * `npm start` runs once its install step is done), in alternating rounds in one run. Each start
 * gets an empty data folder (migrations included) and the emulator backend, so both start their
 * supervisor child. Measured: time from spawn to the first `/health` 200, then the resident memory
 * (VmRSS) of the server and of its child after a second of idling. The Deno entry (REST only, no
 * child) is timed the same way for reference. Prints ratios binary / npm start; no goal, exits 0.
 *
 *   node_modules/.bin/bun test/bench/binary-start.ts
 */
import { chmodSync, copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildBinary } from '../../src/build/compile'
import { denoCommand } from '../../src/platform/deno/command'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const root = join(import.meta.dir, '..', '..')

interface Sample {
	ms: number
	serverRss: number
	childRss: number
}

function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const s = createServer()
		s.once('error', reject)
		s.listen(0, '127.0.0.1', () => {
			const address = s.address()
			s.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
		})
	})
}

function rss(pid: number): number {
	const line = readFileSync(`/proc/${pid}/status`, 'utf8')
		.split('\n')
		.find((l) => l.startsWith('VmRSS:'))
	return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) * 1024
}

function childPids(pid: number): number[] {
	const found: number[] = []
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
			if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) found.push(Number(entry))
		} catch {
			// Gone while we looked.
		}
	}
	return found
}

async function startOnce(cmd: string[], extraEnv: Record<string, string> = {}): Promise<Sample> {
	const cwd = mkdtempSync(join(tmpdir(), 'ubg-bench-start-'))
	const port = await freePort()
	const started = performance.now()
	const proc = Bun.spawn(cmd, {
		cwd,
		env: {
			PATH: process.env.PATH ?? '',
			HOME: cwd,
			PORT: String(port),
			TDLIB_BACKEND: 'emulator',
			LOG_LEVEL: 'error',
			...extraEnv,
		},
		stdin: 'ignore',
		stdout: 'ignore',
		stderr: 'ignore',
	})
	try {
		let ms = 0
		const deadline = Date.now() + 60_000
		for (;;) {
			if (proc.exitCode !== null) throw new Error(`${cmd[0]} exited with ${proc.exitCode}`)
			if (Date.now() > deadline) throw new Error(`${cmd[0]}: no /health after 60 s`)
			try {
				const res = await fetch(`http://127.0.0.1:${port}/health`)
				if (res.status === 200) {
					ms = performance.now() - started
					break
				}
			} catch {
				// Not listening yet.
			}
			await Bun.sleep(2)
		}
		await Bun.sleep(1000)
		const childRss = childPids(proc.pid).reduce((sum, pid) => sum + rss(pid), 0)
		return { ms, serverRss: rss(proc.pid), childRss }
	} finally {
		proc.kill('SIGTERM')
		await proc.exited
		rmSync(cwd, { recursive: true, force: true })
	}
}

const median = (xs: number[]) => {
	const s = [...xs].sort((a, b) => a - b)
	return s[Math.floor(s.length / 2)] ?? 0
}
const mb = (bytes: number) => (bytes / 1024 ** 2).toFixed(1)

const built = await buildBinary()
const binDir = mkdtempSync(join(tmpdir(), 'ubg-bench-bin-'))
const binary = join(binDir, 'userbot-gateway')
copyFileSync(built.outfile, binary)
chmodSync(binary, 0o755)
console.log(`binary: ${mb(built.bytes)} MB, built in ${(built.ms / 1000).toFixed(1)} s`)

const source = [process.execPath, join(root, 'src', 'entry', 'main.ts')]
const deno = denoCommand()
const runs: Record<'binary' | 'source' | 'deno', Sample[]> = { binary: [], source: [], deno: [] }
try {
	// One unmeasured start each: the page cache and Deno's module cache are warm for every measured one.
	await startOnce([binary])
	await startOnce(source)
	await startOnce(deno, { DENO_DIR: join(root, '.tmp', 'deno-dir') })
	for (let round = 0; round < ROUNDS; round++) {
		runs.binary.push(await startOnce([binary]))
		runs.source.push(await startOnce(source))
		runs.deno.push(await startOnce(deno, { DENO_DIR: join(root, '.tmp', 'deno-dir') }))
	}
} finally {
	rmSync(binDir, { recursive: true, force: true })
}

const summary = (name: string, samples: Sample[]) => {
	const ms = median(samples.map((s) => s.ms))
	const server = median(samples.map((s) => s.serverRss))
	const child = median(samples.map((s) => s.childRss))
	console.log(
		`${name.padEnd(10)} start to /health ${ms.toFixed(0).padStart(5)} ms; idle RSS server ${mb(server)} MB, ` +
			`supervisor child ${mb(child)} MB (median of ${samples.length})`,
	)
	return { ms, server, child }
}
const b = summary('binary', runs.binary)
const s = summary('npm start', runs.source)
summary('deno REST', runs.deno)
console.log(
	`binary / npm start: start ${(b.ms / s.ms).toFixed(2)}, server RSS ${(b.server / s.server).toFixed(2)}, ` +
		`child RSS ${(b.child / s.child).toFixed(2)}`,
)
process.exit(0)
