import { afterAll, afterEach, beforeAll, describe, expect, it } from 'bun:test'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createLogger } from '../../src/common/util/logger'
import { type Bus, connectBus } from '../../src/runtime/bus/connection'
import { BusKey } from '../../src/runtime/bus/seal'
import {
	checkSharedSecrets,
	checkSharedStorage,
	SecretsMismatchError,
	StorageMismatchError,
} from '../../src/runtime/bus/storage'
import { BUS_KEY_KEY, SECRETS_KEY, STORAGE_KEY } from '../../src/runtime/bus/subjects'
import { type NatsServer, startNats } from './cluster'
import { busConfigOf } from './nats'

/** The multi-machine decisions, enforced: one bus, one `DATA_DIR/tdlib` and one set of gateway secrets, or a process does not start. */
describe('what the processes of one bus must share', () => {
	let nats: NatsServer
	let bus: Bus
	const dirs: string[] = []
	const dataDir = () => {
		const d = mkdtempSync(join(tmpdir(), 'ubg-storage-'))
		dirs.push(d)
		return d
	}

	beforeAll(async () => {
		nats = await startNats()
		bus = await connectBus({
			config: busConfigOf(nats.url),
			role: 'gateway',
			id: 'storage-test',
			key: BusKey.fromDataKey('d'.repeat(43)),
			heartbeatMs: 1000,
			bufferSize: 16,
			bufferAgeMs: 60_000,
			log: createLogger('silent'),
		})
	})
	afterEach(async () => {
		await bus.leases.delete(STORAGE_KEY)
		await bus.leases.delete(SECRETS_KEY)
		await bus.leases.delete(BUS_KEY_KEY)
	})
	afterAll(async () => {
		await bus?.close()
		await nats?.stop()
		for (const d of dirs) rmSync(d, { recursive: true, force: true })
	})

	it('gives a new bus the first folder’s id, and lets every process on that folder start', async () => {
		const shared = dataDir()
		const id = await checkSharedStorage(bus.leases, shared)
		expect(readFileSync(join(shared, 'tdlib', '.storage-id'), 'utf8')).toBe(id)
		expect((await bus.leases.get(STORAGE_KEY))?.string()).toBe(id)
		expect(await checkSharedStorage(bus.leases, shared)).toBe(id)
	})

	it('refuses a folder that is not the shared one, empty or another', async () => {
		const shared = dataDir()
		await checkSharedStorage(bus.leases, shared)
		const empty = dataDir()
		await expect(checkSharedStorage(bus.leases, empty)).rejects.toThrow(
			`${join(empty, 'tdlib')} is not the storage the other processes on the bus use (it has no .storage-id)`,
		)
		const other = dataDir()
		mkdirSync(join(other, 'tdlib'))
		writeFileSync(join(other, 'tdlib', '.storage-id'), crypto.randomUUID())
		const refused = await checkSharedStorage(bus.leases, other).catch((e: unknown) => e)
		expect(refused).toBeInstanceOf(StorageMismatchError)
		expect((refused as Error).message).toContain('its .storage-id is another')
	})

	it('agrees on one id when the first processes of a new bus start at once on one folder', async () => {
		const shared = dataDir()
		const ids = await Promise.all(Array.from({ length: 4 }, () => checkSharedStorage(bus.leases, shared)))
		expect(new Set(ids).size).toBe(1)
	})

	it('lets only one of two folders that start at once on a new bus through', async () => {
		const results = await Promise.allSettled([
			checkSharedStorage(bus.leases, dataDir()),
			checkSharedStorage(bus.leases, dataDir()),
		])
		expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected'])
	})

	it('takes the folder’s id on a bus that lost its own (a new JetStream store)', async () => {
		const shared = dataDir()
		const id = await checkSharedStorage(bus.leases, shared)
		await bus.leases.delete(STORAGE_KEY)
		expect(await checkSharedStorage(bus.leases, shared)).toBe(id)
		await expect(checkSharedStorage(bus.leases, dataDir())).rejects.toBeInstanceOf(StorageMismatchError)
	})

	it('lets gateways with the same secrets start, and refuses one whose secrets differ in any part', async () => {
		const secrets = { jwtSecret: 'j'.repeat(40), sessionSecret: 's'.repeat(40), dataKey: 'd'.repeat(43) }
		const key = (s: typeof secrets) => BusKey.fromDataKey(s.dataKey).fingerprint
		await checkSharedSecrets(bus.leases, secrets, key(secrets))
		await checkSharedSecrets(bus.leases, { ...secrets }, key(secrets))
		// What the bus keeps tells nothing of them.
		const kept = (await bus.leases.get(SECRETS_KEY))?.string() ?? ''
		for (const value of Object.values(secrets)) expect(kept).not.toContain(value.slice(0, 8))
		for (const part of ['jwtSecret', 'sessionSecret', 'dataKey'] as const) {
			const other = { ...secrets, [part]: 'x'.repeat(40) }
			const refused = await checkSharedSecrets(bus.leases, other, key(other)).catch((e: unknown) => e)
			expect(refused).toBeInstanceOf(SecretsMismatchError)
			expect((refused as Error).message).toBe(
				'JWT_SECRET, SESSION_SECRET or the data key (DATA_DIR/secrets.json) differ from those of the other gateways on the bus: every gateway of one bus must have the same',
			)
		}
	})
})
