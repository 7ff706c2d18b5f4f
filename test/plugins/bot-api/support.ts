import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { uploadsDir } from '../../../src/server/commands/uploads'
import type { TestInstanceOptions } from '../../helpers'
import {
	createLoggedInUserbot,
	createMessagingFixture,
	type MessagingFixture,
	type WsClient,
} from '../../helpers-ws'

/**
 * The Bot API face's tests' one set-up (test/plugins/bot-api/*.test.ts): an app over the emulator
 * with Bob (1002), the token's userbot, in the first company; Alice (1001) a userbot of the second
 * company when a test file wants someone to write to Bob; tokens made as an owner makes them; the
 * face called as a library calls it.
 */
export const ALICE = 1001
export const BOB = 1002

export interface BotFixture {
	f: MessagingFixture
	/** A Bot API token of Bob's userbot, made by its owner. */
	token: string
	/** Alice's userbot (another company) and a socket of her owner's, when asked for. */
	alice: number
	aliceWs: WsClient
	stop(): Promise<void>
}

export interface BotFixtureOptions {
	env?: Record<string, string>
	opts?: TestInstanceOptions
	/** Also Alice's userbot and a socket to it (the second company's). */
	alice?: boolean
	/** A file `cat.jpg` in Bob's uploads folder (the commands' `upload:` references). */
	cat?: boolean
}

/** The app, Bob's token and (when asked) Alice. */
export async function createBotFixture(o: BotFixtureOptions = {}): Promise<BotFixture> {
	const f = await createMessagingFixture(o.env, o.opts)
	const alice = o.alice ? await createLoggedInUserbot(f.t, f.mallory.companyId, '9996611111') : 0
	const aliceWs = (o.alice ? await f.connect(f.mallory) : undefined) as WsClient
	const { bot_token } = await madeToken(f, f.alice.access, f.userbotId)
	if (o.cat) {
		const dir = uploadsDir(f.t.config.dataDir, f.userbotId)
		mkdirSync(dir, { recursive: true })
		writeFileSync(join(dir, 'cat.jpg'), 'jpeg bytes')
	}
	return { f, token: bot_token, alice, aliceWs, stop: () => f.stop() }
}

/** An app served, as the calls below need it (a fixture's, or one a test restarts). */
export type Served = { t: { url: string } }

/** A Bot API key of `userbotId` made by the owner whose bearer token is `access` (with more scopes). */
export async function madeToken(
	f: Served,
	access: string,
	userbotId: number,
	scopes: Record<string, unknown> = {},
) {
	const res = await fetch(`${f.t.url}/api/keys/`, {
		method: 'POST',
		headers: { authorization: `Bearer ${access}`, 'content-type': 'application/json' },
		body: JSON.stringify({ name: 'bot', bot_api: true, userbot_ids: [userbotId], ...scopes }),
	})
	if (res.status !== 201) throw new Error(`key: ${res.status} ${await res.text()}`)
	return (await res.json()) as { id: number; key: string; bot_token: string }
}

/** A Bot API answer. */
export type BotBody = {
	ok: boolean
	result?: unknown
	description?: string
	error_code?: number
	parameters?: Record<string, unknown>
}

/** A JSON body, as the libraries send one. */
export const json = (body: unknown): RequestInit => ({
	method: 'POST',
	headers: { 'content-type': 'application/json' },
	body: JSON.stringify(body),
})

/** Calls `method` with the token as `init` says (a query string beside it, if any): the status and the answer. */
export async function request(
	f: Served,
	token: string,
	method: string,
	init: RequestInit & { query?: string } = {},
) {
	const res = await fetch(`${f.t.url}/bot${token}/${method}${init.query ? `?${init.query}` : ''}`, init)
	return { status: res.status, body: (await res.json()) as BotBody }
}

/** Calls `method` with a JSON body. */
export const post = (f: Served, token: string, method: string, body: Record<string, unknown> = {}) =>
	request(f, token, method, json(body))

/** The result of a call that must succeed (else the test fails with the description). */
export async function resultOf<T = Record<string, unknown>>(
	f: Served,
	token: string,
	method: string,
	body: Record<string, unknown> = {},
): Promise<T> {
	const answer = await post(f, token, method, body)
	if (!answer.body.ok) throw new Error(`${method}: ${answer.status} ${answer.body.description}`)
	return answer.body.result as T
}

/** Bytes that are no one else's: a PNG signature and a marker. */
export const pngBytes = (marker: string) =>
	new Uint8Array([0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10, ...Buffer.from(marker)])

/** The last messages of Alice's chat with Bob, as her userbot's history has them (newest first). */
export async function aliceHistory(aliceWs: WsClient, alice: number, limit: number) {
	const history = await aliceWs.command({
		action: 'get_chat_history',
		userbot_id: alice,
		chat_id: BOB,
		limit,
	})
	return (history.payload.result as { messages: Array<{ content: Record<string, unknown> }> }).messages
}

/** A photo (`cat.jpg`, see `cat`) with `caption` sent to Alice over the WebSocket: its Bot API message id. */
export async function catSent(ws: WsClient, userbotId: number, caption: string) {
	const photo = await ws.command({
		action: 'send_message',
		userbot_id: userbotId,
		chat_id: ALICE,
		media: { upload: 'cat.jpg', media_type: 'photo', caption },
		wait_sent: true,
	})
	return Math.floor((photo.payload.result as { id: number }).id / 2 ** 20)
}
