import { eq } from 'drizzle-orm'
import { userbot, userProfile } from '../db/schema'
import { sealDatabaseKey } from '../src/common/util/key-crypto'
import type { ChatUpdate } from '../src/common/wire/envelope'
import { getTestInstance, type TestInstance, type TestInstanceOptions } from './helpers'

/** A reply as the gateway sends it: the wire module's type (docs/protocol.md#envelopes). */
export type { ChatUpdate }

export type WsAuth = { bearer: string } | { cookie: string; origin?: string } | Record<string, never>

export interface WsClient {
	ws: WebSocket
	/** Sends a frame: objects as JSON, strings and bytes as they are. */
	send(frame: unknown): void
	/** Sends a command with a fresh `request_id` (unless it has one) and waits for its reply. */
	command(frame: Record<string, unknown>, timeoutMs?: number): Promise<ChatUpdate>
	/** The next message that matched no pending command, in arrival order. */
	next(timeoutMs?: number): Promise<ChatUpdate>
	/** The first message received (before or after the call) that matches and was not taken yet. */
	take(match: (m: ChatUpdate) => boolean, timeoutMs?: number): Promise<ChatUpdate>
	/** Every message received so far. */
	received: ChatUpdate[]
	closed: Promise<{ code: number; reason: string }>
	close(): void
}

let counter = 0

/**
 * A value `JSON.stringify` writes as the bare digits given: an int64 as a Python or Go client sends
 * it, a JSON integer past 2^53 with every digit (`{"session_id": 3088675158945946166}`).
 */
