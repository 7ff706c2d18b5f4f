import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { createJournal, KEEP_MS } from '../../../plugins/bot-api/journal'
import { botApiUpdate } from '../../../plugins/bot-api/tables'
import { SEED_CHATS } from '../../../src/emulator/seed'
import { getTestInstance, type TestInstance } from '../../helpers'
import {
	connectWs,
	createLoggedInUserbot,
	registerUser,
	type TestUser,
	type WsClient,
} from '../../helpers-ws'
import { BOB, madeToken, post } from './support'

/**
 * getUpdates across a restart of the gateway (docs/bot-api.md#updates): updates that came while no
 * one polled are there after the app starts again on the same database, with the same update_ids;
 * an offset confirms them, and that too survives a restart; the numbering goes on past them although
 * the live-update sequence starts again at 1. Bob (1002) is the token's userbot; Alice (1001), of
 * another company, writes to him.
 */
/** A key webhook may reach the test's receiver on 127.0.0.1. */
const ENV = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_POLL: '20' }
let dataDir: string
let t: TestInstance
let token: string
let bob: number
let alice: number
let owner: TestUser
let other: TestUser
const sockets: WsClient[] = []

beforeAll(async () => {
	dataDir = mkdtempSync(join(tmpdir(), 'ubg-bot-api-restart-'))
	t = await getTestInstance(ENV, { dataDir })
	owner = await registerUser(t, 'bob-owner@example.com')
	other = await registerUser(t, 'alice-owner@example.com')
	bob = await createLoggedInUserbot(t, owner.companyId)
	alice = await createLoggedInUserbot(t, other.companyId, '9996611111')
	token = (await madeToken({ t }, owner.access, bob)).bot_token
})
afterAll(async () => {
	for (const s of sockets) s.close()
	await t?.halt()
	rmSync(dataDir, { recursive: true, force: true })
})

type Update = { update_id: number; message?: { text?: string } }
const call = async (method: string, body: Record<string, unknown> = {}) =>
	(await post({ t }, token, method, body)).body as { ok: boolean; result: Update[] }
const restart = async () => {
	for (const s of sockets.splice(0)) s.close()
	await t.halt()
	t = await getTestInstance(ENV, { dataDir })
}
/** Alice writes to Bob; the live-update numbers Bob's userbot gave her messages. */
async function aliceWrites(texts: string[]): Promise<number[]> {
	const aliceWs = await connectWs(t.url, { bearer: await access(other) })
	const bobWs = await connectWs(t.url, { bearer: await access(owner) })
	sockets.push(aliceWs, bobWs)
	await bobWs.command({ action: 'subscribe', userbot_id: bob, updates: ['updateNewMessage'] })
	const seqs: number[] = []
	for (const text of texts) {
		const seen = bobWs.take(
			(m) => (m as { type: string }).type === 'update' && JSON.stringify(m).includes(text),
		)
		const sent = await aliceWs.command({ action: 'send_message', userbot_id: alice, chat_id: BOB, text })
		expect(sent.payload.type).toBe('send_message')
		seqs.push(((await seen) as unknown as { seq: number }).seq)
	}
	return seqs
}
/** A bearer token of the user from the running app. */
async function access(user: TestUser) {
	const res = await fetch(`${t.url}/accounts/token/`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ email: user.email, password: user.password }),
	})
	return ((await res.json()) as { access: string }).access
}

describe('getUpdates across a restart', () => {
	it('hands out after a restart the updates that came before it, with the same update_ids', async () => {
		// The face knows of the token (its first request); nobody polls.
		expect((await call('getMe')).ok).toBe(true)
		// Bob's client learns of the private chat with Alice first.
		const [opened] = await aliceWrites(['hello Bob'])
		const seqs = await aliceWrites(['kept 1', 'kept 2'])
		await restart()
		const { result } = await call('getUpdates')
		const kept = result.filter((u) => u.message?.text?.startsWith('kept'))
		expect(kept.map((u) => [u.update_id, u.message?.text])).toEqual([
			[seqs[0], 'kept 1'],
			[seqs[1], 'kept 2'],
		])
		expect(result.map((u) => u.update_id)).toContain(opened as number)
	}, 30_000)

	it('confirms with offset, across a restart too; new updates are numbered past the kept ones', async () => {
		const before = (await call('getUpdates')).result
		const last = (before.at(-1) as Update).update_id
		expect((await call('getUpdates', { offset: last + 1 })).result).toEqual([])
		await restart()
		expect((await call('getUpdates')).result).toEqual([])
		// The live sequence started again at 1 with this app; the Bot API's numbers go on.
		const [seq] = await aliceWrites(['after restart'])
		const { result } = await call('getUpdates', { timeout: 5 })
		const after = result.find((u) => u.message?.text === 'after restart')
		expect(seq as number).toBeLessThanOrEqual(last)
		expect(after?.update_id).toBeGreaterThan(last)
	}, 30_000)

	it('prunes what every polling token confirmed, and what is older than 24 hours', async () => {
		const journal = createJournal(t.ctx)
		const rows = () => t.ctx.db.select().from(botApiUpdate).where(eq(botApiUpdate.userbotId, bob))
		const held = await rows()
		const { result } = await call('getUpdates')
		expect(held.length).toBeGreaterThan(result.length)
		await journal.prune(Date.now(), [bob])
		expect((await rows()).map((r) => r.updateId)).toEqual(result.map((u) => u.update_id))
		await journal.prune(Date.now() + KEEP_MS + 1000, [bob])
		expect(await rows()).toEqual([])
	}, 30_000)
})

