import { afterEach, describe, expect, it } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createLogger } from '../../src/common/util/logger'
import { createEmulatorBackend } from '../../src/emulator'
import { createRuntime, type LocalRuntime } from '../../src/runtime/supervisor'
import {
	autoSupervisors,
	BYTES_PER_CLIENT,
	descriptorCapacity,
	FD_RESERVE,
	FDS_PER_CLIENT,
	memoryCapacity,
} from '../../src/runtime/supervisor/capacity'
import { createChildHost } from '../../src/runtime/supervisor/child-host'
import { SupervisorClient } from '../../src/runtime/supervisor/client'
import { type ChildMessage, fromWireError } from '../../src/runtime/supervisor/protocol'
import { ownerOf } from '../../src/runtime/supervisor/rendezvous'
import type { ShardedRuntime } from '../../src/runtime/supervisor/sharded'
import { RuntimeError } from '../../src/runtime/telegram/types'
import { loadConfig } from '../../src/server/config'
import { rejection } from './helpers'

/**
 * Capacity (docs/capacity.md): each supervisor child knows how many clients its descriptors allow,
 * refuses a start past it with `capacity reached: ...`, and the supervisors place a new userbot on
 * one with room. A limit that fits 50 clients is given with CHILD_MAX_FDS, which the child sets as
 * its own soft RLIMIT_NOFILE before anything opens.
 */
const FITS_50 = String(FD_RESERVE + 50 * FDS_PER_CLIENT)
const key = (id: number) => Buffer.from(`key-${id}`).toString('base64')
const cleanup: Array<() => Promise<unknown> | unknown> = []
afterEach(async () => {
	for (const c of cleanup.splice(0).reverse()) await c()
})

async function runtimeWith(env: Record<string, string>): Promise<LocalRuntime> {
	const dataDir = mkdtempSync(join(tmpdir(), 'ubg-capacity-'))
	const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', COMMAND_TIMEOUT: '30000', ...env })
	const runtime = await createRuntime(config, createLogger('silent'), { restartMinMs: 20 })
	if (!runtime) throw new Error('no runtime')
	cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }))
	cleanup.push(() => runtime.close())
	return runtime
}

const version = { _: 'getOption', name: 'version' } as const

describe('capacity figures', () => {
	it('counts clients from descriptors after the reserve, and from an equal share of the memory budget', () => {
		expect(descriptorCapacity({ soft: Number(FITS_50), hard: 20_000 }).clients).toBe(50)
		expect(descriptorCapacity({ soft: Number(FITS_50) - 1, hard: 20_000 }).clients).toBe(49)
		expect(descriptorCapacity({ soft: 10, hard: 20_000 }).clients).toBe(0)
		expect(memoryCapacity(100 * BYTES_PER_CLIENT, 4).clients).toBe(25)
		expect(memoryCapacity(100 * BYTES_PER_CLIENT, 4).reason).toContain('memory budget')
	})

	it('SUPERVISORS=auto: enough children for the memory budget at each one descriptor limit', () => {
		// 10,000 clients' memory; 2,000 clients' descriptors per child: five children.
		const limit = { soft: FD_RESERVE + 2000 * FDS_PER_CLIENT, hard: FD_RESERVE + 2000 * FDS_PER_CLIENT }
		expect(autoSupervisors(10_000 * BYTES_PER_CLIENT, limit)).toBe(5)
		// A lowered child limit asks for more of them; never more than 64.
		expect(autoSupervisors(10_000 * BYTES_PER_CLIENT, limit, FD_RESERVE + 500 * FDS_PER_CLIENT)).toBe(20)
		expect(autoSupervisors(10_000 * BYTES_PER_CLIENT, limit, FD_RESERVE + 10 * FDS_PER_CLIENT)).toBe(64)
		expect(loadConfig({ SUPERVISORS: 'auto' }).supervisors).toBe('auto')
		expect(() => loadConfig({ SUPERVISORS: 'many' })).toThrow('SUPERVISORS')
	})
})

