import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ShardedRuntime } from '../../src/runtime/supervisor/sharded'
import { getTestInstance, type TestInstance } from '../helpers'
import { connectWs, registerUser, type TestUser, type WsClient } from '../helpers-ws'

/**
 * Issue 21, the emulated cloud that forgot: with two supervisor children (real processes) on one
 * data folder, the emulator is one cloud kept in `DATA_DIR/tdlib/emulator`. An account that signed
 * up is still Ready after its child is killed and after the whole server restarts, its 2FA password
 * with it; userbots on the two children talk to each other, live.
 */
const ALICE = { phone: '9996611111', id: 1001 }
const BOB = { phone: '9996621234', id: 1002 }
const SIGNED_UP = '9996617101'
const PASSWORD = 'set before the restart'

describe('the emulated cloud across supervisor children (SUPERVISORS=2)', () => {
	const dataDir = mkdtempSync(join(tmpdir(), 'ubg-cloud-sup-'))
	let t: TestInstance
	let user: TestUser
	let signedUp: number
	const sockets: WsClient[] = []

	const start = () => getTestInstance({ SUPERVISORS: '2' }, { dataDir })
	const sharded = () => t.ctx.runtime as ShardedRuntime
	const connect = async () => {
		const c = await connectWs(t.url, { bearer: user.access })
		sockets.push(c)
		return c
	}
	const rest = async (path: string, body?: unknown) => {
		const res = await fetch(`${t.url}/api/userbots/${path}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', authorization: `Bearer ${user.access}` },
			body: JSON.stringify(body ?? {}),
		})
		const json = (await res.json()) as { id: number; authorization_state: string }
		if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`)
		return json
	}
	/** A new userbot's id: its client started on the child rendezvous hashing gives it. */
	const create = async () => (await rest('', { name: 'bot' })).id
	const logIn = async (id: number, phone: string) => {
		await rest(`${id}/phone/`, { phone_number: phone })
		return (await rest(`${id}/code/`, { code: phone.charAt(5).repeat(5) })).authorization_state
	}
	/** The state the runtime holds once the client has started again and settled. */
	const settled = async (id: number) => {
		for (;;) {
			const state = t.ctx.runtime?.authorizationState(id)
			if (state && state !== 'authorizationStateWaitTdlibParameters') return state
			await Bun.sleep(20)
		}
	}

	beforeAll(async () => {
		t = await start()
		user = await registerUser(t, `cloud-${Date.now()}@example.com`)
	})
	afterAll(async () => {
		for (const s of sockets) s.close()
		await t?.halt()
		rmSync(dataDir, { recursive: true, force: true })
	})

	it('keeps an account that signed up through REST Ready after its supervisor child is killed', async () => {
		// The first client of the deployment: its child takes the cloud's lock and hosts it.
		signedUp = await create()
		await rest(`${signedUp}/phone/`, { phone_number: SIGNED_UP })
		expect((await rest(`${signedUp}/code/`, { code: '11111' })).authorization_state).toBe(
			'authorizationStateWaitRegistration',
		)
		expect(
			(await rest(`${signedUp}/register/`, { first_name: 'Signed', last_name: 'Up' })).authorization_state,
		).toBe('authorizationStateReady')

		const child = sharded().shardOf(signedUp).runtime
		const { restarts } = child.health()
		process.kill(child.pid as number, 'SIGKILL')
		while (child.health().restarts === restarts || !child.health().up) await Bun.sleep(20)
		// Started again from its folder, on a cloud that still has the account.
		while (child.authorizationState(signedUp) === undefined) await Bun.sleep(20)
		expect(await settled(signedUp)).toBe('authorizationStateReady')
		const ws = await connect()
		const reply = await ws.command({ action: 'get_password_state', userbot_id: signedUp })
		expect(reply.payload.error).toBeUndefined()
	})

	it('lets two userbots on the two children send each other messages, each seen live', async () => {
		const ids: number[] = []
		while (new Set(ids.map((id) => sharded().shardOf(id).name)).size < 2) ids.push(await create())
		const a = ids[0] as number
		const b = ids.find((id) => sharded().shardOf(id) !== sharded().shardOf(a)) as number
		expect(await logIn(a, ALICE.phone)).toBe('authorizationStateReady')
		expect(await logIn(b, BOB.phone)).toBe('authorizationStateReady')

		const ws = await connect()
		for (const id of [a, b]) {
			const sub = await ws.command({ action: 'subscribe', userbot_id: id, updates: ['updateNewMessage'] })
			expect(sub.payload.error).toBeUndefined()
		}
		const arrives = (to: number, text: string) =>
			ws.take((m) => {
				const e = m as unknown as {
					type: string
					userbot_id: number
					update?: { _: string; message?: { content?: { text?: { text?: string } } } }
				}
				return e.type === 'update' && e.userbot_id === to && e.update?.message?.content?.text?.text === text
			}, 10_000)
		const toBob = arrives(b, 'to Bob, on the other child')
		const sent = await ws.command({
			action: 'send_message',
			userbot_id: a,
			chat_id: BOB.id,
			text: 'to Bob, on the other child',
		})
		expect(sent.payload.error).toBeUndefined()
		const got = (await toBob) as unknown as { update: { message: { chat_id: number } } }
		expect(got.update.message.chat_id).toBe(ALICE.id)

		const toAlice = arrives(a, 'to Alice, back')
		await ws.command({ action: 'send_message', userbot_id: b, chat_id: ALICE.id, text: 'to Alice, back' })
		const back = (await toAlice) as unknown as { update: { message: { chat_id: number } } }
		expect(back.update.message.chat_id).toBe(BOB.id)
	})

	it('keeps the account and its 2FA password after the whole server restarts on the same DATA_DIR', async () => {
		const before = await connect()
		const set = await before.command({
			action: 'change_2fa_password',
			userbot_id: signedUp,
			current_password: 'none set yet',
			new_password: PASSWORD,
		})
		expect(set.payload.error).toBeUndefined()
		before.close()

		await t.halt()
		t = await start()
		expect(await settled(signedUp)).toBe('authorizationStateReady')
		const after = await connect()
		const verified = await after.command({
			action: 'verify_2fa_password',
			userbot_id: signedUp,
			password: PASSWORD,
		})
		expect(verified.payload).toMatchObject({ result: { verified: true } })
		const wrong = await after.command({
			action: 'verify_2fa_password',
			userbot_id: signedUp,
			password: 'other',
		})
		expect(wrong.payload.error).toBe('PASSWORD_HASH_INVALID')
	})
})