export const bareInteger = (digits: string): unknown => {
	if (!/^-?\d+$/.test(digits)) throw new Error('bareInteger takes digits')
	return (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON(digits)
}

/** Opens `/ws` of a test server with a bearer token, a session cookie (+ Origin), or nothing. */
export function connectWs(baseUrl: string, auth: WsAuth = {}): Promise<WsClient> {
	const headers: Record<string, string> = {}
	if ('bearer' in auth) headers.authorization = `Bearer ${auth.bearer}`
	if ('cookie' in auth) {
		headers.cookie = auth.cookie
		if (auth.origin) headers.origin = auth.origin
	}
	const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws`, { headers } as unknown as string[])
	const waiting = new Map<string | number, (m: ChatUpdate) => void>()
	const queue: ChatUpdate[] = []
	const queueWaiters: Array<(m: ChatUpdate) => void> = []
	const received: ChatUpdate[] = []
	const taken = new Set<ChatUpdate>()
	const watchers = new Set<() => void>()
	let resolveClosed: (v: { code: number; reason: string }) => void = () => {}
	const closed = new Promise<{ code: number; reason: string }>((r) => {
		resolveClosed = r
	})
	ws.onmessage = (event) => {
		const message = JSON.parse(String(event.data)) as ChatUpdate
		received.push(message)
		for (const w of [...watchers]) w()
		const id = message.payload?.request_id
		const waiter = id === undefined ? undefined : waiting.get(id)
		if (id !== undefined && waiter) {
			waiting.delete(id)
			waiter(message)
			return
		}
		const next = queueWaiters.shift()
		if (next) next(message)
		else queue.push(message)
	}
	ws.onclose = (event) => resolveClosed({ code: event.code, reason: event.reason })
	const withTimeout = <T>(p: Promise<T>, ms: number, what: string) => {
		let timer: ReturnType<typeof setTimeout> | undefined
		const expired = new Promise<never>((_, reject) => {
			timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms)
		})
		return Promise.race([p, expired]).finally(() => clearTimeout(timer))
	}
	const client: WsClient = {
		ws,
		received,
		closed,
		send(frame) {
			ws.send(typeof frame === 'string' || frame instanceof Uint8Array ? frame : JSON.stringify(frame))
		},
		command(frame, timeoutMs = 10_000) {
			const id = (frame.request_id as string | number | undefined) ?? `r${++counter}`
			const reply = new Promise<ChatUpdate>((resolve) => waiting.set(id, resolve))
			ws.send(JSON.stringify({ ...frame, request_id: id }))
			return withTimeout(reply, timeoutMs, `reply to ${String(frame.action)}`)
		},
		next(timeoutMs = 10_000) {
			const queued = queue.shift()
			if (queued) return Promise.resolve(queued)
			return withTimeout(new Promise<ChatUpdate>((r) => queueWaiters.push(r)), timeoutMs, 'message')
		},
		take(match, timeoutMs = 10_000) {
			let check = () => {}
			const found = new Promise<ChatUpdate>((resolve) => {
				check = () => {
					const m = received.find((u) => !taken.has(u) && match(u))
					if (!m) return
					taken.add(m)
					watchers.delete(check)
					resolve(m)
				}
				watchers.add(check)
				check()
			})
			return withTimeout(found, timeoutMs, 'matching message').catch((err: Error) => {
				watchers.delete(check)
				throw new Error(`${err.message}; got ${JSON.stringify(received)}`)
			})
		},
		close: () => ws.close(),
	}
	return new Promise((resolve, reject) => {
		ws.onopen = () => resolve(client)
		ws.onerror = () => reject(new Error('WebSocket upgrade failed'))
	})
}

const json = (body: unknown) => ({
	method: 'POST',
	headers: { 'content-type': 'application/json' },
	body: JSON.stringify(body),
})

export interface TestUser {
	email: string
	password: string
	userId: number
	companyId: number
	access: string
}

/** Registers a user (a new company of their own) and takes a bearer token, through the REST API. */
export async function registerUser(t: TestInstance, email: string): Promise<TestUser> {
	const password = 'Correct-Horse-42'
	const reg = await fetch(
		`${t.url}/accounts/register/`,
		json({ email, password, first_name: 'Test', last_name: 'User' }),
	)
	if (reg.status !== 201) throw new Error(`register ${email}: ${reg.status} ${await reg.text()}`)
	const tok = await fetch(`${t.url}/accounts/token/`, json({ email, password }))
	if (tok.status !== 200) throw new Error(`token ${email}: ${tok.status} ${await tok.text()}`)
	const { access } = (await tok.json()) as { access: string }
	const [row] = await t.ctx.db.select().from(userProfile).where(eq(userProfile.email, email))
	if (!row?.companyId) throw new Error(`user ${email} has no company`)
	return { email, password, userId: row.id, companyId: row.companyId, access }
}

/** Logs in with the session cookie: the `Cookie` header value for the upgrade. */
export async function sessionCookie(t: TestInstance, user: TestUser): Promise<string> {
	const res = await fetch(`${t.url}/accounts/login/`, {
		...json({ email: user.email, password: user.password }),
		headers: { 'content-type': 'application/json', origin: t.url },
	})
	if (res.status !== 200) throw new Error(`login: ${res.status} ${await res.text()}`)
	return res.headers
		.getSetCookie()
		.map((c) => c.split(';')[0])
		.join('; ')
}

/** Inserts a userbot of the company, starts its client and logs it in on the emulator. */
export async function createLoggedInUserbot(
	t: TestInstance,
	companyId: number,
	phone = '9996621234',
): Promise<number> {
	const runtime = t.ctx.runtime
	if (!runtime) throw new Error('no runtime')
	const [row] = await t.ctx.db
		.insert(userbot)
		.values({ companyId, name: 'test', encryptionKey: Buffer.from('test-key-0123456789').toString('base64') })
		.returning({ id: userbot.id })
	const id = row!.id
	const encryptionKey = Buffer.from(`key-${id}`).toString('base64')
	// Sealed as the service seals it: a route that starts the client again (restart, log out) opens it.
	await t.ctx.db
		.update(userbot)
		.set({ encryptionKey: await sealDatabaseKey(t.ctx.config.secrets.dataKey, id, encryptionKey) })
		.where(eq(userbot.id, id))
	await runtime.startClient(id, { encryptionKey })
	// Labelled as the log-in steps are: a shard on the bus lets each label its own method only.
	await runtime.invoke(
		id,
		{ _: 'setAuthenticationPhoneNumber', phone_number: phone },
		{ label: 'userbots:phone' },
	)
	const code = phone.charAt(5).repeat(5)
	await runtime.invoke(id, { _: 'checkAuthenticationCode', code }, { label: 'userbots:code' })
	const until = Date.now() + 5000
	let registered = false
	while (runtime.authorizationState(id) !== 'authorizationStateReady') {
		if (Date.now() > until) throw new Error(`userbot ${id}: ${runtime.authorizationState(id)}`)
		// A test phone no account has yet: the emulator asks for the new account's names.
		if (!registered && runtime.authorizationState(id) === 'authorizationStateWaitRegistration') {
			registered = true
			const names = { first_name: 'Test', last_name: `Account ${phone.slice(-4)}` }
			await runtime.invoke(id, { _: 'registerUser', ...names }, { label: 'userbots:registration' })
		}
		await Bun.sleep(5)
	}
	// With the userbots plugin, the app stores the state (after asking the account's number) and only
	// then pushes it: wait until it is stored, so that the push has gone before a test's socket opens.
	// Without it nothing follows the states: nothing is stored, nothing pushed.
	const followed = [...t.commands.values()].some((c) => c.groupId === 'userbots')
	while (followed) {
		const [stored] = await t.ctx.db
			.select({ state: userbot.authorizationState })
			.from(userbot)
			.where(eq(userbot.id, id))
		if (stored?.state === 'authorizationStateReady') break
		if (Date.now() > until) throw new Error(`userbot ${id}: Ready not stored`)
		await Bun.sleep(5)
	}
	return id
}

export interface MessagingFixture {
	t: TestInstance
	alice: TestUser
	mallory: TestUser
	/** A logged-in userbot of alice's company (emulator account Bob, 9996621234). */
	userbotId: number
	connect(user?: TestUser): Promise<WsClient>
	stop(): Promise<void>
}

/** The common set-up: an app, two companies, one logged-in userbot of the first. */
export async function createMessagingFixture(
	env: Record<string, string> = {},
	opts: TestInstanceOptions = {},
): Promise<MessagingFixture> {
	const t = await getTestInstance(env, opts)
	const alice = await registerUser(t, `alice-${++counter}@example.com`)
	const mallory = await registerUser(t, `mallory-${++counter}@example.com`)
	const userbotId = await createLoggedInUserbot(t, alice.companyId)
	const sockets: WsClient[] = []
	return {
		t,
		alice,
		mallory,
		userbotId,
		async connect(user = alice) {
			const c = await connectWs(t.url, { bearer: user.access })
			sockets.push(c)
			return c
		},
		async stop() {
			for (const s of sockets) s.close()
			await t.stop()
		},
	}
}
