import { afterEach, beforeEach, describe, expect, it } from 'bun:test'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type * as Td from 'tdlib-types'
import { connectSocket } from '../../src/common/transport/socket'
import { emulatorRequest } from '../../src/emulator'
import { type CloudBackend, cloudSocketPath, createCloudBackend } from '../../src/emulator/cloud'
import { tryLock } from '../../src/emulator/cloud/lock'
import { CLOUD_LOST } from '../../src/emulator/cloud/remote'
import { decodeWorld } from '../../src/emulator/cloud/world-state'
import { type BackendClient, TdError, type TdRequest, type TdUpdate } from '../../src/runtime/telegram/types'

/**
 * The shared emulated cloud, with its backends in this process: each stands for a supervisor child
 * (a host and the others over `cloud.sock`, as between processes). Killed hosts are the process
 * tests' (test/supervisor/emulator-cloud.test.ts, test/bus/emulator-cloud.test.ts).
 */
let root: string
let dir: string
const backends: CloudBackend[] = []

beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), 'ubg-cloud-'))
	dir = join(root, 'tdlib', 'emulator')
})
afterEach(async () => {
	for (const b of backends.splice(0)) await b.close()
	rmSync(root, { recursive: true, force: true })
})

const backend = () => {
	const b = createCloudBackend({ dir, flushDelayMs: 10 })
	backends.push(b)
	return b
}

interface Opened {
	client: BackendClient
	updates: TdUpdate[]
	/** The first update (already received or not) that matches. */
	next(match: (u: TdUpdate) => boolean): Promise<TdUpdate>
}

function open(b: CloudBackend, id: number): Opened {
	const folder = join(root, 'tdlib', String(id), 'db')
	mkdirSync(folder, { recursive: true })
	const client = b.createClient(id, { databaseDirectory: folder, filesDirectory: folder, encryptionKey: '' })
	const updates: TdUpdate[] = []
	const waiters = new Set<() => void>()
	client.onUpdate((u) => {
		updates.push(u)
		for (const w of [...waiters]) w()
	})
	return {
		client,
		updates,
		next: (match) =>
			new Promise((resolve) => {
				const look = () => {
					const found = updates.find(match)
					if (!found) return
					waiters.delete(look)
					resolve(found)
				}
				waiters.add(look)
				look()
			}),
	}
}

const states = (o: Opened) =>
	o.updates.flatMap((u) => (u._ === 'updateAuthorizationState' ? [u.authorization_state._] : []))
const ready = (o: Opened) =>
	o.next((u) => u._ === 'updateAuthorizationState' && u.authorization_state._ === 'authorizationStateReady')
const call = <T = unknown>(o: Opened, request: Record<string, unknown>) =>
	o.client.invoke(request as unknown as TdRequest) as Promise<T>

async function logIn(o: Opened, phone: string, register?: string) {
	await call(o, { _: 'setAuthenticationPhoneNumber', phone_number: phone })
	await call(o, { _: 'checkAuthenticationCode', code: phone.charAt(5).repeat(5) })
	if (register)
		await call(o, { _: 'registerUser', first_name: register, last_name: '', disable_notification: false })
	await ready(o)
}

const text = (t: string) => ({
	_: 'inputMessageText',
	text: { _: 'formattedText', text: t, entities: [] },
})
const newMessage = (t: string) => (u: TdUpdate) =>
	u._ === 'updateNewMessage' && (u.message.content as { text?: { text: string } }).text?.text === t

