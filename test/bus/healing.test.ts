import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Kvm } from '@nats-io/kv'
import { connect, type NatsConnection } from '@nats-io/transport-node'
import { SEED_CHATS } from '../../src/emulator'
import { BusKey } from '../../src/runtime/bus/seal'
import { kvSubject, LEASES_BUCKET, MEMBERS_BUCKET } from '../../src/runtime/bus/subjects'
import { ownerOf } from '../../src/runtime/supervisor/rendezvous'
import { loadConfig } from '../../src/server/config'
import { getTestInstance, type TestInstance } from '../helpers'
import { connectWs, registerUser, type TestUser, type WsClient } from '../helpers-ws'
import {
	clusterEnv,
	loggedInOverRest,
	type NatsServer,
	PLAIN_PHONES,
	type ShardProcess,
	startNats,
	startShard,
	until,
	userbotsRest,
} from './cluster'

/**
 * The bus heals: nats-server killed for 10 s while commands and messages keep coming, then started
 * again on the same port and store. Within 30 s of its return every Ready userbot answers, every
 * lease is held by its userbot's owner, and a subscriber has had every update or a `resync`
 * (never a silent hole); meanwhile the gateway's `/health` says `degraded`.
 */
const GET = 'get_default_message_auto_delete_time'
const GROUP = SEED_CHATS.basicGroup
const OUTAGE_MS = 10_000
const HEAL_MS = 30_000

type Frame = { type?: string; seq?: number; userbot_id?: number; payload?: { error?: string } }

