import { CLOSE_POLICY } from '../wire/close'
import { AUTHENTICATE, RESYNC, SUBSCRIBE, UNSUBSCRIBE, UPDATE } from '../wire/envelope'
import { type BackoffOptions, backoffDelay } from './backoff'
import { ClientError, CommandFailed } from './errors'
import type { ChatUpdate, CommandMap, RequestId, ResyncEvent, ServerMessage, UpdateEvent } from './types'

/**
 * A typed client of the command channel (`/ws`), for Bun, Deno, Node and browsers: `send` matches each
 * reply by `request_id` and resolves with the result or rejects with `CommandFailed`; the connection
 * opens on first use and comes back with backoff after a drop, authenticating again and resuming every
 * subscription from the last update it saw; `updates()` is an async iterator of a userbot's updates.
 */

export interface ClientOptions {
	/** The server (`http://127.0.0.1:8000`) or the channel itself (`ws://127.0.0.1:8000/ws`). */
	url: string
	/**
	 * A bearer access token, or a function giving a fresh one (called at every connect, and before the
	 * current one expires, to renew the socket in band). Browsers cannot set headers on a WebSocket:
	 * there the session cookie authenticates, and this stays unset.
	 */
	token?: string | (() => string | Promise<string>)
	/** Server-side clients with a session: the `Cookie` header (with `origin`, for the CSRF check). */
	cookie?: string
	origin?: string
	/** How long `send` waits for a reply before `ClientError('timeout')` (default 35 s: past the server's 30). */
	timeoutMs?: number
	/** Reconnection after a drop (default: 250 ms doubling to 10 s, no limit); false: never. */
	reconnect?: BackoffOptions | false
	/** Events that answer no request: `authorization_state` pushes and the like. */
	onEvent?(event: ChatUpdate): void
	/**
	 * The connection closed (not by `close()`): 1001 when the server stops (the client comes back,
	 * to the same URL: another gateway behind the balancer), 1008 when the credential ended, 1013
	 * when it did not read its replies. Commands still waiting then reject with `connection_closed`;
	 * after a 1001 they were not run, and may be sent again.
	 */
	onClose?(code: number, reason: string): void
	/** Another WebSocket implementation (default: the global one). */
	WebSocket?: WebSocketConstructor
	/**
	 * Where the runtime has no global WebSocket (Node 20): loads one at the first connect. The package
	 * `@userbot-gateway/client` sets it to the `ws` package.
	 */
	loadWebSocket?: () => Promise<WebSocketConstructor>
}

/**
 * A WebSocket class: the browser's, Bun's, Deno's, Node 22's or the `ws` package's. Typed loosely so
 * that no runtime's own WebSocket types are needed to use the client.
 */
export type WebSocketConstructor = new (url: string, protocols?: string | string[]) => object

/** What the client uses of a socket (every implementation above has it). */
interface Socket {
	readonly readyState: number
	onopen: (() => void) | null
	onmessage: ((event: { data: unknown }) => void) | null
	onclose: ((event: { code: number; reason: string }) => void) | null
	onerror: (() => void) | null
	send(data: string): void
	close(): void
}

const OPEN = 1

export interface SendOptions {
	timeoutMs?: number
	signal?: AbortSignal
}

/** A userbot's live updates: iterate them; `ready` resolves once subscribed, with the last seq then. */
export interface UpdateStream extends AsyncIterableIterator<UpdateEvent | ResyncEvent> {
	readonly ready: Promise<number>
	/** Ends the subscription (the iterator finishes). */
	close(): Promise<void>
}

export interface Client<M extends CommandMap> {
	send<A extends keyof M & string>(
		action: A,
		input: M[A]['input'] & { userbot_id: number },
		opts?: SendOptions,
	): Promise<M[A]['result']>
	/** Any frame, untyped: the reply's payload, error or not. */
	request(
		frame: Record<string, unknown> & { action: string },
		opts?: SendOptions,
	): Promise<ChatUpdate['payload']>
	updates(userbotId: number, opts?: { kinds?: readonly string[]; after?: number }): UpdateStream
	/** Renews the socket's credential in band (`authenticate`): the new expiry, Unix seconds. */
	authenticate(token?: string): Promise<number>
	/** Opens the connection now (it opens on first use otherwise). */
	connect(): Promise<void>
	close(): void
	readonly connected: boolean
}