describe('the descriptor limit', () => {
	it('is raised to the hard limit, or lowered to a given one, through libc', async () => {
		// A process under a hard limit of 4096 (prlimit): the kernel's own figures after each step.
		const script = join(import.meta.dir, 'rlimit-probe.ts')
		const proc = Bun.spawn(['prlimit', '--nofile=64:4096', process.execPath, '--no-env-file', script], {
			stdout: 'pipe',
			stderr: 'inherit',
		})
		const out = await new Response(proc.stdout).text()
		expect(await proc.exited).toBe(0)
		expect(JSON.parse(out)).toEqual({
			down: { soft: 64, hard: 4096 },
			afterDown: 64,
			raised: { soft: 4096, hard: 4096 },
			afterRaise: 4096,
			lowered: { soft: 100, hard: 4096 },
			afterLower: 100,
		})
	})
})

describe('the child itself', () => {
	it('refuses a start past its capacity with the capacity code on the wire, and starts a running one again', async () => {
		const dataDir = mkdtempSync(join(tmpdir(), 'ubg-capacity-host-'))
		cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }))
		const sent: ChildMessage[] = []
		const replied = (id: number) =>
			new Promise<ChildMessage>((resolve) => {
				const poll = () => {
					const m = sent.find((x) => x.type === 'result' && x.id === id)
					if (m) resolve(m)
					else setTimeout(poll, 5)
				}
				poll()
			})
		const capacity = descriptorCapacity({ soft: FD_RESERVE + FDS_PER_CLIENT, hard: 4096 })
		const host = createChildHost({
			backend: createEmulatorBackend(),
			dataDir,
			send: (m) => sent.push(m),
			capacity,
		})
		cleanup.push(() => host.closeAll())
		host.handle({ type: 'start', id: 1, userbotId: 1, encryptionKey: key(1) }, () => undefined)
		expect(await replied(1)).toMatchObject({ ok: true })
		host.handle({ type: 'start', id: 2, userbotId: 2, encryptionKey: key(2) }, () => undefined)
		const refused = (await replied(2)) as Extract<ChildMessage, { type: 'result'; ok: false }>
		expect(refused.error.code).toBe('capacity')
		const err = fromWireError(refused.error) as RuntimeError
		expect(err.code).toBe('capacity')
		expect(err.message).toStartWith('capacity reached: 1 userbot runs here')
		host.handle({ type: 'start', id: 3, userbotId: 1, encryptionKey: key(1) }, () => undefined)
		expect(await replied(3)).toMatchObject({ ok: true, value: 'authorizationStateWaitPhoneNumber' })
		expect(host.size).toBe(1)
	})
})

