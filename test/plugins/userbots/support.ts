import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getTestInstance, type TestInstance } from '../../helpers'
import { type ChatUpdate, connectWs } from '../../helpers-ws'

/** Shared steps of the userbot tests: apps that survive a restart, accounts, REST and WebSocket. */
export type Server = TestInstance

export const PASSWORD = 'Vq7#pLm2!xZr9wTb'
export const SECOND_FACTOR = { phone: '9996631111', code: '33333', password: 'secret-2fa' }
export const PLAIN_ACCOUNT = { phone: '9996621234', code: '22222' }

export const tempDir = () => mkdtempSync(join(tmpdir(), 'ubg-userbots-'))
export const removeDir = (dir: string) => rmSync(dir, { recursive: true, force: true })

/** A real app on `dataDir` (kept by `halt` and `stop`, for a restart), served on port 0. */
export const serve = (
	dataDir: string,
	env: Record<string, string> = {},
	logLines?: string[],
): Promise<Server> => getTestInstance(env, { dataDir, logLines })

export type FreshServer = Server & { dispose(): Promise<void> }

/** A server on a new data folder of its own; `dispose` stops it and deletes the folder. */
export async function serveFresh(env: Record<string, string> = {}): Promise<FreshServer> {
	const server = await getTestInstance(env)
	return { ...server, dispose: () => server.stop() }
}

let counter = 0

export interface Member {
	email: string
	access: string
	/** `fetch` against the server with this member's bearer token. */
	call(method: string, path: string, body?: unknown): Promise<Response>
}

/** Registers a new owner (of a new company) and takes a bearer token. */
export async function signUp(url: string, tag = 'owner'): Promise<Member> {
	const email = `${tag}.${Date.now().toString(36)}${(counter++).toString(36)}@example.com`
	const post = (path: string, body: unknown) =>
		fetch(url + path, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		})
	const reg = await post('/accounts/register/', {
		email,
		password: PASSWORD,
		first_name: 'Ada',
		last_name: 'Byron',
	})
	if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${await reg.text()}`)
	return memberFor(url, email)
}

export async function memberFor(url: string, email: string, password = PASSWORD): Promise<Member> {
	const tok = await fetch(`${url}/accounts/token/`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ email, password }),
	})
	if (tok.status !== 200) throw new Error(`token failed: ${tok.status} ${await tok.text()}`)
	const { access } = (await tok.json()) as { access: string }
	return {
		email,
		access,
		call: (method, path, body) =>
			fetch(url + path, {
				method,
				headers: {
					authorization: `Bearer ${access}`,
					...(body === undefined ? {} : { 'content-type': 'application/json' }),
				},
				body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
			}),
	}
}

/** Creates a userbot of `owner` over REST; resolves with its id. */
export async function createUserbot(owner: Member): Promise<number> {
	return ((await (await owner.call('POST', '/api/userbots/', {})).json()) as { id: number }).id
}

/** Logs a userbot in over REST with an emulator test account: phone, then code. */
export async function logInOverRest(owner: Member, id: number, account = PLAIN_ACCOUNT): Promise<void> {
	await owner.call('POST', `/api/userbots/${id}/phone/`, { phone_number: account.phone })
	await owner.call('POST', `/api/userbots/${id}/code/`, { code: account.code })
}

/** A reply or event; `result` typed loosely enough to read its fields in assertions. */
export type Update = ChatUpdate & { payload: { result?: Record<string, unknown> } }

/** The shared WebSocket client (`test/helpers-ws.ts`), with the calls these tests make. */
export interface Socket {
	received: Update[]
	/** The first frame (already received or to come) that matches and was not taken yet. */
	next(match: (u: Update) => boolean, timeoutMs?: number): Promise<Update>
	/** Sends a command with a fresh request_id and resolves with its reply's payload. */
	command(action: string, userbotId: number, fields?: Record<string, unknown>): Promise<Update['payload']>
	close(): void
}

export async function openSocket(url: string, access: string): Promise<Socket> {
	const ws = await connectWs(url, { bearer: access })
	return {
		received: ws.received as Update[],
		next: (match, timeoutMs) => ws.take((u) => match(u as Update), timeoutMs) as Promise<Update>,
		async command(action, userbotId, fields = {}) {
			const reply = await ws.command({ action, userbot_id: userbotId, ...fields }, 30_000)
			return (reply as Update).payload
		},
		close: () => ws.close(),
	}
}

/** Waits until `fn` returns true (polling), or fails after `timeoutMs`. */
export async function until(fn: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
	const end = Date.now() + timeoutMs
	while (!(await fn())) {
		if (Date.now() > end) throw new Error('condition not met in time')
		await Bun.sleep(25)
	}
}
