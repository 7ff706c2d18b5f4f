import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestInstance } from '../helpers'
import {
	clusterEnv,
	type NatsServer,
	SERVER_ENTRY,
	type ShardProcess,
	startGateway,
	startNats,
	startShard,
	terminate,
} from './cluster'

/**
 * Shards must see each other's POSIX locks on the shared `DATA_DIR/tdlib` (TDLib's lock is the last
 * fence of one owner per account: docs/shards.md#one-owner-per-account). A shard whose storage does
 * not show it the lock of a live shard refuses to start with one line. On one machine locks are
 * always shared, so the shard that must refuse is given a folder of its own with the shared one's
 * `.storage-id` (and secrets) copied: the storage check passes, the locks it looks for are not there.
 */
let nats: NatsServer
let dataDir: string
let env: Record<string, string>
let gateway: TestInstance
const shards: ShardProcess[] = []

beforeAll(async () => {
	nats = await startNats()
	dataDir = mkdtempSync(join(tmpdir(), 'ubg-bus-locks-'))
	env = clusterEnv(nats, dataDir)
	gateway = await startGateway(env, dataDir)
	shards.push(await startShard(env, 's1'))
}, 60_000)

afterAll(async () => {
	await Promise.allSettled([gateway?.halt(), ...shards.map((s) => s.stop())])
	await nats?.stop()
	if (dataDir) rmSync(dataDir, { recursive: true, force: true })
}, 30_000)

describe('shards on the shared TDLib storage', () => {
	it('start beside each other when each sees the others’ locks', async () => {
		shards.push(await startShard(env, 's2'))
		expect(shards.map((s) => s.proc.exitCode)).toEqual([null, null])
	}, 30_000)

	it('refuse to start, with one line, where the storage does not carry the others’ locks', async () => {
		const elsewhere = mkdtempSync(join(tmpdir(), 'ubg-bus-nolocks-'))
		try {
			mkdirSync(join(elsewhere, 'tdlib'))
			copyFileSync(join(dataDir, 'tdlib', '.storage-id'), join(elsewhere, 'tdlib', '.storage-id'))
			copyFileSync(join(dataDir, 'secrets.json'), join(elsewhere, 'secrets.json'))
			const proc = Bun.spawn([process.execPath, '--no-env-file', SERVER_ENTRY], {
				env: {
					PATH: process.env.PATH ?? '',
					...env,
					BUS_URL: nats.urlFor('shard', 's3'),
					DATA_DIR: elsewhere,
					ROLE: 'shard',
					SHARD_ID: 's3',
				},
				stdout: 'ignore',
				stderr: 'pipe',
			})
			const done = await Promise.race([proc.exited, Bun.sleep(30_000).then(() => undefined)])
			if (done === undefined) await terminate(proc)
			expect(done).toBe(2)
			const text = await new Response(proc.stderr).text()
			const last = text.trim().split('\n').at(-1)
			expect(last).toStartWith(
				`startup error: ${join(elsewhere, 'tdlib')} does not carry POSIX locks between this shard and shard s`,
			)
			expect(last).toEndWith(
				'(its lock in .shards/ is not seen here): every shard must mount one DATA_DIR/tdlib on storage that shares locks between hosts (NFS v4 does)',
			)
		} finally {
			rmSync(elsewhere, { recursive: true, force: true })
		}
	}, 40_000)
})