describe('an edit after a restart', () => {
	it('makes a message not seen since the restart whole: its sender, and a post as edited_channel_post', async () => {
		const connect = async () => {
			const aliceWs = await connectWs(t.url, { bearer: await access(other) })
			const bobWs = await connectWs(t.url, { bearer: await access(owner) })
			sockets.push(aliceWs, bobWs)
			return { aliceWs, bobWs }
		}
		const before = await connect()
		const said = await before.aliceWs.command({
			action: 'send_message',
			userbot_id: alice,
			chat_id: BOB,
			text: 'said before',
			wait_sent: true,
		})
		const posted = await before.bobWs.command({
			action: 'send_message',
			userbot_id: bob,
			chat_id: SEED_CHATS.channel,
			text: 'posted before',
			wait_sent: true,
		})
		const idOf = (r: { payload: { result?: unknown } }) => (r.payload.result as { id: number }).id
		await restart()
		// This app never saw either message: TDLib tells it the edits alone (chat, id, new content).
		const after = await connect()
		const edit = (ws: WsClient, userbotId: number, chatId: number, id: number, text: string) =>
			ws.command({ action: 'edit_message', userbot_id: userbotId, chat_id: chatId, message_id: id, text })
		expect((await edit(after.aliceWs, alice, BOB, idOf(said), 'said after')).payload.type).toBe(
			'edit_message',
		)
		expect(
			(await edit(after.bobWs, bob, SEED_CHATS.channel, idOf(posted), 'posted after')).payload.type,
		).toBe('edit_message')
		type Edited = Update & Record<string, { text?: string } & Record<string, unknown>>
		const seen: Edited[] = []
		const end = Date.now() + 10_000
		while (!seen.some((u) => u.edited_channel_post) && Date.now() < end) {
			const { result } = await call('getUpdates', { timeout: 1 })
			seen.push(...(result as Edited[]))
			const last = result.at(-1)
			if (last) await call('getUpdates', { offset: last.update_id + 1 })
		}
		expect(seen.find((u) => u.edited_message?.text === 'said after')?.edited_message).toMatchObject({
			from: { id: 1001 },
			chat: { id: 1001, type: 'private' },
		})
		expect(seen.find((u) => u.edited_channel_post)?.edited_channel_post).toMatchObject({
			text: 'posted after',
			chat: { id: SEED_CHATS.channel, type: 'channel' },
		})
	}, 30_000)
})

describe('a key webhook across a restart', () => {
	it('is delivered to after a restart, before its token makes any request', async () => {
		const got: string[] = []
		const server = Bun.serve({
			hostname: '127.0.0.1',
			port: 0,
			async fetch(req) {
				const update = (await req.json()) as Update
				got.push(update.message?.text ?? '')
				return new Response('ok')
			},
		})
		try {
			const hooked = (await madeToken({ t }, owner.access, bob)).bot_token
			const url = `http://127.0.0.1:${server.port}/hook`
			expect((await post({ t }, hooked, 'setWebhook', { url })).body).toEqual({ ok: true, result: true })
			await restart()
			// Nothing of this token reaches the new app: its webhook alone says it is there.
			await aliceWrites(['to the hook, after the restart'])
			const end = Date.now() + 10_000
			while (!got.includes('to the hook, after the restart') && Date.now() < end) await Bun.sleep(10)
			expect(got).toContain('to the hook, after the restart')
		} finally {
			server.stop(true)
		}
	}, 30_000)
})
