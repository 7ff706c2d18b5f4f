import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connect, type Msg, type NatsConnection } from '@nats-io/transport-node'
import { eq } from 'drizzle-orm'
import { userbot } from '../../db/schema'
import { openDatabaseKey } from '../../src/common/util/key-crypto'
import { SEED_CHATS } from '../../src/emulator'
import { BusKey } from '../../src/runtime/bus/seal'
import { uploadsDir } from '../../src/server/commands/uploads'
import { loadConfig } from '../../src/server/config'
import { getTestInstance, type TestInstance } from '../helpers'
import { connectWs, registerUser, type TestUser, type WsClient } from '../helpers-ws'
import {
	clusterEnv,
	loggedInOverRest,
	type NatsServer,
	type ShardProcess,
	startNats,
	startShard,
	until,
	userbotsRest,
} from './cluster'

/**
 * Defence in depth on the bus's messages, with a real nats-server, a gateway and a shard process:
 * a NATS credential alone (a gateway's, a shard's, or one with every right) neither forges, nor
 * replays, nor reads anything; and a shard asked directly, with the deployment's own key (a
 * compromised gateway), still sends TDLib only what a command declares and the schema allows.
 */
const GET = 'get_default_message_auto_delete_time'
const GROUP = SEED_CHATS.basicGroup