describe('a child whose descriptors fit 50 clients', () => {
	it('real TDLib (offline): refuses the 51st with the capacity error and keeps the 50 running', async () => {
		// Real TDLib: each client's descriptors are real, so the child's lowered limit is a real one.
		const runtime = await runtimeWith({
			TDLIB_BACKEND: 'tdlib',
			TDLIB_OFFLINE: '1',
			TELEGRAM_API_ID: '1',
			TELEGRAM_API_HASH: '0123456789abcdef0123456789abcdef',
			CHILD_MAX_FDS: FITS_50,
		})
		expect(runtime).toBeInstanceOf(SupervisorClient)
		const pid = runtime.pid as number
		// The child runs under the limit it was given: its own soft RLIMIT_NOFILE.
		expect(readFileSync(`/proc/${pid}/limits`, 'utf8')).toMatch(new RegExp(`Max open files\\s+${FITS_50}\\s`))
		const ids = Array.from({ length: 50 }, (_, i) => i + 1)
		const states = await Promise.all(ids.map((id) => runtime.startClient(id, { encryptionKey: key(id) })))
		expect(new Set(states)).toEqual(new Set(['authorizationStateWaitPhoneNumber']))

		const err = await rejection(runtime.startClient(51, { encryptionKey: key(51) }))
		expect(err).toBeInstanceOf(RuntimeError)
		expect((err as RuntimeError).code).toBe('capacity')
		expect((err as RuntimeError).message).toBe(
			`capacity reached: 50 userbots run here, the most the file descriptor limit of ${FITS_50} ` +
				`(${FDS_PER_CLIENT} per userbot, ${FD_RESERVE} kept back) allows`,
		)
		// The same child, every one of the 50 still answering; the 51st has no client.
		expect(runtime.pid).toBe(pid)
		expect(runtime.health()).toMatchObject({ up: true, clients: 50, restarts: 0 })
		const answers = await Promise.all(ids.map((id) => runtime.invoke(id, version)))
		for (const a of answers) expect(a).toMatchObject({ _: 'optionValueString' })
		expect(((await rejection(runtime.invoke(51, version))) as RuntimeError).code).toBe('no_client')
		// A client stopped makes room again.
		await runtime.stopClient(50, { logOut: false, removeData: true })
		expect(await runtime.startClient(51, { encryptionKey: key(51) })).toBe(
			'authorizationStateWaitPhoneNumber',
		)
	}, 120_000)

	it('with two children the 51st goes to the other; past both, the start is refused', async () => {
		// The emulator: this is about placement, which is the same whatever a client costs.
		const runtime = await runtimeWith({ TDLIB_BACKEND: 'emulator', SUPERVISORS: '2', CHILD_MAX_FDS: FITS_50 })
		const sharded = runtime as ShardedRuntime
		const names = sharded.shards.map((s) => s.name)
		// 51 userbots the hash gives to the first supervisor.
		const first = names[0] as string
		const mine: number[] = []
		for (let id = 1; mine.length < 51; id++) if (ownerOf(id, names) === first) mine.push(id)
		for (const id of mine.slice(0, 50)) await sharded.startClient(id, { encryptionKey: key(id) })
		expect(sharded.shards.map((s) => s.runtime.health().clients)).toEqual([50, 0])

		const fifty1 = mine[50] as number
		expect(await sharded.startClient(fifty1, { encryptionKey: key(fifty1) })).toBe(
			'authorizationStateWaitPhoneNumber',
		)
		expect(sharded.shardOf(fifty1).name).toBe(names[1] as string)
		expect(sharded.shards.map((s) => s.runtime.health().clients)).toEqual([50, 1])
		expect(await sharded.invoke(fifty1, version)).toMatchObject({ _: 'optionValueString' })
		// Started again, it stays where it runs (not sent to its hash owner, which is full anyway).
		await sharded.startClient(fifty1, { encryptionKey: key(fifty1) })
		expect(sharded.shards.map((s) => s.runtime.health().clients)).toEqual([50, 1])

		// Fill the second, then one more: refused, naming the limit, and nothing else moves.
		const rest: number[] = []
		for (let id = 1; rest.length < 49; id++) if (!mine.includes(id)) rest.push(id)
		await Promise.all(rest.map((id) => sharded.startClient(id, { encryptionKey: key(id) })))
		expect(sharded.shards.map((s) => s.runtime.health().clients)).toEqual([50, 50])
		const err = (await rejection(sharded.startClient(100_000, { encryptionKey: key(0) }))) as RuntimeError
		expect(err.code).toBe('capacity')
		expect(err.message).toStartWith('capacity reached: 100 userbots run in 2 supervisor children, the most')
		expect(err.message).toEndWith('allows each')
		expect(sharded.health()).toMatchObject({ up: true, clients: 100 })
	}, 60_000)

	it('two starts racing for the last place: one gets it, the other is refused', async () => {
		const runtime = await runtimeWith({
			TDLIB_BACKEND: 'emulator',
			CHILD_MAX_FDS: String(FD_RESERVE + FDS_PER_CLIENT),
		})
		const results = await Promise.allSettled([
			runtime.startClient(1, { encryptionKey: key(1) }),
			runtime.startClient(2, { encryptionKey: key(2) }),
		])
		expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected'])
		expect(runtime.health().clients).toBe(1)
	})

	it('MEMORY_BUDGET_MB: a child holds only its share of the memory budget', async () => {
		// 3 MiB for 2 children: one client each (1.5 MiB per client).
		const runtime = await runtimeWith({ TDLIB_BACKEND: 'emulator', SUPERVISORS: '2', MEMORY_BUDGET_MB: '3' })
		await runtime.startClient(1, { encryptionKey: key(1) })
		await runtime.startClient(2, { encryptionKey: key(2) })
		const err = (await rejection(runtime.startClient(3, { encryptionKey: key(3) }))) as RuntimeError
		expect(err.code).toBe('capacity')
		expect(err.message).toBe(
			'capacity reached: 2 userbots run in 2 supervisor children, the most its share of the memory budget, ' +
				'1.5 MiB (1.5 MiB per userbot) allows each',
		)
	})
})

