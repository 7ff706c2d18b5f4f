/**
 * What `idle-userbots.ts` reads of a process and prints: per client figures, their ratios against
 * the baselines of the same run, and the goal lines of issue 30.
 */
import { readdirSync, readFileSync } from 'node:fs'
import type { StartFigures } from './idle-bare-tdl'

export const GOAL = { n: 10_000, bytes: 1.5 * 1024 ** 2, fds: 8, ms: 120_000 }

const TICK_MS = 1000 / Number(Bun.spawnSync(['getconf', 'CLK_TCK']).stdout.toString().trim() || 100)
const status = (pid: number) => readFileSync(`/proc/${pid}/status`, 'utf8')
export const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(status(pid))?.[1] ?? 0) * 1024
export const fdsOf = (pid: number) => readdirSync(`/proc/${pid}/fd`).length
/** User and system CPU milliseconds of a process (fields 14 and 15 of its stat, after the name). */
export const cpuOf = (pid: number) => {
	const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
	return { user: Number(fields[11]) * TICK_MS, sys: Number(fields[12]) * TICK_MS }
}

export interface Storm extends StartFigures {
	failed: number
	/** This process's CPU milliseconds per client (the supervisors' parent side). */
	parentMs: number
}

export interface Run {
	n: number
	children: number
	/** Every client's folders made: once per userbot, when it is added. */
	first: Storm
	/** Every client started again from its folder: the service restarting. */
	restart: Storm
	bytes: number
	fds: number
	deaths: number
}

/** Bare tdl in one process, with TDLib's SQLite database and without it. */
export interface Bare {
	withDb: { first: StartFigures; restart: StartFigures }
	light: { first: StartFigures; restart: StartFigures }
}

const mb = (bytes: number) => (bytes / 1024 ** 2).toFixed(2)
const ratio = (a: number, b?: number) => (b ? `${(a / b).toFixed(2)}×` : '')
const cpuMs = (s: StartFigures) => s.userMs + s.sysMs
const cpu = (s: Storm) =>
	`CPU ${cpuMs(s).toFixed(1)} ms (user ${s.userMs.toFixed(1)}, system ${s.sysMs.toFixed(1)}; parent ${s.parentMs.toFixed(1)})`

function startLine(what: string, s: Storm, n: number, withDb?: StartFigures, light?: StartFigures): string {
	const vs =
		withDb && light
			? ` [CPU ${ratio(cpuMs(s), cpuMs(withDb))} of bare tdl with its database, ${ratio(cpuMs(s), cpuMs(light))} of bare tdl without]`
			: ''
	return (
		`  ${what}: ${((s.ms * n) / 1000).toFixed(1)} s, ${s.ms.toFixed(2)} ms/userbot, ${cpu(s)}${vs}` +
		(s.failed ? `, ${s.failed} did not reach WaitPhoneNumber` : '')
	)
}

export function runLine(r: Run, base?: Run, bare?: Bare): string {
	const of = (a: number, b?: number) => (b ? ` (${ratio(a, b)})` : '')
	return (
		`idle userbots N=${String(r.n).padStart(5)} in ${r.children} children: ` +
		`${mb(r.bytes)} MB/userbot${of(r.bytes, base?.bytes)}, ${r.fds.toFixed(2)} fds/userbot${of(r.fds, base?.fds)}, ` +
		`${r.deaths} child deaths\n` +
		`${startLine('first creation', r.first, r.n, bare?.withDb.first, bare?.light.first)}\n` +
		startLine('restart', r.restart, r.n, bare?.withDb.restart, bare?.light.restart)
	)
}

/**
 * The goal lines for the last run. The goal is set for 10,000 clients; a smaller run prints its own
 * figures and what they project to at 10,000 (start time in proportion), and no verdict (`met`
 * undefined).
 */
export function goalLines(r: Run, cores: number, load: string): { lines: string[]; met?: boolean } {
	const restartS = (r.restart.ms * r.n) / 1000
	const firstS = (r.first.ms * r.n) / 1000
	const judged = r.n >= GOAL.n
	const ok = {
		time: restartS * 1000 <= GOAL.ms && r.restart.failed === 0,
		memory: r.bytes <= GOAL.bytes,
		fds: r.fds <= GOAL.fds,
		alive: r.deaths === 0,
	}
	const verdict = (good: boolean) => (judged ? (good ? ' OK' : ' MISSED') : '')
	const projected = judged ? '' : `; at ${GOAL.n}: ${((r.restart.ms * GOAL.n) / 1000).toFixed(0)} s projected`
	const lines = [
		`goal (issue 30: ${GOAL.n} idle userbots on 2 cores) for N=${r.n} on ${cores} cores, ${r.children} children, load average ${load}:`,
		`start: ${restartS.toFixed(1)} s for ${r.n} (goal ≤ ${GOAL.ms / 1000} s)${verdict(ok.time)}${projected} [the service restarting with them on disk]`,
		`first creation: ${firstS.toFixed(1)} s for ${r.n} [once per userbot, when it is added]`,
		`memory per client: ${mb(r.bytes)} MB (goal ≤ ${mb(GOAL.bytes)} MB)${verdict(ok.memory)}`,
		`descriptors per client: ${r.fds.toFixed(2)} (goal ≤ ${GOAL.fds})${verdict(ok.fds)}`,
		`child deaths ${r.deaths}${verdict(ok.alive)}`,
	]
	return judged ? { lines, met: Object.values(ok).every(Boolean) } : { lines }
}
