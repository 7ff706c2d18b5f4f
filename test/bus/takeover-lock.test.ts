import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { RemoteRuntime } from '../../src/runtime/bus/remote-runtime'
import { ownerOf } from '../../src/runtime/supervisor/rendezvous'
import { BINLOG, folderHolder } from '../../src/runtime/telegram/binlog-lock'
import { RuntimeError, TdError } from '../../src/runtime/telegram/types'
import type { TestInstance } from '../helpers'
import { connectWs, registerUser, type TestUser, type WsClient } from '../helpers-ws'
import {
	clusterEnv,
	loggedInOverRest,
	type NatsServer,
	overlaps,
	PLAIN_PHONES,
	readRuns,
	type ShardProcess,
	startGateway,
	startNats,
	startShard,
	until,
	userbotsRest,
} from './cluster'

/**
 * One owner per account, TDLib's lock the last fence (docs/shards.md#one-owner-per-account). Two
 * shard processes on one `DATA_DIR/tdlib`; one is stopped (SIGSTOP, with its supervisor child, so
 * its clients stay open) for longer than its lease; the other takes its userbots over, is refused
 * their folders while the stopped one holds them (`userbot runtime unavailable, try again`), and
 * starts them once it is resumed and has let go, having touched no account. Throughout, a watcher
 * in this process reads who holds each userbot's binlog and which processes have it open: never two.
 * With the emulator (logged-in accounts, commands over the WebSocket) and with real TDLib offline
 * (accounts waiting for their phone number, requests through the gateway's runtime).
 */
const TDLIB_ENV = {
	TDLIB_BACKEND: 'tdlib',
	TELEGRAM_API_ID: '1',
	TELEGRAM_API_HASH: '0123456789abcdef0123456789abcdef',
	TDLIB_OFFLINE: '1',
}
const SHARDS = ['s1', 's2']
const USERBOTS = 4

