import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { emulatorRequest, SEED_CHATS } from '../../src/emulator'
import { RemoteRuntime } from '../../src/runtime/bus/remote-runtime'
import { ownerOf } from '../../src/runtime/supervisor/rendezvous'
import { RuntimeError } from '../../src/runtime/telegram/types'
import { joinCompany } from '../gateway/company'
import type { TestInstance } from '../helpers'
import {
	type ChatUpdate,
	connectWs,
	registerUser,
	sessionCookie,
	type TestUser,
	type WsClient,
} from '../helpers-ws'
import {
	clusterEnv,
	type GatewayProcess,
	loggedInOverRest,
	type NatsServer,
	overlaps,
	PLAIN_PHONES,
	readRuns,
	SERVER_ENTRY,
	type ShardProcess,
	startGateway,
	startGatewayProcess,
	startNats,
	startShard,
	terminate,
	until,
	userbotsRest,
} from './cluster'

/**
 * Issue 16 on a real bus: a nats-server on 127.0.0.1, two gateways (in-process apps, ROLE=gateway)
 * and two shard processes (ROLE=shard, the real entry), all on one data folder and database file.
 * The tests run in order, on one cluster: routing, resume, revocation, then a shard killed and
 * restarted, then a third shard joining; last, the record of every client start and stop, written
 * by the supervisor children themselves, must show no userbot ever run by two at once.
 */
const GET = 'get_default_message_auto_delete_time'
/** How long a handed-over client takes to close: far longer than a start takes on its new owner. */
const SLOW_CLOSE_MS = 1500
const REVOKED = { code: 1008, reason: 'credentials revoked' }
/** A basic group every seeded account is in. */
const GROUP = SEED_CHATS.basicGroup