interface Pending {
	action: string
	resolve(payload: ChatUpdate['payload']): void
	reject(err: Error): void
	timer: ReturnType<typeof setTimeout>
}

interface Subscription {
	userbotId: number
	kinds?: readonly string[]
	/** The last seq seen (or the server's last when subscribed live); undefined before the first reply. */
	lastSeq?: number
	queue: Array<UpdateEvent | ResyncEvent>
	waiting: Array<(r: IteratorResult<UpdateEvent | ResyncEvent>) => void>
	ended: boolean
	failure?: Error
	ready: { promise: Promise<number>; resolve(seq: number): void; reject(err: Error): void; settled: boolean }
}

const RENEW_BEFORE_MS = 30_000

export function createClient<M extends CommandMap>(opts: ClientOptions): Client<M> {
	const url = channelUrl(opts.url)
	const pending = new Map<RequestId, Pending>()
	const subscriptions = new Map<number, Subscription>()
	let socket: Socket | null = null
	let opening: Promise<Socket> | null = null
	let closedByUser = false
	let attempt = 0
	let reconnectTimer: ReturnType<typeof setTimeout> | undefined
	let renewTimer: ReturnType<typeof setTimeout> | undefined
	let counter = 0
	let lastToken: string | undefined

	const token = async () => {
		if (opts.token === undefined) return undefined
		lastToken = typeof opts.token === 'function' ? await opts.token() : opts.token
		return lastToken
	}

	const webSocketClass = async (): Promise<WebSocketConstructor> => {
		const found = opts.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket
		if (found) return found
		if (opts.loadWebSocket) return opts.loadWebSocket()
		throw new ClientError('not_connected', 'this runtime has no WebSocket: pass one as the WebSocket option')
	}

	const open = (): Promise<Socket> => {
		if (socket && socket.readyState === OPEN) return Promise.resolve(socket)
		if (opening) return opening
		if (closedByUser) return Promise.reject(new ClientError('client_closed', 'the client is closed'))
		opening = (async () => {
			const headers: Record<string, string> = {}
			const bearer = await token()
			if (bearer) headers.authorization = `Bearer ${bearer}`
			if (opts.cookie) headers.cookie = opts.cookie
			if (opts.origin) headers.origin = opts.origin
			// Bun and Node take headers as a second argument; a browser must not be given one.
			const WS = await webSocketClass()
			const ws = (
				Object.keys(headers).length ? new WS(url, { headers } as unknown as string[]) : new WS(url)
			) as Socket
			await new Promise<void>((resolve, reject) => {
				ws.onopen = () => resolve()
				ws.onerror = () => reject(new ClientError('not_connected', `cannot open ${url}`))
				ws.onclose = () => reject(new ClientError('not_connected', `cannot open ${url}`))
			})
			attempt = 0
			socket = ws
			ws.onmessage = (event) => onMessage(String(event.data))
			ws.onclose = (event) => onClose(ws, event.code, event.reason)
			ws.onerror = () => {}
			scheduleRenewal()
			for (const sub of subscriptions.values()) void subscribe(sub)
			return ws
		})().finally(() => {
			opening = null
		})
		return opening
	}

	const onMessage = (text: string) => {
		let message: ServerMessage
		try {
			message = JSON.parse(text) as ServerMessage
		} catch {
			return
		}
		if (message.type === UPDATE || message.type === RESYNC) return onUpdate(message)
		const id = message.payload?.request_id
		const waiter = id === undefined ? undefined : pending.get(id)
		if (id !== undefined && waiter) {
			pending.delete(id)
			clearTimeout(waiter.timer)
			waiter.resolve(message.payload)
			return
		}
		opts.onEvent?.(message)
	}

	const onClose = (ws: Socket, code: number, reason: string) => {
		if (socket !== ws) return
		socket = null
		clearTimeout(renewTimer)
		const lost = new ClientError(
			'connection_closed',
			`the connection closed (${code}${reason ? ` ${reason}` : ''})`,
		)
		for (const [id, p] of pending) {
			pending.delete(id)
			clearTimeout(p.timer)
			p.reject(lost)
		}
		if (!closedByUser) opts.onClose?.(code, reason)
		// Revoked or expired: a fixed token will not open it again.
		const hopeless = code === CLOSE_POLICY && typeof opts.token !== 'function'
		if (closedByUser || opts.reconnect === false || hopeless) {
			for (const sub of subscriptions.values()) endSubscription(sub, lost)
			return
		}
		if (subscriptions.size > 0) scheduleReconnect()
	}

	const scheduleReconnect = () => {
		const backoff = opts.reconnect === false ? {} : (opts.reconnect ?? {})
		if (backoff.retries !== undefined && attempt >= backoff.retries) {
			const gave = new ClientError('not_connected', 'gave up reconnecting')
			for (const sub of subscriptions.values()) endSubscription(sub, gave)
			return
		}
		const delay = backoffDelay(attempt++, backoff)
		clearTimeout(reconnectTimer)
		reconnectTimer = setTimeout(() => {
			open().catch(() => {
				if (!closedByUser) scheduleReconnect()
			})
		}, delay)
	}

	/** In band, before the token in use expires (a token function gives the fresh one). */
	const scheduleRenewal = () => {
		clearTimeout(renewTimer)
		if (typeof opts.token !== 'function' || !lastToken) return
		const exp = jwtExpiry(lastToken)
		if (exp === undefined) return
		const wait = Math.max(1000, exp * 1000 - Date.now() - RENEW_BEFORE_MS)
		renewTimer = setTimeout(() => {
			client.authenticate().catch(() => {})
		}, wait)
	}

	const request = async (frame: Record<string, unknown> & { action: string }, sendOpts: SendOptions = {}) => {
		const ws = await open()
		const id = `c${++counter}`
		return new Promise<ChatUpdate['payload']>((resolve, reject) => {
			const ms = sendOpts.timeoutMs ?? opts.timeoutMs ?? 35_000
			const timer = setTimeout(() => {
				pending.delete(id)
				reject(new ClientError('timeout', `no reply to ${frame.action} within ${ms} ms`))
			}, ms)
			pending.set(id, { action: frame.action, resolve, reject, timer })
			sendOpts.signal?.addEventListener('abort', () => {
				if (!pending.delete(id)) return
				clearTimeout(timer)
				reject(sendOpts.signal?.reason instanceof Error ? sendOpts.signal.reason : new Error('aborted'))
			})
			ws.send(JSON.stringify({ ...frame, request_id: id }))
		})
	}

	const resultOf = (action: string, payload: ChatUpdate['payload']) => {
		if (payload.type === action) return payload.result
		throw new CommandFailed(action, payload.error ?? 'unknown error', payload.result)
	}

	// Subscriptions: one per userbot; resumed after a reconnect or a resync from the last seq seen.
	const subscribe = async (sub: Subscription) => {
		try {
			const payload = await request({
				action: SUBSCRIBE,
				userbot_id: sub.userbotId,
				...(sub.kinds ? { updates: sub.kinds } : {}),
				...(sub.lastSeq !== undefined ? { after: sub.lastSeq } : {}),
			})
			const { last_seq } = resultOf(SUBSCRIBE, payload) as { last_seq: number }
			if (sub.lastSeq === undefined) sub.lastSeq = last_seq
			if (!sub.ready.settled) {
				sub.ready.settled = true
				sub.ready.resolve(last_seq)
			}
		} catch (err) {
			// A dropped connection resubscribes when it is back; a refusal ends the stream.
			if (err instanceof ClientError && err.reason === 'connection_closed') return
			endSubscription(sub, err instanceof Error ? err : new Error(String(err)))
		}
	}

	const onUpdate = (event: UpdateEvent | ResyncEvent) => {
		const sub = subscriptions.get(event.userbot_id)
		if (!sub || sub.ended) return
		if (event.type === UPDATE) {
			// A resubscription may replay what was already seen.
			if (sub.lastSeq !== undefined && event.seq <= sub.lastSeq) return
			sub.lastSeq = event.seq
			return push(sub, event)
		}
		// The earliest the server still has is `seq`: go on from there, and say what was lost.
		sub.lastSeq = event.seq - 1
		push(sub, event)
		void subscribe(sub)
	}

	const push = (sub: Subscription, event: UpdateEvent | ResyncEvent) => {
		const waiter = sub.waiting.shift()
		if (waiter) waiter({ value: event, done: false })
		else sub.queue.push(event)
	}

	const endSubscription = (sub: Subscription, failure?: Error) => {
		if (sub.ended) return
		sub.ended = true
		sub.failure = failure
		subscriptions.delete(sub.userbotId)
		if (!sub.ready.settled) {
			sub.ready.settled = true
			sub.ready.reject(failure ?? new ClientError('client_closed', 'the subscription ended'))
		}
		for (const w of sub.waiting.splice(0)) w({ value: undefined, done: true })
	}

	const client: Client<M> = {
		get connected() {
			return socket !== null && socket.readyState === OPEN
		},
		async connect() {
			await open()
		},
		async send(action, input, sendOpts) {
			const payload = await request({ ...(input as Record<string, unknown>), action }, sendOpts)
			return resultOf(action, payload) as M[typeof action]['result']
		},
		request,
		async authenticate(fresh) {
			const access = fresh ?? (await token())
			if (!access) throw new ClientError('not_connected', 'no token to renew with')
			lastToken = access
			const payload = await request({ action: AUTHENTICATE, access })
			const { expires_at } = resultOf(AUTHENTICATE, payload) as { expires_at: number }
			scheduleRenewal()
			return expires_at
		},
		updates(userbotId, subOpts = {}) {
			if (subscriptions.has(userbotId)) throw new Error(`already subscribed to userbot ${userbotId}`)
			let resolveReady: (n: number) => void = () => {}
			let rejectReady: (e: Error) => void = () => {}
			const promise = new Promise<number>((res, rej) => {
				resolveReady = res
				rejectReady = rej
			})
			// Nobody may be awaiting `ready`: its failure also ends the iterator, which says so.
			promise.catch(() => {})
			const sub: Subscription = {
				userbotId,
				kinds: subOpts.kinds,
				lastSeq: subOpts.after,
				queue: [],
				waiting: [],
				ended: false,
				ready: { promise, resolve: resolveReady, reject: rejectReady, settled: false },
			}
			subscriptions.set(userbotId, sub)
			void subscribe(sub)
			const stream: UpdateStream = {
				ready: promise,
				[Symbol.asyncIterator]() {
					return stream
				},
				next() {
					const queued = sub.queue.shift()
					if (queued) return Promise.resolve({ value: queued, done: false })
					if (sub.ended) {
						return sub.failure
							? Promise.reject(sub.failure)
							: Promise.resolve({ value: undefined, done: true })
					}
					return new Promise((resolve) => sub.waiting.push(resolve))
				},
				async return() {
					await stream.close()
					return { value: undefined, done: true }
				},
				async close() {
					if (sub.ended) return
					endSubscription(sub)
					if (client.connected) await request({ action: UNSUBSCRIBE, userbot_id: userbotId }).catch(() => {})
				},
			}
			return stream
		},
		close() {
			closedByUser = true
			clearTimeout(reconnectTimer)
			clearTimeout(renewTimer)
			for (const sub of subscriptions.values()) endSubscription(sub)
			const closed = new ClientError('client_closed', 'the client is closed')
			for (const [id, p] of pending) {
				pending.delete(id)
				clearTimeout(p.timer)
				p.reject(closed)
			}
			socket?.close()
			socket = null
		},
	}
	return client
}

/** `http://host:port` (or a path ending in /ws) → the `ws://.../ws` address. */
export function channelUrl(base: string): string {
	const u = new URL(base)
	if (u.protocol === 'http:') u.protocol = 'ws:'
	else if (u.protocol === 'https:') u.protocol = 'wss:'
	if (!u.pathname.endsWith('/ws')) u.pathname = `${u.pathname.replace(/\/+$/, '')}/ws`
	return u.toString()
}

/** The `exp` claim of a JWT, without checking it (the server does). */
function jwtExpiry(jwt: string): number | undefined {
	const part = jwt.split('.')[1]
	if (!part) return undefined
	try {
		const json = atob(part.replace(/-/g, '+').replace(/_/g, '/'))
		const exp = (JSON.parse(json) as { exp?: unknown }).exp
		return typeof exp === 'number' ? exp : undefined
	} catch {
		return undefined
	}
}