/** The process ids of a process's children. */
function childrenOf(pid: number): number[] {
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

/** Whether `pid` has `path` open. */
function hasOpen(pid: number, path: string): boolean {
	try {
		return readdirSync(`/proc/${pid}/fd`).some((fd) => {
			try {
				return readlinkSync(`/proc/${pid}/fd/${fd}`) === path
			} catch {
				return false
			}
		})
	} catch {
		return false
	}
}

interface Watcher {
	samples: number
	/** Moments a binlog was open in two processes at two samples in a row. */
	faults: string[]
	/** Each userbot's lock holders, in the order seen (a repeat collapsed). */
	holders: Map<number, number[]>
	/** One look now (the timer takes one every 10 ms too). */
	sample(): void
	stop(): void
}

/**
 * Reads, every 10 ms, who holds each userbot's binlog and which supervisor children have it open.
 * TDLib opens a binlog a moment before it locks it and unlocks it a moment before it closes it, so
 * one sample may see the file open in the process that lets go and in the one that takes over; two
 * samples in a row would be a client opened beside one that still holds the folder.
 */
function watchLocks(dataDir: string, userbots: number[], shards: () => ShardProcess[]): Watcher {
	const sharedBefore = new Set<number>()
	const w: Watcher = {
		samples: 0,
		faults: [],
		holders: new Map(),
		sample() {
			const children = shards().flatMap((s) => childrenOf(s.proc.pid))
			for (const id of userbots) {
				const folder = join(dataDir, 'tdlib', String(id), 'db')
				const holder = folderHolder(folder)
				const open = children.filter((pid) => hasOpen(pid, join(folder, BINLOG)))
				if (open.length > 1 && sharedBefore.has(id))
					w.faults.push(`userbot ${id}'s binlog open in ${open.join(' and ')} (locked by ${holder})`)
				if (open.length > 1) sharedBefore.add(id)
				else sharedBefore.delete(id)
				const seen = w.holders.get(id) ?? []
				if (holder !== null && seen.at(-1) !== holder) seen.push(holder)
				w.holders.set(id, seen)
			}
			w.samples++
		},
		stop: () => clearInterval(timer),
	}
	const timer = setInterval(() => w.sample(), 10)
	return w
}

/** One request at a time per userbot, each answer kept: which one, and how often each. */
interface Load {
	answers: Map<string, number>
	sent: number
	answered: number
	stop(): Promise<void>
}

function keepAsking(ask: (userbotId: number) => Promise<string>, userbots: number[]): Load {
	let running = true
	const load: Load = {
		answers: new Map(),
		sent: 0,
		answered: 0,
		async stop() {
			running = false
			await Promise.all(lanes)
		},
	}
	const lanes = userbots.map(async (id) => {
		while (running) {
			load.sent++
			const answer = await ask(id)
			load.answered++
			load.answers.set(answer, (load.answers.get(answer) ?? 0) + 1)
			await Bun.sleep(20)
		}
	})
	return load
}

function describeTakeover(backend: 'emulator' | 'tdlib') {
	describe(`a shard stopped past its lease with its clients open (${backend})`, () => {
		let nats: NatsServer
		let dataDir: string
		let env: Record<string, string>
		let gateway: TestInstance
		const shards = new Map<string, ShardProcess>()
		let user: TestUser
		const userbots: number[] = []
		let socket: WsClient | undefined

		beforeAll(async () => {
			nats = await startNats()
			dataDir = mkdtempSync(join(tmpdir(), `ubg-takeover-${backend}-`))
			env = { ...clusterEnv(nats, dataDir), ...(backend === 'tdlib' ? TDLIB_ENV : {}) }
			gateway = await startGateway(env, dataDir)
			for (const id of SHARDS) shards.set(id, await startShard(env, id))
			user = await registerUser(gateway, `takeover-${backend}-${Date.now()}@example.com`)
			const post = userbotsRest(gateway.url, user.access)
			for (let i = 0; i < USERBOTS; i++)
				userbots.push(
					backend === 'emulator'
						? await loggedInOverRest(post, PLAIN_PHONES[i % PLAIN_PHONES.length] as string)
						: (await post('', { name: `offline ${i}` })).id,
				)
			if (backend === 'emulator') socket = await connectWs(gateway.url, { bearer: user.access })
		}, 90_000)

		afterAll(async () => {
			socket?.close()
			for (const s of shards.values()) {
				for (const pid of [s.proc.pid, ...childrenOf(s.proc.pid)]) {
					try {
						process.kill(pid, 'SIGCONT')
					} catch {
						// gone
					}
				}
			}
			await Promise.allSettled([gateway?.halt(), ...[...shards.values()].map((s) => s.stop())])
			await nats?.stop()
			if (dataDir) rmSync(dataDir, { recursive: true, force: true })
		}, 30_000)

		/** Every request gets one answer; these are what they may be. */
		const ask = async (id: number): Promise<string> => {
			if (socket) {
				const reply = await socket.command(
					{ action: 'get_default_message_auto_delete_time', userbot_id: id },
					20_000,
				)
				return reply.payload.error ?? 'ok'
			}
			const runtime = gateway.ctx.runtime as RemoteRuntime
			return runtime.invoke(id, { _: 'getMe' }, { label: 'userbots:ready', timeoutMs: 5_000 }).then(
				() => 'ok',
				(err: unknown) =>
					err instanceof TdError
						? err.message
						: err instanceof RuntimeError
							? err.code
							: `unexpected: ${String(err)}`,
			)
		}
		/** The answer of a userbot running on a shard, as opposed to one still held elsewhere. */
		const running = backend === 'emulator' ? 'ok' : 'Unauthorized'
		const heldElsewhere = backend === 'emulator' ? 'userbot runtime unavailable, try again' : 'held_elsewhere'

		it('has its userbots taken over only once it has let go of them, each request answered once', async () => {
			const victimId = SHARDS.find((s) => userbots.some((u) => ownerOf(u, SHARDS) === s)) as string
			const otherId = SHARDS.find((s) => s !== victimId) as string
			const victim = shards.get(victimId) as ShardProcess
			const moving = userbots.filter((u) => ownerOf(u, SHARDS) === victimId)
			for (const u of userbots)
				await until(
					`userbot ${u} running`,
					async () => ((await ask(u)) === running ? true : undefined),
					30_000,
				)
			const [child] = childrenOf(victim.proc.pid)
			expect(child).toBeNumber()
			const runLog = env.SUPERVISOR_RUN_LOG as string
			/** The supervisor the run log last saw start the userbot. */
			const lastStart = (u: number) =>
				readRuns(runLog)
					.filter((r) => r.userbotId === u && r.event === 'start')
					.at(-1)
			const watcher = watchLocks(dataDir, userbots, () => [...shards.values()])
			const load = keepAsking(ask, userbots)
			let answers: string[] = []
			const answered = (u: number, what: string) => async () => {
				const answer = await ask(u)
				answers = [...answers.slice(-5), answer]
				return answer === what ? true : undefined
			}
			let shardStopped = false
			let otherChild: number | undefined
			try {
				// Frozen whole: the shard first (it cannot see its child stop), then its child, whose clients
				// stay open and keep their folders' locks; its fence cannot run out while it is stopped.
				victim.proc.kill('SIGSTOP')
				shardStopped = true
				process.kill(child as number, 'SIGSTOP')
				// The other shard takes them over once the frozen one is gone from the bus, and is refused
				// each folder while the frozen child holds it.
				for (const u of moving)
					await until(
						`userbot ${u} refused its folder on ${otherId}`,
						answered(u, heldElsewhere),
						20_000,
					).catch((err: Error) => {
						throw new Error(`${err.message}; last answers: ${answers.join(', ')}`)
					})
				for (const u of moving)
					expect(folderHolder(join(dataDir, 'tdlib', String(u), 'db'))).toBe(child as number)
				watcher.sample()
				// The child wakes first: its fence has run out, so it closes its clients, lets go of their
				// folders, and the other shard starts them as soon as it sees them free.
				process.kill(child as number, 'SIGCONT')
				for (const u of moving)
					await until(`userbot ${u} running on ${otherId}`, answered(u, running), 20_000)
				for (const u of moving) expect(lastStart(u)?.supervisor).toBe(`${otherId}/0`)
				otherChild = childrenOf((shards.get(otherId) as ShardProcess).proc.pid)[0]
				for (const u of moving)
					expect(folderHolder(join(dataDir, 'tdlib', String(u), 'db'))).toBe(otherChild as number)
				watcher.sample()
			} finally {
				process.kill(child as number, 'SIGCONT')
				if (shardStopped) victim.proc.kill('SIGCONT')
			}
			// The shard wakes: cut off, it comes back as a new incarnation and gets its share handed back.
			for (const u of moving)
				await until(
					`userbot ${u} back on ${victimId}`,
					async () =>
						lastStart(u)?.supervisor === `${victimId}/0` && (await ask(u)) === running ? true : undefined,
					20_000,
				)
			await load.stop()
			watcher.stop()

			expect(watcher.faults).toEqual([])
			// Each moving userbot's folder: held by the frozen child, then by the other shard's child
			// once the frozen one had let go (then by the woken shard's new start).
			for (const u of moving)
				expect((watcher.holders.get(u) ?? []).slice(0, 2)).toEqual([child as number, otherChild as number])
			const runs = readRuns(runLog)
			expect(overlaps(runs)).toEqual([])
			for (const u of moving)
				expect(runs.some((r) => r.userbotId === u && r.pid === child && r.event === 'stop')).toBe(true)
			// Every request answered once, with what a userbot on its way from one shard to another says.
			expect(load.answered).toBe(load.sent)
			const allowed = new Set([
				running,
				heldElsewhere,
				...(backend === 'emulator'
					? ['userbot runtime restarted, try again', 'userbot runtime unavailable']
					: ['runtime_down', 'no_client', 'unavailable']),
			])
			expect([...load.answers.keys()].filter((a) => !allowed.has(a))).toEqual([])
			expect(load.answers.get(heldElsewhere)).toBeGreaterThan(0)
			// The accounts were not touched: every userbot answers as before, on whichever shard owns it.
			for (const u of userbots) expect(await ask(u)).toBe(running)
		}, 120_000)
	})
}

describeTakeover('emulator')
describeTakeover('tdlib')