describe('a child killed under load', () => {
	it('loses only its share, which comes back where it was, while the other serves without an error', async () => {
		// The emulator: this is about which userbots a death touches, not what a client costs.
		const runtime = await runtimeWith({ TDLIB_BACKEND: 'emulator', SUPERVISORS: '2', CHILD_MAX_FDS: FITS_50 })
		const sharded = runtime as ShardedRuntime
		const ids = Array.from({ length: 60 }, (_, i) => i + 1)
		await Promise.all(ids.map((id) => sharded.startClient(id, { encryptionKey: key(id) })))
		const [victim, survivor] = sharded.shards as [ShardedRuntime['shards'][0], ShardedRuntime['shards'][0]]
		const counts = sharded.shards.map((s) => s.runtime.health().clients)
		const theirs = ids.filter((id) => sharded.shardOf(id) === victim)
		const others = ids.filter((id) => sharded.shardOf(id) === survivor)
		expect(theirs.length).toBeGreaterThan(0)
		expect(others.length).toBeGreaterThan(0)

		const restarted = new Promise<void>((resolve) => {
			sharded.onEvent((e) => {
				if (e.type === 'runtime_restarted') resolve()
			})
		})
		const down = new Promise<number[]>((resolve) => {
			sharded.onEvent((e) => {
				if (e.type === 'runtime_down') resolve(e.userbotIds)
			})
		})
		const errors = new Map<number, string[]>()
		let served = 0
		let running = true
		let firstRound: () => void = () => undefined
		const warm = new Promise<void>((resolve) => {
			firstRound = resolve
		})
		// One loop per userbot, a request always outstanding.
		const loops = ids.map(async (id) => {
			while (running) {
				try {
					await sharded.invoke(id, version)
					if (++served === ids.length) firstRound()
				} catch (err) {
					const list = errors.get(id) ?? []
					list.push(err instanceof RuntimeError ? err.code : String(err))
					errors.set(id, list)
				}
			}
		})
		await warm
		process.kill(victim.runtime.pid as number, 'SIGKILL')
		expect((await down).sort((a, b) => a - b)).toEqual(theirs)
		await restarted
		// Every one of the victim's userbots answers again, from the same supervisor.
		for (const id of theirs)
			expect(await sharded.invoke(id, version)).toMatchObject({ _: 'optionValueString' })
		running = false
		await Promise.all(loops)

		for (const id of others) expect(errors.get(id)).toBeUndefined()
		for (const [id, codes] of errors) {
			expect(theirs).toContain(id)
			for (const code of codes) expect(code).toBe('runtime_down')
		}
		expect(sharded.shards.map((s) => s.runtime.health().clients)).toEqual(counts)
		for (const id of theirs) expect(sharded.shardOf(id)).toBe(victim)
		expect(sharded.health()).toMatchObject({ up: true, clients: 60, restarts: 1 })
	}, 60_000)
})