describe('messages on the bus', () => {
	let nats: NatsServer
	let dataDir: string
	let a: TestInstance
	let s1: ShardProcess
	let user: TestUser
	let key: BusKey
	const gatewayLines: string[] = []
	const sockets: WsClient[] = []
	const conns: NatsConnection[] = []
	const userbots: number[] = []

	const call = (path: string, body: unknown) => userbotsRest(a.url, user.access)(path, body)
	const natsAs = async (url: string, inboxPrefix?: string) => {
		const u = new URL(url)
		const nc = await connect({
			servers: `127.0.0.1:${u.port}`,
			user: u.username,
			pass: u.password,
			inboxPrefix,
		})
		conns.push(nc)
		return nc
	}
	const ws = async () => {
		const c = await connectWs(a.url, { bearer: user.access })
		sockets.push(c)
		return c
	}
	const shardRefusals = () => s1.lines.filter((l) => l.includes('"bus message refused"'))
	/** A request sealed with the deployment's key, as a gateway sends it; resolves with the reply. */
	const ask = async (nc: NatsConnection, reply: string, message: Record<string, unknown>) => {
		const answer = new Promise<Msg>((resolve) => {
			const sub = nc.subscribe(reply, { max: 1, callback: (_e, m) => resolve(m) })
			void sub
		})
		await nc.flush()
		nc.publish('ubg.req.s1', key.sealer('gateway-test').seal('ubg.req.s1', JSON.stringify(message)), {
			reply,
		})
		const m = await answer
		const opened = key.open(m.subject, m.data)
		if (!opened.ok) throw new Error(`reply does not open: ${opened.reason}`)
		return JSON.parse(new TextDecoder().decode(opened.body)) as {
			ok: boolean
			error?: { code: string; message: string }
		}
	}

	beforeAll(async () => {
		nats = await startNats()
		dataDir = mkdtempSync(join(tmpdir(), 'ubg-bus-messages-'))
		const env = clusterEnv(nats, dataDir)
		a = await getTestInstance({ ...env, ROLE: 'gateway' }, { dataDir, logLines: gatewayLines })
		s1 = await startShard(env, 's1')
		key = BusKey.fromDataKey(loadConfig({ DATA_DIR: dataDir }).secrets.dataKey)
		user = await registerUser(a, `bus-messages-${Date.now()}@example.com`)
		userbots.push(await loggedInOverRest(call, '9996621234', 'bob'))
	}, 60_000)

	afterAll(async () => {
		for (const s of sockets) s.close()
		await Promise.allSettled(conns.map((c) => c.close()))
		await Promise.allSettled([a?.halt(), s1?.stop()])
		await nats?.stop()
		if (dataDir) rmSync(dataDir, { recursive: true, force: true })
	}, 30_000)

	it('refuses and logs a request published with a gateway’s NATS credentials but without the bus key', async () => {
		const forger = await natsAs(nats.url, 'ubg.inbox.gateway.forger')
		const replies: string[] = []
		forger.subscribe('ubg.inbox.gateway.forger.>', {
			callback: (_e, m) => {
				replies.push(m.subject)
			},
		})
		await forger.flush()
		const before = shardRefusals().length
		const invoke = {
			type: 'invoke',
			id: 1,
			userbotId: userbots[0],
			request: { _: 'getDefaultMessageAutoDeleteTime' },
			label: GET,
		}
		// In clear, as the bus carried it before; and sealed with a key that is not the deployment's.
		forger.publish('ubg.req.s1', JSON.stringify(invoke), { reply: 'ubg.inbox.gateway.forger.1' })
		const wrong = BusKey.fromDataKey('not the data key of this deployment').sealer('gateway-x')
		forger.publish('ubg.req.s1', wrong.seal('ubg.req.s1', JSON.stringify({ ...invoke, id: 2 })), {
			reply: 'ubg.inbox.gateway.forger.2',
		})
		await until('both refused in the shard’s log', () =>
			shardRefusals().length >= before + 2 ? true : undefined,
		)
		const lines = shardRefusals().slice(before)
		expect(lines.map((l) => JSON.parse(l).reason).sort()).toEqual(['forged', 'malformed'])
		// One line each, with the subject and the reason, nothing of the message.
		for (const line of lines) {
			expect(JSON.parse(line).subject).toBe('ubg.req.s1')
			expect(line).not.toContain('getDefaultMessageAutoDeleteTime')
		}
		// A request with the key, sent after them, is answered: the shard had dealt with them, answering neither.
		const real = await ask(forger, 'ubg.inbox.gateway.forger.3', { ...invoke, id: 3 })
		expect(real.ok).toBe(true)
		expect(replies).toEqual(['ubg.inbox.gateway.forger.3'])
	})

	it('refuses a request replayed from the bus, however it is addressed', async () => {
		const sniffer = await natsAs(nats.urlFor('sniffer'))
		const seen: Msg[] = []
		sniffer.subscribe('ubg.req.s1', {
			callback: (_e, m) => {
				seen.push(m)
			},
		})
		await sniffer.flush()
		const c = await ws()
		expect((await c.command({ action: GET, userbot_id: userbots[0] })).payload.error).toBeUndefined()
		const captured = await until('the request seen', () => seen[0])
		const forger = await natsAs(nats.url, 'ubg.inbox.gateway.replay')
		const replies: string[] = []
		forger.subscribe('ubg.inbox.gateway.replay.>', {
			callback: (_e, m) => {
				replies.push(m.subject)
			},
		})
		await forger.flush()
		const before = s1.lines.filter((l) => l.includes('"reason":"replayed"')).length
		forger.publish('ubg.req.s1', captured.data, { reply: 'ubg.inbox.gateway.replay.1' })
		await until('the replay refused', () =>
			s1.lines.filter((l) => l.includes('"reason":"replayed"')).length > before ? true : undefined,
		)
		const real = await ask(forger, 'ubg.inbox.gateway.replay.2', {
			type: 'invoke',
			id: 2,
			userbotId: userbots[0],
			request: { _: 'getDefaultMessageAutoDeleteTime' },
			label: GET,
		})
		expect(real.ok).toBe(true)
		expect(replies).toEqual(['ubg.inbox.gateway.replay.2'])
	})

	it('never lets a forged update reach a subscriber', async () => {
		const id = userbots[0] as number
		const c = await ws()
		expect((await c.command({ action: 'subscribe', userbot_id: id })).payload.error).toBeUndefined()
		// A shard's credentials (the only ones that may publish its events), not the key.
		const shard = await natsAs(nats.urlFor('shard', 's1'), 'ubg.inbox.shard.s1')
		const before = gatewayLines.filter((l) => l.includes('"bus message refused"')).length
		const fake = {
			seq: 999_999,
			update: { _: 'updateNewMessage', message: { content: { text: { text: 'forged-text' } } } },
		}
		await shard.request(`ubg.upd.s1.${id}`, JSON.stringify(fake)).catch(() => undefined)
		await until('the gateway refused it', () =>
			gatewayLines.filter((l) => l.includes('"bus message refused"')).length > before ? true : undefined,
		)
		const refused = gatewayLines.filter((l) => l.includes('"bus message refused"')).at(-1) as string
		expect(JSON.parse(refused).subject).toBe(`ubg.upd.s1.${id}`)
		expect(refused).not.toContain('forged-text')
		// A real one after it arrives, numbered after the last real one: the forged one took no number.
		await c.command({ action: 'send_message', userbot_id: id, chat_id: GROUP, text: 'real-text' })
		const got = await until('the real update', () =>
			c.received.some((m) => JSON.stringify(m).includes('real-text')) ? c.received : undefined,
		)
		expect(JSON.stringify(got)).not.toContain('forged-text')
		expect(got.some((m) => (m as { seq?: number }).seq === 999_999)).toBe(false)
	})

	it('shows a sniffer with every NATS right no database key, log-in code or password', async () => {
		const sniffer = await natsAs(nats.urlFor('sniffer'))
		const captured: Buffer[] = []
		sniffer.subscribe('>', {
			callback: (_e, m) => {
				captured.push(Buffer.from(`${m.subject} ${m.reply ?? ''}\n`), Buffer.from(m.data))
			},
		})
		await sniffer.flush()
		// Carol has a 2FA password: phone, code and password over REST, then a new password over the channel.
		const { id } = await call('', { name: 'carol' })
		await call(`${id}/phone/`, { phone_number: '9996631111' })
		await call(`${id}/code/`, { code: '33333' })
		const done = await call(`${id}/password/`, { password: 'secret-2fa' })
		expect(done.authorization_state).toBe('authorizationStateReady')
		const c = await ws()
		const changed = await c.command({
			action: 'change_2fa_password',
			userbot_id: id,
			current_password: 'secret-2fa',
			new_password: 'n3w-pa55word-of-carol',
		})
		expect(changed.payload.error).toBeUndefined()
		await sniffer.flush()
		const [row] = await a.ctx.db.select().from(userbot).where(eq(userbot.id, id))
		const databaseKey = await openDatabaseKey(a.ctx.config.secrets.dataKey, id, row?.encryptionKey as string)
		const bytes = Buffer.concat(captured)
		// It did see the traffic: the requests to the shard, sealed.
		expect(bytes.includes('ubg.req.s1')).toBe(true)
		for (const secret of [databaseKey, '"33333"', 'secret-2fa', 'n3w-pa55word-of-carol', 'real-text'])
			expect(bytes.includes(secret)).toBe(false)
	})

	it('refuses setLogStream and local files sent to a shard directly, even with the bus key', async () => {
		const id = userbots[0] as number
		const gateway = await natsAs(nats.url, 'ubg.inbox.gateway.evil')
		const invoke = (n: number, request: Record<string, unknown>, label: string) =>
			ask(gateway, `ubg.inbox.gateway.evil.${n}`, { type: 'invoke', id: n, userbotId: id, request, label })
		const logStream = {
			_: 'setLogStream',
			log_stream: {
				_: 'logStreamFile',
				path: join(dataDir, 'evil.log'),
				max_file_size: 1 << 20,
				redirect_stderr: false,
			},
		}
		for (const label of [GET, 'send_message', 'userbots:phone', 'no_such_command']) {
			const r = await invoke(1, logStream, label)
			expect(r).toMatchObject({
				ok: false,
				error: { code: 'bad_request', message: 'undeclared TDLib method' },
			})
		}
		const document = (path: string) => ({
			_: 'sendMessage',
			chat_id: GROUP,
			input_message_content: {
				_: 'inputMessageDocument',
				document: { _: 'inputDocument', document: { _: 'inputFileLocal', path } },
			},
		})
		for (const path of [
			'/etc/passwd',
			join(uploadsDir(dataDir, id), '..', '..', '..', 'secrets.json'),
			join(uploadsDir(dataDir, id + 1), 'x.txt'),
		]) {
			const r = await invoke(2, document(path), 'send_message')
			expect(r).toMatchObject({ ok: false, error: { code: 'bad_request', message: 'invalid TDLib request' } })
		}
		// An uploaded file of this userbot is what a command may send: the check is no wider than that.
		mkdirSync(uploadsDir(dataDir, id), { recursive: true })
		writeFileSync(join(uploadsDir(dataDir, id), 'notes.txt'), 'uploaded')
		const uploaded = await invoke(3, document(join(uploadsDir(dataDir, id), 'notes.txt')), 'send_message')
		expect(uploaded.ok).toBe(true)
		expect(s1.lines.filter((l) => l.includes('"request refused"')).length).toBeGreaterThanOrEqual(7)
	})
})