describe('supervisor shards behind NATS', () => {
	let nats: NatsServer
	let dataDir: string
	let env: Record<string, string>
	let a: TestInstance
	let b: GatewayProcess
	const shards = new Map<string, ShardProcess>()
	let user: TestUser
	const userbots: number[] = []
	const sockets: WsClient[] = []

	/**
	 * The name of the shard that joins: one that takes a share of the userbots and leaves s2 some
	 * (rendezvous hashing of a handful of ids can give a name none of them).
	 */
	const joinerName = () => {
		const name = ['s3', 's4', 's5', 's6', 's7', 's8'].find((n) => {
			const owners = userbots.map((u) => ownerOf(u, ['s1', 's2', n]))
			return owners.includes(n) && owners.includes('s2')
		})
		if (!name) throw new Error('no joining shard name takes a share of these userbots')
		return name
	}
	const connect = async (t: { url: string }) => {
		const c = await connectWs(t.url, { bearer: user.access })
		sockets.push(c)
		return c
	}
	const ok = (reply: ChatUpdate) => reply.payload.type === GET && reply.payload.error === undefined
	/** Whether a command for the userbot is answered with its result through the gateway. */
	const works = async (c: WsClient, userbotId: number) =>
		ok(await c.command({ action: GET, userbot_id: userbotId }))

	/** Created and logged in over REST, as a user would: its key sealed, so any gateway can start it again. */
	const createUserbot = (t: { url: string }, phone: string) =>
		loggedInOverRest(userbotsRest(t.url, user.access), phone)

	beforeAll(async () => {
		nats = await startNats()
		dataDir = mkdtempSync(join(tmpdir(), 'ubg-bus-'))
		env = clusterEnv(nats, dataDir)
		// A gateway first: it sets the bus up (stream, buckets, storage id), which shards may not.
		a = await startGateway(env, dataDir)
		for (const id of ['s1', 's2']) shards.set(id, await startShard(env, id))
		// The browser's page is served by A; B trusts that origin for cookie upgrades.
		b = await startGatewayProcess({ ...env, ALLOWED_ORIGINS: a.url })
		user = await registerUser(a, `bus-${Date.now()}@example.com`)
		for (let i = 0; i < 6; i++)
			userbots.push(await createUserbot(i % 2 === 0 ? a : b, PLAIN_PHONES[i % PLAIN_PHONES.length] as string))
	}, 60_000)

	afterAll(async () => {
		for (const s of sockets) s.close()
		// Each stopped whatever happened to the others: no process outlives the tests.
		await Promise.allSettled([a?.halt(), b?.stop(), ...[...shards.values()].map((s) => s.stop())])
		await nats?.stop()
		if (dataDir) rmSync(dataDir, { recursive: true, force: true })
	}, 30_000)

	it('sends a command to the shard that owns its userbot, through either gateway', async () => {
		expect(a.ctx.runtime).toBeInstanceOf(RemoteRuntime)
		const runs = readRuns(env.SUPERVISOR_RUN_LOG as string)
		const placed = new Set<string>()
		for (const id of userbots) {
			const owner = ownerOf(id, ['s1', 's2']) as string
			placed.add(owner)
			// Started on its owner, and nowhere else.
			const where = new Set(
				runs.filter((r) => r.userbotId === id && r.event === 'start').map((r) => r.supervisor),
			)
			expect([...where]).toEqual([`${owner}/0`])
		}
		expect(placed.size).toBe(2)
		const viaA = await connect(a)
		const viaB = await connect(b)
		for (const id of userbots) {
			// Each gateway started half of them: the other knows their state from the bus.
			expect(await works(viaA, id)).toBe(true)
			expect(await works(viaB, id)).toBe(true)
		}
	}, 30_000)

	it('keeps the deadline of a request over the bus', async () => {
		const runtime = a.ctx.runtime as RemoteRuntime
		const id = userbots[0] as number
		const slow = await runtime
			.invoke(id, emulatorRequest({ _: 'emulatorDelay', ms: 1500 }), { timeoutMs: 200 })
			.then(
				() => 'answered',
				(err: unknown) => err,
			)
		expect(slow).toBeInstanceOf(RuntimeError)
		expect((slow as RuntimeError).code).toBe('timeout')
	}, 30_000)

	it('refuses to start a shard whose TDLib folders are not the ones the bus shares', async () => {
		const elsewhere = mkdtempSync(join(tmpdir(), 'ubg-bus-elsewhere-'))
		try {
			const proc = Bun.spawn([process.execPath, '--no-env-file', SERVER_ENTRY], {
				env: {
					PATH: process.env.PATH ?? '',
					...env,
					BUS_URL: nats.urlFor('shard', 'lost'),
					DATA_DIR: elsewhere,
					ROLE: 'shard',
					SHARD_ID: 'lost',
				},
				stdout: 'ignore',
				stderr: 'pipe',
			})
			const done = await Promise.race([proc.exited, Bun.sleep(30_000).then(() => undefined)])
			if (done === undefined) await terminate(proc)
			expect(done).toBe(2)
			const text = await new Response(proc.stderr).text()
			expect(text.trim().split('\n').at(-1)).toBe(
				`startup error: ${join(elsewhere, 'tdlib')} is not the storage the other processes on the bus use (it has no .storage-id): every gateway and shard of one bus must share one DATA_DIR/tdlib`,
			)
		} finally {
			rmSync(elsewhere, { recursive: true, force: true })
		}
	}, 40_000)

	it('resumes a client on the other gateway with exactly the updates it missed', async () => {
		const id = userbots[0] as number
		type Event = {
			type: string
			seq: number
			update?: { _: string; message?: { content?: { text?: { text: string } } } }
		}
		const events = (c: WsClient) =>
			(c.received as unknown as Event[]).filter((m) => (m.type === 'update' || m.type === 'resync') && m.seq)
		const send = (c: WsClient, text: string) =>
			c.command({ action: 'send_message', userbot_id: id, chat_id: GROUP, text })
		const textOf = (e: Event) =>
			e.update?._ === 'updateNewMessage' ? e.update.message?.content?.text?.text : undefined
		// A witness on A sees every update of the default kinds, numbered, from before the first message on.
		const witness = await connect(a)
		expect((await witness.command({ action: 'subscribe', userbot_id: id })).payload.error).toBeUndefined()
		const first = await connect(a)
		expect((await first.command({ action: 'subscribe', userbot_id: id })).payload.error).toBeUndefined()
		await send(first, 'one')
		const seen = await until('"one" on A', () =>
			events(first).some((e) => textOf(e) === 'one') ? events(first) : undefined,
		)
		const last = seen.at(-1)?.seq as number
		first.close()
		for (const text of ['two', 'three', 'four']) await send(witness, text)
		const second = await connect(b)
		const resumed = await second.command({ action: 'subscribe', userbot_id: id, after: last })
		expect(resumed.payload.error).toBeUndefined()
		const missed = await until('the witness and B agree', () => {
			const all = events(witness).filter((e) => e.seq > last)
			const got = events(second)
			const top = all.at(-1)?.seq
			return all.some((e) => textOf(e) === 'four') && got.at(-1)?.seq === top ? { all, got } : undefined
		})
		expect(missed.got).toEqual(missed.all)
		expect(missed.got.map((e) => e.type).includes('resync')).toBe(false)
		expect(missed.got.map((e) => e.seq)).toEqual(missed.got.map((_, i) => last + 1 + i))
		expect(missed.got.map(textOf).filter(Boolean)).toEqual(['two', 'three', 'four'])
	}, 30_000)

	it('closes a socket on one gateway when its session logs out on the other', async () => {
		const cookie = await sessionCookie(a, user)
		const onB = await connectWs(b.url, { cookie, origin: a.url })
		sockets.push(onB)
		expect(await works(onB, userbots[0] as number)).toBe(true)
		const res = await fetch(`${a.url}/accounts/logout/`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', cookie, origin: a.url },
			body: '{}',
		})
		expect(res.status).toBe(200)
		expect(await onB.closed).toEqual(REVOKED)
		// And the session is refused at once by gateway B's REST too.
		const me = await fetch(`${b.url}/accounts/me/`, { headers: { cookie, origin: a.url } })
		expect(me.status).toBe(401)
	}, 30_000)

	it("closes a member's socket on one gateway when the owner, on the other, sets a status that does not allow work", async () => {
		const member = await joinCompany(a, user, `bus-member-${Date.now()}@example.com`)
		const onB = await connectWs(b.url, { bearer: member.access })
		sockets.push(onB)
		expect(await works(onB, userbots[0] as number)).toBe(true)
		const res = await fetch(`${a.url}/accounts/members/${member.userId}/status/`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', authorization: `Bearer ${user.access}` },
			body: JSON.stringify({ status: 'on_leave' }),
		})
		expect(res.status).toBe(200)
		expect(await onB.closed).toEqual(REVOKED)
		// And gateway B's REST refuses the member at once too.
		const me = await fetch(`${b.url}/accounts/me/`, { headers: { authorization: `Bearer ${member.access}` } })
		expect(me.status).toBe(403)
	}, 30_000)

	it('fails the commands in flight on a shard killed with SIGKILL, and runs its userbots again', async () => {
		const victim = shards.get('s1') as ShardProcess
		const id = userbots.find((u) => ownerOf(u, ['s1', 's2']) === 's1') as number
		const runtime = a.ctx.runtime as RemoteRuntime
		// A request that would take 20 s, in flight when the shard dies.
		const inFlight = runtime.invoke(id, emulatorRequest({ _: 'emulatorDelay', ms: 20_000 })).then(
			() => 'answered',
			(err: unknown) => err,
		)
		// Its requests reach the shard in the order sent, and the shard hands them on in that order:
		// once a quick one sent after it is answered, the slow one is in the shard's child.
		expect(await runtime.invoke(id, { _: 'getDefaultMessageAutoDeleteTime' }, { label: GET })).toBeDefined()
		await victim.kill()
		const failure = await inFlight
		expect(failure).toBeInstanceOf(RuntimeError)
		expect((failure as RuntimeError).code).toBe('runtime_down')
		// Over the WebSocket, the other shard takes the userbot over.
		const c = await connect(b)
		await until(`userbot ${id} served by s2`, async () => ((await works(c, id)) ? true : undefined))
		// s1 restarts under its id: its share comes back to it. s2 takes its time to close them, as
		// TDLib flushing its database does: s1 must wait for each before it opens it.
		const back = userbots.filter((u) => ownerOf(u, ['s1', 's2']) === 's1')
		for (const u of back)
			await runtime.invoke(u, emulatorRequest({ _: 'emulatorSlowClose', ms: SLOW_CLOSE_MS }))
		shards.set('s1', await startShard(env, 's1'))
		await until(`userbot ${id} back on s1`, () => {
			const runs = readRuns(env.SUPERVISOR_RUN_LOG as string).filter((r) => r.userbotId === id)
			const lastStart = runs.filter((r) => r.event === 'start').at(-1)
			return lastStart?.supervisor === 's1/0' && lastStart.pid !== undefined ? true : undefined
		})
		for (const u of userbots)
			await until(`userbot ${u} works`, async () => ((await works(c, u)) ? true : undefined))
		// Killed, taken over, restarted, handed back: never in two places.
		expect(overlaps(readRuns(env.SUPERVISOR_RUN_LOG as string))).toEqual([])
	}, 40_000)

	it('moves only its share to a shard that joins', async () => {
		const joiner = joinerName()
		const three = ['s1', 's2', joiner]
		const moving = userbots.filter((u) => ownerOf(u, three) === joiner)
		expect(moving.length).toBeGreaterThan(0)
		// Their owners close them slowly: the new shard must wait for each before it opens it.
		const runtime = a.ctx.runtime as RemoteRuntime
		for (const u of moving)
			await runtime.invoke(u, emulatorRequest({ _: 'emulatorSlowClose', ms: SLOW_CLOSE_MS }))
		const before = readRuns(env.SUPERVISOR_RUN_LOG as string).length
		shards.set(joiner, await startShard(env, joiner))
		const c = await connect(b)
		await until(`the share of ${joiner} moved to it`, () => {
			const runs = readRuns(env.SUPERVISOR_RUN_LOG as string).slice(before)
			return moving.every((u) =>
				runs.some((r) => r.userbotId === u && r.event === 'start' && r.supervisor === `${joiner}/0`),
			)
				? true
				: undefined
		})
		for (const u of userbots)
			await until(`userbot ${u} works`, async () => ((await works(c, u)) ? true : undefined))
		const after = readRuns(env.SUPERVISOR_RUN_LOG as string).slice(before)
		// Nothing else was stopped or started.
		expect([...new Set(after.map((r) => r.userbotId))].sort()).toEqual([...moving].sort())
		expect(overlaps(readRuns(env.SUPERVISOR_RUN_LOG as string))).toEqual([])
	}, 40_000)

	it('keeps the userbots of a frozen shard process out of two places: its children close them first', async () => {
		const frozen = shards.get('s2') as ShardProcess
		const live = ['s1', 's2', joinerName()]
		const ids = userbots.filter((u) => ownerOf(u, live) === 's2')
		expect(ids.length).toBeGreaterThan(0)
		const c = await connect(a)
		// Frozen, it can neither beat nor stop anything; its supervisor children run on.
		frozen.proc.kill('SIGSTOP')
		try {
			for (const u of ids)
				await until(`userbot ${u} served elsewhere`, async () => ((await works(c, u)) ? true : undefined))
		} finally {
			frozen.proc.kill('SIGCONT')
		}
		// Awake, it knows it was cut off, comes back as a new incarnation and gets its share again.
		await until('the share of s2 back on it', () => {
			const runs = readRuns(env.SUPERVISOR_RUN_LOG as string)
			return ids.every(
				(u) => runs.filter((r) => r.userbotId === u && r.event === 'start').at(-1)?.supervisor === 's2/0',
			)
				? true
				: undefined
		})
		for (const u of userbots)
			await until(`userbot ${u} works`, async () => ((await works(c, u)) ? true : undefined))
	}, 40_000)

	it('answers userbot not found on one gateway at once when the userbot is deleted on the other', async () => {
		const id = userbots.at(-1) as number
		const onB = await connect(b)
		// B has it in its directory cache.
		expect(await works(onB, id)).toBe(true)
		const res = await fetch(`${a.url}/api/userbots/${id}/`, {
			method: 'DELETE',
			headers: { authorization: `Bearer ${user.access}` },
		})
		expect(res.status).toBe(204)
		const reply = await onB.command({ action: GET, userbot_id: id })
		expect(reply.payload.error).toBe('userbot not found')
	}, 30_000)

	it('never ran a userbot in two supervisors at once', () => {
		const runs = readRuns(env.SUPERVISOR_RUN_LOG as string)
		expect(runs.length).toBeGreaterThan(userbots.length * 2)
		expect(overlaps(runs)).toEqual([])
	})
})