describe('the bus after nats-server was down', () => {
	let nats: NatsServer
	let dataDir: string
	let a: TestInstance
	const shards: ShardProcess[] = []
	let user: TestUser
	let key: BusKey
	const userbots: number[] = []
	const sockets: WsClient[] = []
	let sniffer: NatsConnection | undefined

	const health = async () =>
		(await (await fetch(`${a.url}/health`)).json()) as {
			status: string
			bus?: { connected: boolean; lease_mismatches: number; feed: { up: boolean } }
		}

	/** Live shards (id → incarnation) and leases (userbot → `shard=incarnation`), read as the sniffer. */
	const busState = async () => {
		if (!sniffer || sniffer.isClosed()) {
			const u = new URL(nats.urlFor('sniffer'))
			sniffer = await connect({ servers: `127.0.0.1:${u.port}`, user: u.username, pass: u.password })
		}
		const kvm = new Kvm(sniffer)
		const read = async (bucket: string) => {
			const kv = await kvm.open(bucket)
			const out = new Map<string, unknown>()
			for await (const k of await kv.keys()) {
				const e = await kv.get(k)
				if (e?.operation !== 'PUT') continue
				const opened = key.open(kvSubject(bucket, k), e.value)
				if (opened.ok) out.set(k, JSON.parse(new TextDecoder().decode(opened.body)))
			}
			return out
		}
		const members = await read(MEMBERS_BUCKET)
		const live = new Map<string, string>()
		for (const [k, v] of members)
			if (k.startsWith('shard.')) live.set(k.slice(6), (v as { incarnation: string }).incarnation)
		const leases = new Map<number, string>()
		for (const [k, v] of await read(LEASES_BUCKET)) {
			const h = v as { shard: string; incarnation: string }
			leases.set(Number(k.slice('lease.'.length)), `${h.shard}=${h.incarnation}`)
		}
		return { live, leases }
	}

	beforeAll(async () => {
		nats = await startNats()
		dataDir = mkdtempSync(join(tmpdir(), 'ubg-bus-healing-'))
		const env = clusterEnv(nats, dataDir)
		a = await getTestInstance({ ...env, ROLE: 'gateway' }, { dataDir })
		for (const id of ['s1', 's2']) shards.push(await startShard(env, id))
		key = BusKey.fromDataKey(loadConfig({ DATA_DIR: dataDir }).secrets.dataKey)
		user = await registerUser(a, `bus-healing-${Date.now()}@example.com`)
		for (const phone of PLAIN_PHONES)
			userbots.push(await loggedInOverRest(userbotsRest(a.url, user.access), phone, phone))
	}, 60_000)

	afterAll(async () => {
		for (const s of sockets) s.close()
		await sniffer?.close().catch(() => undefined)
		await Promise.allSettled([a?.halt(), ...shards.map((s) => s.stop())])
		await nats?.stop()
		if (dataDir) rmSync(dataDir, { recursive: true, force: true })
	}, 30_000)

	it('answers for every Ready userbot, matches leases to owners, and resyncs or delivers everything after a 10 s outage under load', async () => {
		const watched = userbots[0] as number
		const subscriber = await connectWs(a.url, { bearer: user.access })
		sockets.push(subscriber)
		expect(
			(await subscriber.command({ action: 'subscribe', userbot_id: watched })).payload.error,
		).toBeUndefined()
		const worker = await connectWs(a.url, { bearer: user.access })
		sockets.push(worker)
		// Load: commands and messages on every userbot, paced, from before the outage to after it.
		let loading = true
		let sent = 0
		const load = (async () => {
			while (loading) {
				for (const id of userbots) {
					const r = await worker.command({
						action: 'send_message',
						userbot_id: id,
						chat_id: GROUP,
						text: `load-${sent++}`,
					})
					if (r.payload.error) await Bun.sleep(50)
					await worker.command({ action: GET, userbot_id: id })
				}
			}
		})()
		try {
			await until('updates flowing', () =>
				(subscriber.received as Frame[]).filter((f) => f.type === 'update').length >= 3 ? true : undefined,
			)
			await nats.kill()
			await until('the gateway degraded', async () =>
				(await health()).status === 'degraded' ? true : undefined,
			)
			await Bun.sleep(OUTAGE_MS)
			await nats.start()
			const back = Date.now()
			const left = () => Math.max(1, HEAL_MS - (Date.now() - back))

			// Every Ready userbot answers a command again.
			const probe = await connectWs(a.url, { bearer: user.access })
			sockets.push(probe)
			for (const id of userbots)
				await until(
					`userbot ${id} answers`,
					async () =>
						(await probe.command({ action: GET, userbot_id: id })).payload.error === undefined
							? true
							: undefined,
					left(),
				)
			// Every lease is held by its userbot's owner, as the members say now.
			let seen = ''
			await until(
				'leases match ownership',
				async () => {
					const { live, leases } = await busState()
					if (live.size !== 2) return undefined
					const wrong = userbots.filter((id) => {
						const owner = ownerOf(id, live.keys()) as string
						return leases.get(id) !== `${owner}=${live.get(owner)}`
					})
					seen = JSON.stringify({ live: [...live], leases: [...leases] })
					return wrong.length === 0 && leases.size === userbots.length ? true : undefined
				},
				left(),
			).catch((err: unknown) => {
				const logs = shards.map(
					(s) =>
						`${s.id}: ${s.lines
							.filter((l) => !l.includes('not published'))
							.slice(-40)
							.join('\n')}`,
				)
				throw new Error(`${String(err)}: ${seen}\n${logs.join('\n')}`)
			})
			// And the gateway says so.
			await until(
				'the gateway healthy',
				async () => {
					const h = await health()
					return h.status === 'ok' && h.bus?.connected && h.bus.feed.up && h.bus.lease_mismatches === 0
						? true
						: undefined
				},
				left(),
			)
			loading = false
			await load
			// A message after the outage reaches the subscriber: its feed runs again.
			const after = await probe.command({
				action: 'send_message',
				userbot_id: watched,
				chat_id: GROUP,
				text: 'after-the-outage',
			})
			expect(after.payload.error).toBeUndefined()
			await until('the subscriber gets what came after', () =>
				subscriber.received.some((f) => JSON.stringify(f).includes('after-the-outage')) ? true : undefined,
			)
			// Every update, or a resync where one may be missing: never a silent hole in the numbers.
			const frames = (subscriber.received as Frame[]).filter(
				(f) => f.type === 'update' || f.type === 'resync',
			)
			let last: number | undefined
			const holes: string[] = []
			for (const f of frames) {
				if (f.type === 'resync') last = (f.seq as number) - 1
				else {
					if (last !== undefined && f.seq !== last + 1) holes.push(`${last} → ${f.seq}`)
					last = f.seq as number
				}
			}
			expect(holes).toEqual([])
			expect(sent).toBeGreaterThan(userbots.length)
		} finally {
			// Stopped however the test ends: a load left running would fail the tests after it.
			loading = false
			await load.catch(() => undefined)
		}
	}, 120_000)

	it('clears a lease left by a shard that is gone, on the shard that owns its userbot', async () => {
		await busState()
		const kv = await new Kvm(sniffer as NatsConnection).open(LEASES_BUCKET)
		// What a shard that went without letting go leaves behind, sealed as a real lease is.
		const ghost = 987_654
		const subject = kvSubject(LEASES_BUCKET, `lease.${ghost}`)
		await kv.put(
			`lease.${ghost}`,
			key.sealer('shard-gone').seal(subject, JSON.stringify({ shard: 'gone', incarnation: 'x' })),
		)
		// Nobody runs that userbot: its owner among the live shards clears the lease, and says so.
		await until('cleared', async () =>
			(await kv.get(`lease.${ghost}`))?.operation !== 'PUT' ? true : undefined,
		)
		const owner = ownerOf(ghost, ['s1', 's2']) as string
		const shard = shards.find((s) => s.id === owner) as ShardProcess
		await until('logged', () =>
			shard.lines.some((l) => l.includes('"lease reconciled"') && l.includes(`"userbotId":${ghost}`))
				? true
				: undefined,
		)
		await until('the gateway healthy', async () => {
			const h = await health()
			return h.status === 'ok' && h.bus?.lease_mismatches === 0 ? true : undefined
		})
	}, 30_000)
})
