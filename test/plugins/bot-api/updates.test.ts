import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { emulatorRequest } from '../../../src/emulator'
import { SEED_CHATS } from '../../../src/emulator/seed'
import type { MessagingFixture, WsClient } from '../../helpers-ws'
import { ALICE, BOB, createBotFixture, madeToken, post } from './support'

/**
 * The Bot API face's updates (docs/bot-api.md#updates) over the emulator: the kinds, numbered by
 * the userbot's live-update sequence, `allowed_updates` remembered per token, the account's sends
 * from its other devices delivered and the face's own left out unless the token asks for them.
 * Bob (1002) is the token's userbot; Alice (1001), of another company, writes to him.
 */
const EVE = 1005
const DAVE = 1004
let f: MessagingFixture
let alice: number
let aliceWs: WsClient
let bobWs: WsClient
beforeAll(async () => {
	;({ f, alice, aliceWs } = await createBotFixture({ alice: true }))
	bobWs = await f.connect(f.alice)
	// Bob's client learns of the private chat with Alice (as TDLib needs it before writing there).
	await aliceWs.command({ action: 'send_message', userbot_id: alice, chat_id: BOB, text: 'hello Bob' })
})
afterAll(() => f.stop())

/** A new token whose getUpdates starts after everything the userbot had so far. */
async function newToken() {
	const token = await newKey()
	const { body } = await call(token, 'getUpdates', { offset: -1 })
	const last = (body.result as Update[]).at(-1)
	if (last) await call(token, 'getUpdates', { offset: last.update_id + 1 })
	return token
}

const newKey = async () => (await madeToken(f, f.alice.access, f.userbotId)).bot_token

type Update = { update_id: number } & Record<string, Record<string, unknown>>
const call = (token: string, method: string, body: Record<string, unknown> = {}) =>
	post(f, token, method, body)

/**
 * The token's updates until `done` says they are all there (each getUpdates long polls: it answers
 * as soon as an update comes), confirming each batch as a library does.
 */
async function updatesUntil(
	token: string,
	done: (all: Update[]) => boolean,
	params: Record<string, unknown> = {},
) {
	const all: Update[] = []
	let offset: number | undefined
	const until = Date.now() + 10_000
	while (!done(all) && Date.now() < until) {
		const { body } = await call(token, 'getUpdates', { timeout: 1, ...params, ...(offset ? { offset } : {}) })
		const batch = body.result as Update[]
		all.push(...batch)
		if (batch.length > 0) offset = (batch.at(-1) as Update).update_id + 1
	}
	// What came after is confirmed too, so the next test starts from nothing.
	if (offset) await call(token, 'getUpdates', { offset })
	return all
}
const texts = (all: Update[], kind = 'message') =>
	all.flatMap((u) => (u[kind] ? [String((u[kind] as { text?: unknown }).text)] : []))
const hasText = (kind: string, text: string) => (all: Update[]) => texts(all, kind).includes(text)

