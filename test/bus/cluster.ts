import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Subprocess } from 'bun'
import { getTestInstance, type TestInstance } from '../helpers'

import { type NatsServer, readUntil, shardBusUrl, terminate } from './nats'

/**
 * A bus on this machine for the tests: a real `nats-server` started with the repository's
 * configuration (`nats.ts`), shard processes (`ROLE=shard`, the real entry, each with its own
 * user) and gateways (in-process apps with `ROLE=gateway`, the gateway's user) sharing one data
 * folder and database file.
 */
export { type NatsServer, startNats, terminate } from './nats'

/** The server's entry, as `npm start` runs it. */
export const SERVER_ENTRY = join(import.meta.dir, '..', '..', 'src', 'entry', 'main.ts')

export interface Cluster {
	nats: NatsServer
	dataDir: string
	runLog: string
	env: Record<string, string>
}

export const HEARTBEAT_MS = 300

export function clusterEnv(nats: NatsServer, dataDir: string): Record<string, string> {
	return {
		BUS_URL: nats.url,
		BUS_HEARTBEAT: String(HEARTBEAT_MS),
		DATA_DIR: dataDir,
		TDLIB_BACKEND: 'emulator',
		TDLIB_OFFLINE: '1',
		SUPERVISOR_RUN_LOG: join(dataDir, 'runs.jsonl'),
	}
}

export interface ShardProcess {
	id: string
	/** Where its own `GET /health` answers. */
	url: string
	proc: Subprocess
	lines: string[]
	/** SIGTERM and wait: a clean stop. */
	stop(): Promise<void>
	/** SIGKILL and wait. */
	kill(): Promise<void>
}

/** Starts `bun src/entry/main.ts` as a shard; resolves once it has joined the bus. */
export async function startShard(
	env: Record<string, string>,
	id: string,
	extra: Record<string, string> = {},
): Promise<ShardProcess> {
	const proc = Bun.spawn([process.execPath, '--no-env-file', SERVER_ENTRY], {
		env: {
			PATH: process.env.PATH ?? '',
			HOME: process.env.HOME ?? '',
			...env,
			// Its own user on the test's server: a shard's permissions name its SHARD_ID.
			...(shardBusUrl(env, id) ? { BUS_URL: shardBusUrl(env, id) as string } : {}),
			ROLE: 'shard',
			SHARD_ID: id,
			PORT: '0',
			LOG_LEVEL: 'info',
			...extra,
		},
		stdout: 'ignore',
		stderr: 'pipe',
	})
	const lines: string[] = []
	let url: string
	try {
		// It listens once it has joined the bus.
		url = await readUntil(proc.stderr, /"msg":"listening".*"url":"([^"]+)"/, 20_000, lines)
	} catch (err) {
		proc.kill('SIGKILL')
		throw new Error(`shard ${id} did not join: ${lines.slice(-40).join(' | ')}`, { cause: err })
	}
	return {
		id,
		url,
		proc,
		lines,
		stop: () => terminate(proc),
		async kill() {
			proc.kill('SIGKILL')
			await proc.exited
		},
	}
}

export interface GatewayProcess {
	url: string
	proc: Subprocess
	lines: string[]
	stop(): Promise<void>
}

/**
 * A gateway in its own process (`bun src/entry/main.ts`, ROLE=gateway). Two gateways must not share one
 * process: the embedded database's driver waits for another connection's lock synchronously, so
 * two apps of one process writing one file stall each other for the whole busy timeout.
 */
export async function startGatewayProcess(env: Record<string, string>): Promise<GatewayProcess> {
	const proc = Bun.spawn([process.execPath, '--no-env-file', SERVER_ENTRY], {
		env: {
			PATH: process.env.PATH ?? '',
			HOME: process.env.HOME ?? '',
			...env,
			ROLE: 'gateway',
			PORT: '0',
			LOG_LEVEL: 'info',
		},
		stdout: 'ignore',
		stderr: 'pipe',
	})
	const lines: string[] = []
	let url: string
	try {
		url = await readUntil(proc.stderr, /"msg":"listening","url":"(http:\/\/[^"]+)"/, 20_000, lines)
	} catch (err) {
		proc.kill('SIGKILL')
		throw new Error(`gateway did not start: ${lines.slice(-5).join(' | ')}`, { cause: err })
	}
	return {
		url,
		proc,
		lines,
		stop: () => terminate(proc),
	}
}

/** Seeded emulator accounts that log in without 2FA (the first is Bob). */
export const PLAIN_PHONES = ['9996621234', '9996611111', '9996614444', '9996625555']

/** POSTs to a gateway's userbot routes as the user; a refusal throws with its status and body. */
export function userbotsRest(url: string, access: string) {
	return async (path: string, body: unknown) => {
		const res = await fetch(`${url}/api/userbots/${path}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', authorization: `Bearer ${access}` },
			body: JSON.stringify(body),
		})
		if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`)
		return (await res.json()) as { id: number; authorization_state: string }
	}
}

/**
 * A userbot made and logged in over REST, as a user would (its key sealed, so that any gateway can
 * start it again), on a seeded account without 2FA: its code is its phone's sixth digit five times.
 */
export async function loggedInOverRest(
	post: ReturnType<typeof userbotsRest>,
	phone: string,
	name = `bot ${phone}`,
): Promise<number> {
	const { id } = await post('', { name })
	await post(`${id}/phone/`, { phone_number: phone })
	const done = await post(`${id}/code/`, { code: phone.charAt(5).repeat(5) })
	if (done.authorization_state !== 'authorizationStateReady')
		throw new Error(`userbot ${id} is ${done.authorization_state} after its code`)
	return id
}

/** A gateway: an in-process app on the shared folder and database, `ROLE=gateway`. */
export function startGateway(env: Record<string, string>, dataDir: string): Promise<TestInstance> {
	return getTestInstance({ ...env, ROLE: 'gateway' }, { dataDir })
}

export interface RunRecord {
	supervisor: string
	pid: number
	userbotId: number
	event: 'start' | 'stop'
	at: number
}

export function readRuns(path: string): RunRecord[] {
	if (!existsSync(path)) return []
	return readFileSync(path, 'utf8')
		.split('\n')
		.filter(Boolean)
		.map((l) => JSON.parse(l) as RunRecord)
}

/**
 * Walks the record in the order it was written (appends from every process, in the kernel's order)
 * and returns every moment a userbot was started while another supervisor still ran it.
 */
export function overlaps(runs: RunRecord[]): string[] {
	const running = new Map<number, Set<string>>()
	const found: string[] = []
	for (const r of runs) {
		const who = `${r.supervisor}#${r.pid}`
		const set = running.get(r.userbotId) ?? new Set<string>()
		running.set(r.userbotId, set)
		if (r.event === 'start') {
			if (set.size > 0)
				found.push(`userbot ${r.userbotId} started on ${who} while ${[...set].join(', ')} ran it`)
			set.add(who)
		} else set.delete(who)
	}
	return found
}

export async function until<T>(
	what: string,
	find: () => Promise<T | undefined> | T | undefined,
	ms = 15_000,
) {
	const end = Date.now() + ms
	for (;;) {
		const found = await find()
		if (found !== undefined) return found
		if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`)
		await Bun.sleep(50)
	}
}
