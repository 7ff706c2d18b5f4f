import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SEED_PHOTO_PNG } from '../../src/emulator/seed/read-side'
import type { TestInstance } from '../helpers'
import { connectWs, registerUser, type TestUser } from '../helpers-ws'
import {
	clusterEnv,
	type NatsServer,
	type ShardProcess,
	startGateway,
	startNats,
	startShard,
} from './cluster'

/**
 * The files route for a userbot whose TDLib runs on a shard on another host: the gateway's DATA_DIR
 * is not the shard's (the same shared TDLib storage mounted elsewhere: the same `.storage-id`, but
 * none of the shard's paths exist on the gateway's side), so the bytes come through TDLib's
 * `readFilePart` over the bus, in parts.
 */
const ALICE = { phone: '9996611111', code: '11111' }

/** Every file name under `dir`, recursively. */
function namesUnder(dir: string): string[] {
	return readdirSync(dir, { recursive: true, withFileTypes: true })
		.filter((e) => e.isFile())
		.map((e) => e.name)
}

describe('files of a userbot on a shard on another host', () => {
	let nats: NatsServer
	let gatewayDir: string
	let shardDir: string
	let gateway: TestInstance
	let shard: ShardProcess
	let user: TestUser
	let stranger: TestUser
	let alice = 0
	let photoId = 0

	const get = (who: TestUser, path: string, headers: Record<string, string> = {}) =>
		fetch(`${gateway.url}${path}`, { headers: { authorization: `Bearer ${who.access}`, ...headers } })
	const post = async (path: string, body: unknown) => {
		const res = await fetch(`${gateway.url}/api/userbots/${path}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', authorization: `Bearer ${user.access}` },
			body: JSON.stringify(body),
		})
		const json = (await res.json()) as { id: number; authorization_state: string }
		if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`)
		return json
	}

	beforeAll(async () => {
		nats = await startNats()
		gatewayDir = mkdtempSync(join(tmpdir(), 'ubg-files-gateway-'))
		shardDir = mkdtempSync(join(tmpdir(), 'ubg-files-shard-'))
		// One database for both; each its own DATA_DIR.
		const database = { DATABASE_URL: `file:${join(gatewayDir, 'app.db')}` }
		gateway = await startGateway({ ...clusterEnv(nats, gatewayDir), ...database }, gatewayDir)
		// The shard gets the gateway's secrets and the storage's id, as an operator copies them.
		mkdirSync(join(shardDir, 'tdlib'), { recursive: true })
		copyFileSync(join(gatewayDir, 'secrets.json'), join(shardDir, 'secrets.json'))
		copyFileSync(join(gatewayDir, 'tdlib', '.storage-id'), join(shardDir, 'tdlib', '.storage-id'))
		shard = await startShard({ ...clusterEnv(nats, shardDir), ...database }, 's1')
		user = await registerUser(gateway, `files-remote-${Date.now()}@example.com`)
		stranger = await registerUser(gateway, `files-stranger-${Date.now()}@example.com`)
		alice = (await post('', { name: 'alice' })).id
		await post(`${alice}/phone/`, { phone_number: ALICE.phone })
		expect((await post(`${alice}/code/`, { code: ALICE.code })).authorization_state).toBe(
			'authorizationStateReady',
		)
		const ws = await connectWs(gateway.url, { bearer: user.access })
		// Bob's photo in his chat with Alice; the first call may answer TDLib's partial batch.
		for (let i = 0; i < 3 && !photoId; i++) {
			const reply = await ws.command({
				action: 'get_chat_history',
				userbot_id: alice,
				chat_id: 1002,
				limit: 20,
			})
			const { messages } = (reply.payload as unknown as { result: { messages: Array<{ content: Content }> } })
				.result
			photoId = messages.find((m) => m.content._ === 'messagePhoto')?.content.photo?.sizes[0]?.photo.id ?? 0
		}
		ws.close()
		expect(photoId).toBeGreaterThan(0)
	}, 60_000)

	afterAll(async () => {
		await Promise.allSettled([gateway?.halt(), shard?.stop()])
		await nats?.stop()
		for (const dir of [gatewayDir, shardDir]) if (dir) rmSync(dir, { recursive: true, force: true })
	}, 30_000)

	type Content = { _: string; photo?: { sizes: Array<{ photo: { id: number } }> } }
	const url = () => `/api/userbots/${alice}/files/${photoId}`

	it("streams the whole file byte for byte from the shard's TDLib, not from the gateway's disk", async () => {
		const res = await get(user, url())
		expect(res.status).toBe(200)
		expect(Buffer.from(await res.arrayBuffer())).toEqual(SEED_PHOTO_PNG)
		expect(res.headers.get('content-type')).toBe('image/png')
		expect(res.headers.get('content-disposition')).toContain('sunset.png')
		expect(res.headers.get('etag')).toMatch(/^"[\w-]{27}"$/)
		// The download is in the shard's folder only: the gateway had nothing to read.
		expect(namesUnder(join(shardDir, 'tdlib')).some((n) => n.includes('sunset.png'))).toBe(true)
		expect(namesUnder(gatewayDir).some((n) => n.includes('sunset.png'))).toBe(false)
	}, 30_000)

	it('answers a Range of 10 bytes with 206, read from the shard', async () => {
		const res = await get(user, url(), { range: 'bytes=5-14' })
		expect(res.status).toBe(206)
		expect(res.headers.get('content-range')).toBe(`bytes 5-14/${SEED_PHOTO_PNG.length}`)
		expect(Buffer.from(await res.arrayBuffer())).toEqual(SEED_PHOTO_PNG.subarray(5, 15))
		const tail = await get(user, url(), { range: 'bytes=-10' })
		expect(tail.status).toBe(206)
		expect(Buffer.from(await tail.arrayBuffer())).toEqual(SEED_PHOTO_PNG.subarray(SEED_PHOTO_PNG.length - 10))
	}, 30_000)

	it("answers another company's user 404", async () => {
		const res = await get(stranger, url())
		expect(res.status).toBe(404)
		expect(await res.json()).toEqual({ detail: 'Not found.' })
	}, 30_000)
})