describe('getUpdates', () => {
	it("numbers each update by the userbot's live-update sequence, as a WebSocket subscription sees it", async () => {
		const token = await newToken()
		const sub = await bobWs.command({
			action: 'subscribe',
			userbot_id: f.userbotId,
			updates: ['updateNewMessage'],
		})
		expect(sub.payload.type).toBe('subscribe')
		const seen = bobWs.take(
			(m) => (m as { type: string }).type === 'update' && JSON.stringify(m).includes('numbered'),
			10_000,
		)
		await aliceWs.command({ action: 'send_message', userbot_id: alice, chat_id: BOB, text: 'numbered' })
		const pushed = (await seen) as unknown as { seq: number }
		const all = await updatesUntil(token, hasText('message', 'numbered'))
		const update = all.find((u) => u.message?.text === 'numbered')
		expect(update?.update_id).toBe(pushed.seq)
		await bobWs.command({ action: 'unsubscribe', userbot_id: f.userbotId })
	}, 20_000)

	it('delivers edited_message with the new text when Alice edits her message', async () => {
		const token = await newToken()
		const sent = await aliceWs.command({
			action: 'send_message',
			userbot_id: alice,
			chat_id: BOB,
			text: 'v1',
			wait_sent: true,
		})
		const id = (sent.payload.result as { id: number }).id
		await updatesUntil(token, hasText('message', 'v1'))
		await aliceWs.command({
			action: 'edit_message',
			userbot_id: alice,
			chat_id: BOB,
			message_id: id,
			text: 'v2',
		})
		const all = await updatesUntil(token, hasText('edited_message', 'v2'))
		const edited = all.find((u) => u.edited_message)?.edited_message as Record<string, unknown>
		expect(edited).toMatchObject({
			message_id: id / 2 ** 20,
			text: 'v2',
			chat: { id: ALICE, type: 'private' },
			from: { id: ALICE },
		})
		expect(typeof edited.edit_date).toBe('number')
	}, 20_000)

	it("delivers the account's message from its other devices, leaves out the face's own unless include_own_sends", async () => {
		const token = await newToken()
		const viaFace = await call(token, 'sendMessage', { chat_id: ALICE, text: 'sent by the face' })
		expect(viaFace.status).toBe(200)
		// A copy and a forward answer only MessageIds: what they sent is the face's own all the same.
		const sentId = (viaFace.body.result as { message_id: number }).message_id
		const from = { chat_id: ALICE, from_chat_id: ALICE }
		expect((await call(token, 'copyMessage', { ...from, message_id: sentId })).status).toBe(200)
		expect((await call(token, 'copyMessages', { ...from, message_ids: [sentId] })).status).toBe(200)
		expect((await call(token, 'forwardMessages', { ...from, message_ids: [sentId] })).status).toBe(200)
		await f.t.ctx.runtime?.invoke(
			f.userbotId,
			emulatorRequest({ _: 'emulatorSendFromOtherDevice', chat_id: ALICE, text: 'from my phone' }),
			{ label: 'test' },
		)
		const all = await updatesUntil(token, hasText('message', 'from my phone'))
		expect(texts(all)).toEqual(['from my phone'])
		expect(all[0]?.message).toMatchObject({ from: { id: BOB }, chat: { id: ALICE } })
		// Asked for, the face's own sends come too (remembered for the token until changed).
		await call(token, 'getUpdates', { include_own_sends: true })
		await call(token, 'sendMessage', { chat_id: ALICE, text: 'echoed back' })
		const own = await updatesUntil(token, hasText('message', 'echoed back'))
		expect(texts(own)).toEqual(['echoed back'])
		await call(token, 'getUpdates', { include_own_sends: false })
	}, 20_000)

	it('keeps allowed_updates per token until changed; an empty list is the default again', async () => {
		const token = await newToken()
		const other = await newToken()
		await call(token, 'getUpdates', { allowed_updates: ['edited_message'] })
		const sent = await aliceWs.command({
			action: 'send_message',
			userbot_id: alice,
			chat_id: BOB,
			text: 'w1',
			wait_sent: true,
		})
		const id = (sent.payload.result as { id: number }).id
		await aliceWs.command({
			action: 'edit_message',
			userbot_id: alice,
			chat_id: BOB,
			message_id: id,
			text: 'w2',
		})
		// Not named again: still only edits for this token; the other token has its own default.
		const edits = await updatesUntil(token, hasText('edited_message', 'w2'))
		expect(Object.keys(edits[0] ?? {}).sort()).toEqual(['edited_message', 'update_id'])
		expect(edits.every((u) => !u.message)).toBe(true)
		const both = await updatesUntil(other, hasText('edited_message', 'w2'))
		expect(texts(both)).toContain('w1')
		await call(token, 'getUpdates', { allowed_updates: [] })
		await aliceWs.command({ action: 'send_message', userbot_id: alice, chat_id: BOB, text: 'w3' })
		expect(texts(await updatesUntil(token, hasText('message', 'w3')))).toEqual(['w3'])
		expect((await call(token, 'getUpdates', { allowed_updates: 'not json' })).body).toEqual({
			ok: false,
			error_code: 400,
			description: "Bad Request: can't parse allowed_updates JSON array",
		})
	}, 20_000)

	it('delivers a post in a channel as channel_post, its chat of type channel', async () => {
		const token = await newToken()
		await f.t.ctx.runtime?.invoke(
			f.userbotId,
			emulatorRequest({ _: 'emulatorSendFromOtherDevice', chat_id: SEED_CHATS.channel, text: 'news' }),
			{ label: 'test' },
		)
		const all = await updatesUntil(token, hasText('channel_post', 'news'))
		expect(all.find((u) => u.channel_post)?.channel_post).toMatchObject({
			text: 'news',
			chat: { id: SEED_CHATS.channel, type: 'channel' },
		})
		expect(texts(all)).toEqual([])
	}, 20_000)

	it("delivers chat_member (when allowed) for another member's change and my_chat_member for the account's own", async () => {
		const token = await newToken()
		const oneByOne = await newToken()
		const kinds = ['message', 'chat_member', 'my_chat_member']
		await call(token, 'getUpdates', { allowed_updates: kinds })
		await call(oneByOne, 'getUpdates', { allowed_updates: kinds })
		const remove = {
			action: 'remove_chat_member',
			userbot_id: alice,
			chat_id: SEED_CHATS.supergroup,
			user_id: EVE,
		}
		expect((await aliceWs.command(remove)).payload.type).toBe('remove_chat_member')
		const removed = await updatesUntil(token, (all) => all.some((u) => u.chat_member))
		expect(removed.find((u) => u.chat_member)?.chat_member).toMatchObject({
			chat: { id: SEED_CHATS.supergroup, type: 'supergroup' },
			from: { id: ALICE },
			old_chat_member: { status: 'member', user: { id: EVE } },
			new_chat_member: { status: 'kicked', user: { id: EVE } },
		})
		// Without chat_member in allowed_updates (the default), another member's change does not come.
		const byDefault = await newToken()
		const add = { ...remove, action: 'add_chat_member', user_id: DAVE }
		expect((await aliceWs.command(add)).payload.type).toBe('add_chat_member')
		const added = await updatesUntil(token, (all) => all.some((u) => u.chat_member))
		expect(added.find((u) => u.chat_member)?.chat_member).toMatchObject({
			old_chat_member: { status: 'left', user: { id: DAVE } },
			new_chat_member: { status: 'member', user: { id: DAVE } },
		})
		// Each service message and its member's change are two Updates, each with its own update_id:
		// read one at a time, the offset after a message does not confirm its change unread.
		const single = await updatesUntil(oneByOne, (all) => all.filter((u) => u.chat_member).length === 2, {
			limit: 1,
		})
		const kindsRead = single.map((u) => Object.keys(u).find((k) => k !== 'update_id'))
		expect(kindsRead).toEqual(['message', 'chat_member', 'message', 'chat_member'])
		const ids = single.map((u) => u.update_id)
		expect(new Set(ids).size).toBe(4)
		const removeBob = {
			action: 'remove_chat_member',
			userbot_id: alice,
			chat_id: SEED_CHATS.basicGroup,
			user_id: BOB,
		}
		expect((await aliceWs.command(removeBob)).payload.type).toBe('remove_chat_member')
		const mine = await updatesUntil(byDefault, (all) => all.some((u) => u.my_chat_member))
		expect(mine.some((u) => u.chat_member)).toBe(false)
		expect(mine.find((u) => u.my_chat_member)?.my_chat_member).toMatchObject({
			chat: { id: SEED_CHATS.basicGroup, type: 'group' },
			new_chat_member: { status: 'kicked', user: { id: BOB } },
		})
	}, 20_000)
})
