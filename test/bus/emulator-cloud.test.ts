import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ownerOf } from '../../src/runtime/supervisor/rendezvous'
import type { TestInstance } from '../helpers'
import { connectWs, registerUser, type TestUser, type WsClient } from '../helpers-ws'
import {
	clusterEnv,
	type NatsServer,
	readRuns,
	type ShardProcess,
	startGateway,
	startNats,
	startShard,
	until,
} from './cluster'

/**
 * Issue 21 on a real bus: two shard processes (each with its supervisor child) on one data folder
 * share one emulated cloud. A userbot on one shard sends to a userbot on the other and it arrives,
 * live; an account that signed up is still Ready after the shard that ran it is killed (its
 * userbots move to the other shard) and restarted (they come back).
 */
const ALICE = { phone: '9996611111', id: 1001 }
const BOB = { phone: '9996621234', id: 1002 }
const SHARDS = ['s1', 's2']

describe('the emulated cloud across shards behind NATS', () => {
	let nats: NatsServer
	let dataDir: string
	let env: Record<string, string>
	let gateway: TestInstance
	let user: TestUser
	const shards = new Map<string, ShardProcess>()
	const sockets: WsClient[] = []
	/** Userbots by the shard that owns them. */
	const owned = new Map<string, number[]>()

	const rest = async (path: string, body?: unknown) => {
		const res = await fetch(`${gateway.url}/api/userbots/${path}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', authorization: `Bearer ${user.access}` },
			body: JSON.stringify(body ?? {}),
		})
		const json = (await res.json()) as { id: number; authorization_state: string }
		if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`)
		return json
	}
	const connect = async () => {
		const c = await connectWs(gateway.url, { bearer: user.access })
		sockets.push(c)
		return c
	}

	beforeAll(async () => {
		nats = await startNats()
		dataDir = mkdtempSync(join(tmpdir(), 'ubg-bus-cloud-'))
		env = clusterEnv(nats, dataDir)
		// A shard waits for a gateway to set up the bus (its stream and buckets): the gateway first.
		gateway = await startGateway(env, dataDir)
		for (const id of SHARDS) shards.set(id, await startShard(env, id))
		user = await registerUser(gateway, `bus-cloud-${Date.now()}@example.com`)
		// Two userbots on each shard.
		while (SHARDS.some((s) => (owned.get(s)?.length ?? 0) < 2)) {
			const { id } = await rest('', { name: 'bot' })
			const shard = ownerOf(id, SHARDS) as string
			owned.set(shard, [...(owned.get(shard) ?? []), id])
		}
	}, 60_000)

	afterAll(async () => {
		for (const s of sockets) s.close()
		await Promise.allSettled([gateway?.halt(), ...[...shards.values()].map((s) => s.stop())])
		await nats?.stop()
		if (dataDir) rmSync(dataDir, { recursive: true, force: true })
	}, 30_000)

	it('delivers a message from a userbot on one shard to a userbot on the other, live', async () => {
		const [a] = owned.get('s1') as number[]
		const [b] = owned.get('s2') as number[]
		for (const [id, who] of [
			[a, ALICE],
			[b, BOB],
		] as const) {
			await rest(`${id}/phone/`, { phone_number: who.phone })
			expect((await rest(`${id}/code/`, { code: who.phone.charAt(5).repeat(5) })).authorization_state).toBe(
				'authorizationStateReady',
			)
		}
		const ws = await connect()
		for (const id of [a, b])
			expect(
				(await ws.command({ action: 'subscribe', userbot_id: id, updates: ['updateNewMessage'] })).payload
					.error,
			).toBeUndefined()
		const arrives = (to: number, text: string) =>
			ws.take((m) => {
				const e = m as unknown as {
					type: string
					userbot_id: number
					update?: { message?: { chat_id: number; content?: { text?: { text?: string } } } }
				}
				return e.type === 'update' && e.userbot_id === to && e.update?.message?.content?.text?.text === text
			}, 10_000)
		const toBob = arrives(b as number, 'from s1 to s2')
		const sent = await ws.command({
			action: 'send_message',
			userbot_id: a,
			chat_id: BOB.id,
			text: 'from s1 to s2',
		})
		expect(sent.payload.error).toBeUndefined()
		expect(
			((await toBob) as unknown as { update: { message: { chat_id: number } } }).update.message.chat_id,
		).toBe(ALICE.id)
		const toAlice = arrives(a as number, 'from s2 to s1')
		await ws.command({ action: 'send_message', userbot_id: b, chat_id: ALICE.id, text: 'from s2 to s1' })
		expect(
			((await toAlice) as unknown as { update: { message: { chat_id: number } } }).update.message.chat_id,
		).toBe(BOB.id)
	}, 30_000)

	it('keeps an account that signed up Ready through its shard killed, taken over, and restarted', async () => {
		const id = (owned.get('s1') as number[])[1] as number
		await rest(`${id}/phone/`, { phone_number: '9996617201' })
		await rest(`${id}/code/`, { code: '11111' })
		expect(
			(await rest(`${id}/register/`, { first_name: 'On', last_name: 'Shard' })).authorization_state,
		).toBe('authorizationStateReady')
		const ws = await connect()
		/** The userbot's own account, asked through the gateway; undefined while its shard changes. */
		const whoAmI = async () => {
			const reply = await ws.command({ action: 'get_password_state', userbot_id: id })
			return reply.payload.error === undefined ? true : reply.payload.error
		}
		expect(await whoAmI()).toBe(true)

		await (shards.get('s1') as ShardProcess).kill()
		// s2 takes it over: on the one cloud, the account is there.
		const onS2 = await until('served by s2', async () => {
			const answer = await whoAmI()
			return answer === true || answer === 'userbot is not authorized' ? answer : undefined
		})
		expect(onS2).toBe(true)
		const restartedAt = Date.now()
		const restarted = await startShard(env, 's1')
		shards.set('s1', restarted)
		// Back on s1 (its new process), started from its folder: still the same account, still logged in.
		await until('started again on s1', () =>
			readRuns(env.SUPERVISOR_RUN_LOG as string).some(
				(r) =>
					r.userbotId === id &&
					r.event === 'start' &&
					r.supervisor === 's1/0' &&
					r.pid !== undefined &&
					r.at > restartedAt,
			)
				? true
				: undefined,
		)
		expect(await until('served by s1', async () => ((await whoAmI()) === true ? true : undefined))).toBe(true)
		expect(gateway.ctx.runtime?.authorizationState(id)).toBe('authorizationStateReady')
	}, 60_000)
})
