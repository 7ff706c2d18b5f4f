import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generateDatabaseKey } from '../../src/common/util/key-crypto'
import { createLogger } from '../../src/common/util/logger'
import { type Bus, connectBus } from '../../src/runtime/bus/connection'
import { RemoteRuntime } from '../../src/runtime/bus/remote-runtime'
import { BusKey } from '../../src/runtime/bus/seal'
import { kvSubject, MEMBERS_BUCKET, shardKey } from '../../src/runtime/bus/subjects'
import { FD_RESERVE, FDS_PER_CLIENT } from '../../src/runtime/supervisor/capacity'
import { ownerOf } from '../../src/runtime/supervisor/rendezvous'
import { RuntimeError } from '../../src/runtime/telegram/types'
import { countsIn, type TestInstance } from '../helpers'
import {
	clusterEnv,
	HEARTBEAT_MS,
	type NatsServer,
	type ShardProcess,
	startGateway,
	startNats,
	startShard,
	until,
} from './cluster'
import { busConfigOf } from './nats'

/**
 * Placement by room on a real bus (docs/capacity.md#on-a-bus): a nats-server on 127.0.0.1, a gateway
 * in this process and two shard processes whose supervisor child is given a descriptor limit that
 * fits 3 (shard s1) and 6 (shard s2) clients. Each shard advertises its room in its membership entry;
 * a userbot whose home (the hash's choice) is full goes to the shard with room and stays there; a
 * storm of starts past the whole deployment's 9 places starts exactly 9 and refuses the rest with
 * `capacity reached: ...`, naming each shard's limit.
 */
const fdsFor = (clients: number) => String(FD_RESERVE + clients * FDS_PER_CLIENT)
const LIMIT = { s1: 3, s2: 6 }
const reason = (clients: number) =>
	`the file descriptor limit of ${fdsFor(clients)} (${FDS_PER_CLIENT} per userbot, ${FD_RESERVE} kept back)`

