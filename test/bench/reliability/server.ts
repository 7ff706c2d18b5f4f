import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type ServerProcess, startServerProcess } from '../../build/server-process'

/**
 * The server as a user runs it (`bun src/entry/main.ts` on the emulator) in its own process, so that its
 * memory, its file descriptors and its supervisor child are measured alone, and a world set up
 * over REST: two companies, logged-in userbots.
 */
const MAIN = join(import.meta.dir, '..', '..', '..', 'src', 'entry', 'main.ts')
export const PASSWORD = 'Correct-Horse-42'

export interface BenchServer {
	url: string
	pid: number
	dataDir: string
	proc: ServerProcess
	stop(): Promise<void>
}

export async function startBenchServer(
	env: Record<string, string> = {},
	dataDir?: string,
): Promise<BenchServer> {
	const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'ubg-reliability-'))
	const proc = await startServerProcess([process.execPath, MAIN], {
		cwd: dir,
		env: {
			PATH: process.env.PATH ?? '',
			HOME: tmpdir(),
			DATA_DIR: dir,
			PORT: '0',
			TDLIB_BACKEND: 'emulator',
			LOG_LEVEL: 'info',
			REGISTER_RATE_LIMIT_IP: '100000',
			LOGIN_RATE_LIMIT: '100000',
			...env,
		},
		timeoutMs: 60_000,
	})
	return {
		url: proc.url,
		pid: proc.proc.pid,
		dataDir: dir,
		proc,
		async stop() {
			await proc.stop()
			if (!dataDir) rmSync(dir, { recursive: true, force: true })
		},
	}
}

/** Peak resident memory of a process since the last reset, in MB (Linux). */
export function peakRssMb(pid: number): number {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8')
	const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN)
	return kb / 1024
}

export function rssMb(pid: number): number {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8')
	return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024
}

/**
 * RSS every `everyMs` until `stop()`, which returns the samples (MB): a peak where the kernel does
 * not let `resetPeak` start a new one, and the shape of the curve.
 */
export function sampleRss(pid: number, everyMs = 200): { stop(): number[] } {
	const samples: number[] = []
	const timer = setInterval(() => {
		try {
			samples.push(rssMb(pid))
		} catch {
			// The process is gone: the scenario reports it.
		}
	}, everyMs)
	return {
		stop() {
			clearInterval(timer)
			return samples
		},
	}
}

/** Starts a new peak (`echo 5 > clear_refs`); false where the kernel does not allow it. */
export function resetPeak(pid: number): boolean {
	try {
		writeFileSync(`/proc/${pid}/clear_refs`, '5')
		return true
	} catch {
		return false
	}
}

export function openFds(pid: number): number {
	return readdirSync(`/proc/${pid}/fd`).length
}

/** The server's child processes (the supervisor). */
export function childrenOf(pid: number): number[] {
	try {
		return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
			.trim()
			.split(/\s+/)
			.filter(Boolean)
			.map(Number)
	} catch {
		return []
	}
}

const json = (body: unknown, bearer?: string): RequestInit => ({
	method: 'POST',
	headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
	body: JSON.stringify(body),
})

export interface Owner {
	email: string
	access: string
}

/** Registers an owner of a new company and takes a bearer token. */
export async function signUp(url: string, email: string): Promise<Owner> {
	const reg = await fetch(
		`${url}/accounts/register/`,
		json({ email, password: PASSWORD, first_name: 'R', last_name: 'B' }),
	)
	if (reg.status !== 201) throw new Error(`register ${email}: ${reg.status} ${await reg.text()}`)
	return { email, access: await token(url, email) }
}

export async function token(url: string, email: string): Promise<string> {
	const res = await fetch(`${url}/accounts/token/`, json({ email, password: PASSWORD }))
	if (res.status !== 200) throw new Error(`token ${email}: ${res.status}`)
	return ((await res.json()) as { access: string }).access
}

/** Creates a userbot and logs it in on the emulator (phone `99966XYYYY`, code X five times). */
export async function loggedInUserbot(url: string, owner: Owner, phone: string): Promise<number> {
	const made = await fetch(`${url}/api/userbots/`, json({ name: 'bench' }, owner.access))
	const { id } = (await made.json()) as { id: number }
	await fetch(`${url}/api/userbots/${id}/phone/`, json({ phone_number: phone }, owner.access))
	const code = await fetch(
		`${url}/api/userbots/${id}/code/`,
		json({ code: phone.charAt(5).repeat(5) }, owner.access),
	)
	const state = ((await code.json()) as { authorization_state: string }).authorization_state
	if (state !== 'authorizationStateReady') throw new Error(`userbot ${id}: ${state}`)
	return id
}

export const percentile = (values: readonly number[], p: number): number => {
	if (values.length === 0) return Number.NaN
	const sorted = Float64Array.from(values).sort()
	return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!
}
