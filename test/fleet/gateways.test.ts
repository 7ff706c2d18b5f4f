import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Subprocess } from 'bun'
import {
	clusterEnv,
	loggedInOverRest,
	type NatsServer,
	SERVER_ENTRY,
	type ShardProcess,
	startGateway,
	startNats,
	startShard,
	terminate,
	until,
	userbotsRest,
} from '../bus/cluster'
import { readUntil } from '../bus/nats'
import type { TestInstance } from '../helpers'
import { type ChatUpdate, connectWs, registerUser, type TestUser, type WsClient } from '../helpers-ws'
import { acceptedBy, listensOn } from './sockets'

/**
 * Issue 30, every core: `ROLE=gateway GATEWAYS=2`, the one command, on a real nats-server with one
 * shard. Which gateway process accepted a connection is read from /proc (the server end of the
 * connection is in exactly one process's descriptors), not asked of the gateways. The tests run in
 * order on one fleet: both serve; a SIGTERM of one loses no command of the other's clients (and the
 * parent starts it again); a SIGKILL of one is restarted too; a SIGTERM of the parent stops all.
 */
const GET = 'get_default_message_auto_delete_time'

interface LogLine {
	msg: string
	gateway?: number
	pid?: number
	pids?: number[]
	url?: string
	signal?: string | null
}