describe('placing userbots across shards by their room', () => {
	let nats: NatsServer
	let dataDir: string
	let gateway: TestInstance
	let runtime: RemoteRuntime
	const shards: ShardProcess[] = []

	beforeAll(async () => {
		nats = await startNats()
		dataDir = mkdtempSync(join(tmpdir(), 'ubg-bus-placement-'))
		// Heartbeats of a second: a storm of starts on a loaded machine must not make a shard fence itself.
		const env = { ...clusterEnv(nats, dataDir), BUS_HEARTBEAT: '1000' }
		gateway = await startGateway(env, dataDir)
		shards.push(await startShard(env, 's1', { CHILD_MAX_FDS: fdsFor(LIMIT.s1) }))
		shards.push(await startShard(env, 's2', { CHILD_MAX_FDS: fdsFor(LIMIT.s2) }))
		if (!(gateway.ctx.runtime instanceof RemoteRuntime)) throw new Error('the gateway has no bus runtime')
		runtime = gateway.ctx.runtime
		await until('both shards advertise their room', () => {
			const live = runtime.membership.liveShards()
			return live.get('s1')?.room && live.get('s2')?.room ? true : undefined
		})
	}, 60_000)

	afterAll(async () => {
		await Promise.allSettled([gateway?.halt(), ...shards.map((s) => s.stop())])
		await nats?.stop()
		if (dataDir) rmSync(dataDir, { recursive: true, force: true })
	})

	const start = (id: number) =>
		runtime.startClient(id, { encryptionKey: generateDatabaseKey() }).then(
			(state) => ({ id, state }),
			(err: unknown) => ({ id, err }),
		)
	const holderOf = (id: number) => runtime.leaseView.get(id)?.holder
	/** A shard's own public /health: a status and whether it has room, nothing countable. */
	const shardHealth = async (shard: ShardProcess) => {
		const res = await fetch(`${shard.url}/health`)
		expect(res.status).toBe(200)
		const body = (await res.json()) as Record<string, unknown>
		expect(countsIn(body)).toEqual([])
		return body
	}

	it('advertises each shard room in its sealed membership entry', () => {
		const live = runtime.membership.liveShards()
		expect(live.get('s1')?.room).toEqual({ clients: LIMIT.s1, used: 0, reason: reason(LIMIT.s1) })
		expect(live.get('s2')?.room).toEqual({ clients: LIMIT.s2, used: 0, reason: reason(LIMIT.s2) })
	})

	it("says on each shard's own /health that it has room, with no count and no limit", async () => {
		for (const shard of shards) {
			const body = await shardHealth(shard)
			expect(body).toEqual({ status: 'ok', bus: 'ok', shard: shard.id, capacity: { room: true } })
			expect(JSON.stringify(body)).not.toContain(fdsFor(LIMIT[shard.id as keyof typeof LIMIT]))
		}
	})

	it('a storm of starts fills every place exactly, spills past a full home, and refuses the rest', async () => {
		const ids = Array.from({ length: 12 }, (_, i) => 1001 + i)
		const homedOnA = ids.filter((id) => ownerOf(id, ['s1', 's2']) === 's1')
		// More userbots call a home than it holds: some must be placed on b by room.
		expect(homedOnA.length).toBeGreaterThan(LIMIT.s1)

		const results = await Promise.all(ids.map(start))
		const started = results.filter((r) => 'state' in r)
		const refused = results.filter((r) => 'err' in r)
		expect(started.length).toBe(LIMIT.s1 + LIMIT.s2)
		expect(refused.length).toBe(ids.length - LIMIT.s1 - LIMIT.s2)
		for (const r of refused) {
			const err = (r as { err: unknown }).err
			expect(err).toBeInstanceOf(RuntimeError)
			expect((err as RuntimeError).code).toBe('capacity')
			expect((err as RuntimeError).message).toMatch(/^capacity reached: /)
		}

		// Every place taken once: s1 holds 3, s2 holds 6, and the leases say so.
		await until('every lease is seen', () => (started.every((r) => holderOf(r.id)) ? true : undefined))
		const on = (shard: string) => started.filter((r) => holderOf(r.id)?.shard === shard).map((r) => r.id)
		expect(on('s1').length).toBe(LIMIT.s1)
		expect(on('s2').length).toBe(LIMIT.s2)
		// Those on b whose home is a were placed by room, and their leases say it.
		const spilled = on('s2').filter((id) => ownerOf(id, ['s1', 's2']) === 's1')
		expect(spilled.length).toBeGreaterThan(0)
		for (const id of spilled) expect(holderOf(id)?.placed).toBe('room')
		for (const id of on('s1')) expect(holderOf(id)?.placed).toBeUndefined()

		// A spilled userbot is served where it runs.
		const spilledId = spilled[0] as number
		const answer = await runtime
			.invoke(
				spilledId,
				{ _: 'getDefaultMessageAutoDeleteTime' },
				{ label: 'get_default_message_auto_delete_time' },
			)
			.catch((err: unknown) => err)
		// Its client answered (a result, or its own refusal: it is not logged in), not "no client".
		expect(answer).not.toBeInstanceOf(RuntimeError)

		// The deployment is full: refused at once, naming each shard's limit.
		await until('the rooms say full', () => {
			const live = runtime.membership.liveShards()
			return live.get('s1')?.room?.used === LIMIT.s1 && live.get('s2')?.room?.used === LIMIT.s2
				? true
				: undefined
		})
		// The gateway's public /health: no room left in the shards together, and no counts.
		const health = (await (await fetch(`${gateway.url}/health`)).json()) as { capacity?: unknown }
		expect(health.capacity).toEqual({ room: false })
		// And each shard's own: full, still without a count.
		for (const shard of shards) expect((await shardHealth(shard)).capacity).toEqual({ room: false })
		const late = await start(2001)
		expect('err' in late && (late.err as Error).message).toBe(
			`capacity reached: 9 userbots run on 2 shards, every one full (s1: ${reason(LIMIT.s1)}; s2: ${reason(LIMIT.s2)})`,
		)
	}, 60_000)

	it('a stopped userbot makes room at its home, and the spilled ones stay where they run', async () => {
		const onA = [...runtime.leaseView.entries()].filter(([, l]) => l.holder?.shard === 's1').map(([id]) => id)
		const spilled = [...runtime.leaseView.entries()]
			.filter(([, l]) => l.holder?.placed === 'room')
			.map(([id]) => id)
		await runtime.stopClient(onA[0] as number, { logOut: false, removeData: false })
		await until('a advertises a free place', () =>
			runtime.membership.liveShards().get('s1')?.room?.used === LIMIT.s1 - 1 ? true : undefined,
		)
		// A new userbot whose home is a takes the place; the spilled ones did not move back.
		const next = Array.from({ length: 50 }, (_, i) => 3001 + i).find(
			(id) => ownerOf(id, ['s1', 's2']) === 's1',
		)
		const r = await start(next as number)
		expect('state' in r).toBe(true)
		await until('its lease is seen', () => holderOf(next as number))
		expect(holderOf(next as number)?.shard).toBe('s1')
		for (const id of spilled) expect(holderOf(id)?.shard).toBe('s2')
	}, 30_000)

	it('drops a shard entry whose advertised room does not check out', async () => {
		const config = gateway.ctx.config
		const as = (id: string) =>
			connectBus({
				config: busConfigOf(nats.urlFor('shard', id), HEARTBEAT_MS),
				role: 'shard',
				id,
				key: BusKey.fromDataKey(config.secrets.dataKey),
				heartbeatMs: HEARTBEAT_MS,
				bufferSize: 16,
				bufferAgeMs: 60_000,
				log: createLogger('silent'),
			})
		// A shard may write only its own entry: s8 forges, s7 marks what was read.
		const buses = new Map([
			['s8', await as('s8')],
			['s7', await as('s7')],
		])
		try {
			const put = (id: string, room: unknown, incarnation = id) => {
				const bus = buses.get(id) as Bus
				const key = shardKey(id)
				return bus.members.put(key, bus.codec.seal(kvSubject(MEMBERS_BUCKET, key), { incarnation, room }))
			}
			/** Puts a well-formed entry of s7 and waits for it: the watch is ordered, so what came before was read. */
			const read = async (marker: string) => {
				await put('s7', { clients: 1, used: 0, reason: 'marker' }, marker)
				await until(`${marker} is seen`, () =>
					runtime.membership.liveShards().get('s7')?.incarnation === marker ? true : undefined,
				)
			}
			for (const bad of [
				{ clients: -1, used: 0, reason: 'negative' },
				{ clients: 1.5, used: 0, reason: 'not whole' },
				{ clients: 1, used: 0, reason: 'x'.repeat(301) },
				{ clients: 1, used: 0, reason: 'more', extra: true },
				'full',
			]) {
				await put('s8', bad)
				await read(`m${Math.random().toString(36).slice(2, 8)}`)
				expect(runtime.membership.liveShards().has('s8')).toBe(false)
			}
			// The same path takes a well-formed one.
			await put('s8', { clients: 5, used: 2, reason: 'fine' })
			await read('last')
			expect(runtime.membership.liveShards().get('s8')?.room).toEqual({
				clients: 5,
				used: 2,
				reason: 'fine',
			})
		} finally {
			for (const [id, bus] of buses) {
				await bus.members.delete(shardKey(id)).catch(() => undefined)
				await bus.close()
			}
		}
	})
})
