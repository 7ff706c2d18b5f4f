import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { ownerOf } from '../../src/runtime/supervisor/rendezvous'
import { ShardedRuntime } from '../../src/runtime/supervisor/sharded'
import { getTestInstance, type TestInstance } from '../helpers'

describe('SUPERVISORS=N', () => {
	let t: TestInstance
	beforeAll(async () => {
		t = await getTestInstance({ SUPERVISORS: '3' })
	})
	afterAll(() => t.stop())

	it('runs N supervisor children behind one runtime, each userbot always on the same one', async () => {
		const runtime = t.ctx.runtime
		expect(runtime).toBeInstanceOf(ShardedRuntime)
		const sharded = runtime as ShardedRuntime
		const pids = sharded.pids
		expect(new Set(pids).size).toBe(3)
		for (const pid of pids) expect(pid).toBeGreaterThan(0)
		const names = ['supervisor-0', 'supervisor-1', 'supervisor-2']
		const used = new Set<string>()
		for (let id = 1; id <= 12; id++) {
			const state = await sharded.startClient(id, { encryptionKey: Buffer.from(`k${id}`).toString('base64') })
			expect(state).toBe('authorizationStateWaitPhoneNumber')
			const shard = sharded.shardOf(id)
			expect(shard.name).toBe(ownerOf(id, names) as string)
			used.add(shard.name)
			// Only its own supervisor knows the client.
			for (const s of sharded.shards)
				expect(s.runtime.authorizationState(id)).toBe(
					s === shard ? 'authorizationStateWaitPhoneNumber' : (undefined as unknown as string),
				)
			expect(await sharded.invoke(id, { _: 'getOption', name: 'version' })).toMatchObject({
				_: 'optionValueString',
			})
		}
		expect(used.size).toBe(3)
		expect(sharded.health()).toMatchObject({ up: true, clients: 12 })
	})

	it('restarts a supervisor that dies and keeps the others serving', async () => {
		const sharded = t.ctx.runtime as ShardedRuntime
		const victim = sharded.shardOf(1)
		const other = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].find((id) => sharded.shardOf(id) !== victim) as number
		process.kill(victim.runtime.pid as number, 'SIGKILL')
		// The other supervisor answers meanwhile.
		expect(await sharded.invoke(other, { _: 'getOption', name: 'version' })).toMatchObject({
			_: 'optionValueString',
		})
		const end = Date.now() + 10_000
		for (;;) {
			const answer = await sharded.invoke(1, { _: 'getOption', name: 'version' }).catch(() => null)
			if (answer) break
			if (Date.now() > end) throw new Error('supervisor not back')
			await Bun.sleep(50)
		}
	})
})
