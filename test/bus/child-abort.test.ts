import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { emulatorRequest, SEED_CHATS } from '../../src/emulator'
import type { RemoteRuntime } from '../../src/runtime/bus/remote-runtime'
import { RuntimeError } from '../../src/runtime/telegram/types'
import type { TestInstance } from '../helpers'
import { connectWs, registerUser, type TestUser, type WsClient } from '../helpers-ws'
import {
	clusterEnv,
	loggedInOverRest,
	type NatsServer,
	PLAIN_PHONES,
	type ShardProcess,
	startGateway,
	startNats,
	startShard,
	until,
	userbotsRest,
} from './cluster'

/**
 * A shard's supervisor child dies of a native abort (SIGABRT, as TDLib's own checks end a process)
 * while commands are in flight through a gateway on the bus: each command is answered once, what
 * the dead child held with `userbot runtime restarted, try again`, and the shard's userbots work
 * again once its child is back.
 */
const RESTARTED = 'userbot runtime restarted, try again'
const SOCKETS = 4
const IN_FLIGHT = 6

let nats: NatsServer
let dataDir: string
let gateway: TestInstance
let shard: ShardProcess
let user: TestUser
const userbots: number[] = []
const sockets: WsClient[] = []

beforeAll(async () => {
	nats = await startNats()
	dataDir = mkdtempSync(join(tmpdir(), 'ubg-bus-abort-'))
	const env = clusterEnv(nats, dataDir)
	gateway = await startGateway(env, dataDir)
	shard = await startShard(env, 's1')
	user = await registerUser(gateway, `abort-${Date.now()}@example.com`)
	const post = userbotsRest(gateway.url, user.access)
	for (const phone of PLAIN_PHONES.slice(0, 2)) userbots.push(await loggedInOverRest(post, phone))
}, 60_000)

afterAll(async () => {
	for (const s of sockets) s.close()
	await Promise.allSettled([gateway?.halt(), shard?.stop()])
	await nats?.stop()
	if (dataDir) rmSync(dataDir, { recursive: true, force: true })
}, 30_000)

/** The shard process's supervisor child (its one child process); undefined between two. */
function childOf(pid: number): number | undefined {
	const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
		.trim()
		.split(/\s+/)
		.filter(Boolean)
	if (children.length > 1) throw new Error(`shard ${pid} has ${children.length} children`)
	return children[0] === undefined ? undefined : Number(children[0])
}

const frames = [
	{ action: 'get_default_message_auto_delete_time' },
	{ action: 'send_message', chat_id: SEED_CHATS.basicGroup, text: 'hello' },
	{ action: 'get_active_sessions' },
	{ action: 'get_chat_members', chat_id: SEED_CHATS.supergroup },
]

describe("a shard's supervisor child killed by SIGABRT under load", () => {
	it('answers every command once, errors only what it held, and serves again', async () => {
		const runtime = gateway.ctx.runtime as RemoteRuntime
		// Every request of these clients answers 400 ms late: each lane has a command in the child
		// whenever it dies (the new child's clients answer at once).
		for (const id of userbots) await runtime.invoke(id, emulatorRequest({ _: 'emulatorLatency', ms: 400 }))
		const clients = await Promise.all(
			Array.from({ length: SOCKETS }, () => connectWs(gateway.url, { bearer: user.access })),
		)
		sockets.push(...clients)
		const sent = clients.map(() => 0)
		let running = true
		const lanes = clients.flatMap((c, i) =>
			Array.from({ length: IN_FLIGHT }, async (_, lane) => {
				for (let n = lane; running; n++) {
					sent[i]!++
					const frame = frames[n % frames.length]!
					await c.command({ ...frame, userbot_id: userbots[n % userbots.length] }, 20_000)
				}
			}),
		)
		// Requests that would take 20 s: surely in the child when it dies. Each userbot's requests reach
		// its child in the order sent, so once a quick one sent after them is answered, they are there.
		const held = userbots.map((id) =>
			runtime.invoke(id, emulatorRequest({ _: 'emulatorDelay', ms: 20_000 })).then(
				() => 'answered',
				(err: unknown) => err,
			),
		)
		for (const id of userbots)
			await runtime.invoke(id, { _: 'getDefaultMessageAutoDeleteTime' }, { label: frames[0]!.action })
		const child = childOf(shard.proc.pid) as number
		process.kill(child, 'SIGABRT')
		for (const failure of await Promise.all(held)) {
			expect(failure).toBeInstanceOf(RuntimeError)
			expect((failure as RuntimeError).code).toBe('runtime_down')
		}
		// The shard starts a new child and its clients again; the load goes on through it.
		await until('a new supervisor child', () => {
			const next = childOf(shard.proc.pid)
			return next !== undefined && next !== child ? true : undefined
		})
		for (const id of userbots)
			await until(`userbot ${id} served again`, async () => {
				const reply = await clients[0]!.command({ action: frames[0]!.action, userbot_id: id })
				return reply.payload.error === undefined ? true : undefined
			})
		running = false
		await Promise.all(lanes)

		let restarted = 0
		const others: string[] = []
		clients.forEach((c, i) => {
			const replies = c.received.filter(
				(m) =>
					m.type === 'chat_update' &&
					m.payload.type !== 'authorization_state' &&
					m.payload.type !== 'userbot_status',
			)
			const ids = replies.map((m) => m.payload.request_id)
			// The first socket also sent the checks above; every command was answered once.
			expect(new Set(ids).size).toBe(ids.length)
			if (i > 0) expect(ids).toHaveLength(sent[i]!)
			for (const m of replies) {
				if (m.payload.error === RESTARTED) restarted++
				else if (m.payload.error !== undefined) others.push(`${m.payload.type}: ${m.payload.error}`)
			}
		})
		// What the dead child held was failed (at least one command of each socket), nothing else.
		expect(others).toEqual([])
		expect(restarted).toBeGreaterThanOrEqual(SOCKETS)
	}, 60_000)
})