describe('the shared emulated cloud', () => {
	it('is hosted by the first backend; another reaches it over the socket, and their accounts talk live', async () => {
		const a = backend()
		const alice = open(a, 1)
		await logIn(alice, '9996611111')
		expect(a.hosting).toBe(true)
		const b = backend()
		const bob = open(b, 2)
		await logIn(bob, '9996621234')
		expect(b.hosting).toBe(false)

		await call(alice, { _: 'sendMessage', chat_id: 1002, input_message_content: text('to Bob') })
		const got = (await bob.next(newMessage('to Bob'))) as Td.updateNewMessage
		expect(got.message.chat_id).toBe(1001)
		await call(bob, { _: 'sendMessage', chat_id: 1001, input_message_content: text('to Alice') })
		expect(((await alice.next(newMessage('to Alice'))) as Td.updateNewMessage).message.chat_id).toBe(1002)
	})

	it('keeps its folder, socket and state private to the user', async () => {
		const a = backend()
		const alice = open(a, 1)
		await logIn(alice, '9996611111')
		const mode = (p: string) => statSync(p).mode & 0o777
		expect(mode(dir)).toBe(0o700)
		expect(mode(join(dir, 'cloud.sock'))).toBe(0o600)
		expect(mode(join(dir, 'cloud.lock'))).toBe(0o600)
		expect(mode(join(dir, 'cloud.json'))).toBe(0o600)
	})

	it('writes a log-in at once, and another change within its flush delay', async () => {
		const a = backend()
		const newcomer = open(a, 1)
		await logIn(newcomer, '9996617002', 'Newcomer')
		// Before its Ready was told, the account was on disk.
		const saved = decodeWorld(readFileSync(join(dir, 'cloud.json'), 'utf8'))
		const user = [...saved.users.values()].find((u) => u.phone === '9996617002')
		expect(user?.firstName).toBe('Newcomer')
		expect(saved.authorizations.size).toBe(1)

		await call(newcomer, { _: 'setAccountTtl', ttl: { _: 'accountTtl', days: 45 } })
		for (;;) {
			const now = decodeWorld(readFileSync(join(dir, 'cloud.json'), 'utf8'))
			const ttl = (
				now.store('password', () => ({ accounts: new Map() })) as {
					accounts: Map<number, { ttlDays: number }>
				}
			).accounts.get(user!.id)?.ttlDays
			if (ttl === 45) break
			await Bun.sleep(5)
		}
	})

	it('goes on from what it wrote when the host stops: another takes over, its clients still logged in', async () => {
		const a = backend()
		const alice = open(a, 1)
		await logIn(alice, '9996611111')
		const b = backend()
		const newcomer = open(b, 2)
		await logIn(newcomer, '9996617003', 'Kept')
		await call(newcomer, { _: 'setPassword', old_password: '', new_password: 'pw-kept', new_hint: '' })
		const me = await call<Td.user>(newcomer, { _: 'getMe' })

		await a.close()
		// The next request finds the new host: the backend that was a client.
		expect(await call<Td.user>(newcomer, { _: 'getMe' })).toMatchObject({ id: me.id, first_name: 'Kept' })
		expect(b.hosting).toBe(true)
		// Told nothing: the client never stopped being ready.
		expect(states(newcomer)).toEqual([
			'authorizationStateWaitTdlibParameters',
			'authorizationStateWaitPhoneNumber',
			'authorizationStateWaitCode',
			'authorizationStateWaitRegistration',
			'authorizationStateReady',
		])
		const state = await call<Td.passwordState>(newcomer, { _: 'getPasswordState' })
		expect(state.has_password).toBe(true)

		// And a backend started after all of that (a restarted child) finds the account.
		await b.close()
		const c = backend()
		const again = open(c, 2)
		await ready(again)
		expect(await call<Td.user>(again, { _: 'getMe' })).toMatchObject({ id: me.id })
		const reopened = open(c, 3)
		await call(reopened, { _: 'setAuthenticationPhoneNumber', phone_number: '9996617003' })
		await call(reopened, { _: 'checkAuthenticationCode', code: '11111' })
		await reopened.next(
			(u) =>
				u._ === 'updateAuthorizationState' && u.authorization_state._ === 'authorizationStateWaitPassword',
		)
		await expect(call(reopened, { _: 'checkAuthenticationPassword', password: 'wrong' })).rejects.toThrow(
			'PASSWORD_HASH_INVALID',
		)
		await call(reopened, { _: 'checkAuthenticationPassword', password: 'pw-kept' })
		await ready(reopened)
	})

	it('answers everything sent to a host that stops, then sends to the next one: nothing fails', async () => {
		const a = backend()
		const alice = open(a, 1)
		await logIn(alice, '9996611111')
		const b = backend()
		const bob = open(b, 2)
		await logIn(bob, '9996621234')
		const change = (time: number) =>
			call(bob, {
				_: 'setDefaultMessageAutoDeleteTime',
				message_auto_delete_time: { _: 'messageAutoDeleteTime', time },
			})
		// Sent before, while and after the host leaves: each answered once, by one host or the next.
		const before = Array.from({ length: 100 }, (_, i) => change(i % 2 === 0 ? 86_400 : 0))
		const stopping = a.close()
		const during = Array.from({ length: 100 }, (_, i) => change(i % 2 === 0 ? 86_400 : 0))
		expect(await Promise.all([...before, ...during])).toEqual(Array(200).fill({ _: 'ok' }))
		await stopping
		await change(604_800)
		expect(b.hosting).toBe(true)
		expect(await call(bob, { _: 'getDefaultMessageAutoDeleteTime' })).toMatchObject({ time: 604_800 })
	})

	it('asks the next host again for a getter the host held, and fails any other request it held', async () => {
		const a = backend()
		const alice = open(a, 1)
		await logIn(alice, '9996611111')
		const b = backend()
		const bob = open(b, 2)
		await logIn(bob, '9996621234')
		// Both held by the host: a pause of 30 s, and a getter answered as late (the client's latency).
		const failed = call(bob, emulatorRequest({ _: 'emulatorDelay', ms: 30_000 })).catch((err: unknown) => err)
		await call(bob, emulatorRequest({ _: 'emulatorLatency', ms: 30_000 }))
		const getter = call<Td.user>(bob, { _: 'getMe' })
		await a.close()
		const err = (await failed) as TdError
		expect(err).toBeInstanceOf(TdError)
		expect(err.message).toBe(CLOUD_LOST)
		expect(await getter).toMatchObject({ id: 1002 })
	})

	it('refuses a message that is not of its protocol, answering its id, and goes on serving', async () => {
		const a = backend()
		const alice = open(a, 1)
		await logIn(alice, '9996611111')
		const seen: unknown[] = []
		const raw = await connectSocket(cloudSocketPath(dir), () => undefined)
		raw.onMessage((m) => seen.push(m))
		raw.send({ type: 'invoke', id: 7, client: 'one', request: { _: 'getMe' } })
		raw.send({ type: 'launch', id: 8 })
		raw.send({ type: 'open', client: 1, userbotId: 9, auth: { userId: 1001, phone: '+1', key: '../../etc' } })
		raw.send({ type: 'invoke', id: 9, client: 1, request: { _: 'getMe' } })
		for (;;) {
			if (seen.length >= 3) break
			await Bun.sleep(5)
		}
		const refused = { code: 400, message: 'emulator: invalid message' }
		expect(seen).toEqual([
			{ type: 'result', id: 7, ok: false, error: refused },
			{ type: 'result', id: 8, ok: false, error: refused },
			// The open with a bad authorization was refused: there is no client 1.
			{ type: 'result', id: 9, ok: false, error: { code: 400, message: 'emulator: no such client' } },
		])
		raw.close()
		expect(await call<Td.user>(alice, { _: 'getMe' })).toMatchObject({ id: 1001 })
	})

	it('starts from the seed when its state file cannot be read, keeping the file aside', async () => {
		mkdirSync(dir, { recursive: true, mode: 0o700 })
		writeFileSync(
			join(dir, 'cloud.json'),
			'{"format":"ubg-emulator-cloud","version":1,"world":{"nodes":[["x"]]}}',
		)
		const a = backend()
		const alice = open(a, 1)
		await logIn(alice, '9996611111')
		expect(existsSync(join(dir, 'cloud.json'))).toBe(true)
		const aside = (await Array.fromAsync(new Bun.Glob('cloud.json.unreadable-*').scan(dir))).length
		expect(aside).toBe(1)
	})
})

describe('the cloud lock', () => {
	it('is held by one at a time, and free again once let go', () => {
		mkdirSync(root, { recursive: true })
		const file = join(root, 'cloud.lock')
		const first = tryLock(file)
		expect(first).toBeDefined()
		expect(tryLock(file)).toBeUndefined()
		first!.release()
		const second = tryLock(file)
		expect(second).toBeDefined()
		second!.release()
	})
})