describe('GATEWAYS=2: gateway processes on one port', () => {
	let nats: NatsServer
	let dataDir: string
	let env: Record<string, string>
	let setup: TestInstance
	let shard: ShardProcess
	let parent: Subprocess<'ignore', 'ignore', 'pipe'>
	const lines: string[] = []
	let url: string
	let port: number
	let user: TestUser
	let userbotId: number
	const sockets: WsClient[] = []

	const logged = (): LogLine[] =>
		lines.flatMap((l) => {
			try {
				return [JSON.parse(l) as LogLine]
			} catch {
				return []
			}
		})
	/** The pid of the gateway with this index that said it was ready last. */
	const readyPid = (index: number) =>
		logged()
			.filter((l) => l.msg === 'gateway ready' && l.gateway === index)
			.at(-1)?.pid
	/** The two gateways that are up now, by index. */
	const upPids = (): [number, number] => {
		const [one, two] = [readyPid(1), readyPid(2)]
		if (one === undefined || two === undefined) throw new Error('a gateway never said it was ready')
		return [one, two]
	}
	const indexOf = (pid: number) => logged().find((l) => l.msg === 'gateway started' && l.pid === pid)?.gateway
	const command = (c: WsClient, id: string) =>
		c.command({ action: GET, userbot_id: userbotId, request_id: id })
	const answered = (reply: ChatUpdate) => reply.payload.type === GET && reply.payload.error === undefined
	const repliesTo = (c: WsClient, id: string) => c.received.filter((m) => m.payload?.request_id === id).length

	beforeAll(async () => {
		nats = await startNats()
		dataDir = mkdtempSync(join(tmpdir(), 'ubg-gateways-'))
		// A deployment's heartbeat: on a loaded machine the tests' 300 ms takes a starved shard for gone,
		// and its commands would fail with it; what is tested here is the gateways.
		env = { ...clusterEnv(nats, dataDir), BUS_HEARTBEAT: '1000' }
		// An in-process gateway sets the bus up and makes the user and the userbot (it reads the database).
		setup = await startGateway(env, dataDir)
		shard = await startShard(env, 's1')
		user = await registerUser(setup, `gateways-${Date.now()}@example.com`)
		userbotId = await loggedInOverRest(userbotsRest(setup.url, user.access), '9996621234', 'fleet')
		// The one command: PORT=0, so the parent finds a free port for both.
		parent = Bun.spawn([process.execPath, '--no-env-file', SERVER_ENTRY], {
			env: {
				PATH: process.env.PATH ?? '',
				HOME: process.env.HOME ?? '',
				...env,
				ROLE: 'gateway',
				GATEWAYS: '2',
				PORT: '0',
				LOG_LEVEL: 'info',
			},
			stdout: 'ignore',
			stderr: 'pipe',
		})
		await readUntil(parent.stderr, /"msg":"gateways listening"/, 30_000, lines).catch((err: unknown) => {
			throw new Error(`the gateways did not start: ${lines.slice(-10).join(' | ')}`, { cause: err })
		})
		const listening = logged().find((l) => l.msg === 'gateways listening') as LogLine
		url = listening.url as string
		port = Number(new URL(url).port)
		expect(listening.pids).toHaveLength(2)
	}, 90_000)

	afterAll(async () => {
		for (const s of sockets) s.close()
		await Promise.allSettled([parent && terminate(parent), shard?.stop(), setup?.halt()])
		await nats?.stop()
		if (dataDir) rmSync(dataDir, { recursive: true, force: true })
	}, 30_000)

	/** Clients by the gateway process that accepted them. */
	const byPid = new Map<number, WsClient[]>()

	it('both processes accept connections on the one port and answer commands', async () => {
		const pids = upPids()
		for (const pid of pids) expect(listensOn(pid, port)).toBe(true)
		// The kernel picks the listener of each connection: open them one at a time until each
		// process has two (the chance that 64 all land on one is 2^-63).
		for (let i = 0; i < 64 && pids.some((p) => (byPid.get(p)?.length ?? 0) < 2); i++) {
			const { value: c, pid } = await acceptedBy(pids, port, () => connectWs(url, { bearer: user.access }))
			sockets.push(c)
			expect(pid).toBeDefined()
			byPid.set(pid as number, [...(byPid.get(pid as number) ?? []), c])
			expect(answered(await command(c, `hello-${i}`))).toBe(true)
		}
		for (const pid of pids) expect(byPid.get(pid)?.length ?? 0).toBeGreaterThanOrEqual(2)
	}, 60_000)

	it("a SIGTERM of one loses no command of the other's clients, and the parent starts it again", async () => {
		const [victim, survivor] = upPids()
		const index = indexOf(victim) as number
		const survivors = byPid.get(survivor) as WsClient[]
		const doomed = byPid.get(victim) as WsClient[]
		let running = true
		const tallies = survivors.map(() => ({ sent: [] as string[], answered: 0, failed: [] as string[] }))
		const loops = survivors.map(async (c, i) => {
			const t = tallies[i] as (typeof tallies)[number]
			while (running) {
				const id = `s${i}-${t.sent.length}`
				t.sent.push(id)
				try {
					const reply = await command(c, id)
					if (answered(reply)) t.answered++
					else t.failed.push(`${id}: ${reply.payload.error}`)
				} catch (err) {
					t.failed.push(`${id}: ${(err as Error).message}`)
				}
			}
		})
		// The survivors' load runs before, during and after the stop of the other process.
		await until('every survivor answered', () => tallies.every((t) => t.answered >= 3) || undefined)
		// The victim's clients have a command each in flight as it stops: a reply or the close answers it.
		for (const [i, c] of doomed.entries()) c.send({ action: GET, userbot_id: userbotId, request_id: `d${i}` })
		process.kill(victim, 'SIGTERM')
		const closes = await Promise.all(doomed.map((c) => c.closed))
		for (const close of closes) expect(close.code).toBe(1001)
		for (const [i, c] of doomed.entries()) expect(repliesTo(c, `d${i}`)).toBeLessThanOrEqual(1)
		const replacement = await until('the stopped gateway started again', () => {
			const pid = readyPid(index)
			return pid !== undefined && pid !== victim ? pid : undefined
		})
		const base = tallies.map((t) => t.answered)
		await until('the survivors answered after the restart', () =>
			tallies.every((t, i) => t.answered >= (base[i] as number) + 3) ? true : undefined,
		)
		running = false
		await Promise.all(loops)
		for (const t of tallies) {
			expect(t.failed).toEqual([])
			expect(t.answered).toBe(t.sent.length)
		}
		survivors.forEach((c, i) => {
			for (const id of (tallies[i] as (typeof tallies)[number]).sent) expect(repliesTo(c, id)).toBe(1)
		})
		expect(listensOn(replacement, port)).toBe(true)
		const { pid: accepted } = await acceptedBy([replacement, survivor], port, async () => {
			const c = await connectWs(url, { bearer: user.access })
			sockets.push(c)
			return c
		})
		expect(accepted).toBeDefined()
	}, 90_000)

	it('the parent restarts a gateway that crashed', async () => {
		const crashed = readyPid(1) as number
		process.kill(crashed, 'SIGKILL')
		const exited = await until('the crash is seen', () =>
			logged().find((l) => l.msg === 'gateway exited' && l.pid === crashed),
		)
		expect(exited.signal).toBe('SIGKILL')
		const back = await until('the crashed gateway started again', () => {
			const pid = readyPid(1)
			return pid !== undefined && pid !== crashed ? pid : undefined
		})
		expect(listensOn(back, port)).toBe(true)
		const c = await connectWs(url, { bearer: user.access })
		sockets.push(c)
		expect(answered(await command(c, 'after-crash'))).toBe(true)
	}, 60_000)

	it('a SIGTERM of the parent stops every gateway, exits 0 and frees the port', async () => {
		const pids = upPids()
		parent.kill('SIGTERM')
		expect(await parent.exited).toBe(0)
		for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow()
		// Nobody listens any more: a listener without SO_REUSEPORT gets the port.
		const probe = Bun.serve({ hostname: '127.0.0.1', port, reusePort: false, fetch: () => new Response() })
		expect(probe.port).toBe(port)
		probe.stop(true)
	}, 60_000)
})
