import { CLOSE_POLICY } from '../../../../src/common/wire/close'
import { AUTHENTICATE, RESYNC, SUBSCRIBE, UNSUBSCRIBE, UPDATE } from '../../../../src/common/wire/envelope'
import { type Connection, createConnection } from './connection'
import { ClientError } from './errors'
import type { ClientOptions } from './options'
import { createRequestTable, type RequestTable, resultOf } from './requests'
import {
	createSubscriptions,
	type SubscribeOptions,
	type Subscription,
	type Subscriptions,
	subscribed,
	subscribeFrame,
	type UpdateStream,
	updateStream,
} from './subscriptions'
import type { ChatUpdate, CommandMap, ServerMessage } from './types'

/**
 * A typed client of the command channel (`/ws`), for Bun, Deno, Node and browsers: `send` matches each
 * reply by `request_id` and resolves with the result or rejects with `CommandFailed`; the connection
 * opens on first use and comes back with backoff after a drop, authenticating again and resuming every
 * subscription from the last update it saw; `updates()` is an async iterator of a userbot's updates.
 * Its parts: the socket and its reconnection (connection.ts), the requests awaiting replies
 * (requests.ts), the update streams (subscriptions.ts); this file routes frames between them.
 */

export type { ClientOptions, WebSocketConstructor } from './options'
export { channelUrl } from './socket'
export type { UpdateStream } from './subscriptions'

export interface SendOptions {
	timeoutMs?: number
	signal?: AbortSignal
}

type Frame = Record<string, unknown> & { action: string }

export interface Client<M extends CommandMap> {
	send<A extends keyof M & string>(
		action: A,
		input: M[A]['input'] & { userbot_id: number },
		opts?: SendOptions,
	): Promise<M[A]['result']>
	/** Any frame, untyped: the reply's payload, error or not. */
	request(frame: Frame, opts?: SendOptions): Promise<ChatUpdate['payload']>
	updates(userbotId: number, opts?: SubscribeOptions): UpdateStream
	/** Renews the socket's credential in band (`authenticate`): the new expiry, Unix seconds. */
	authenticate(token?: string): Promise<number>
	/** Opens the connection now (it opens on first use otherwise). */
	connect(): Promise<void>
	close(): void
	readonly connected: boolean
}

/** The client's parts, as its methods use them. */
interface Parts {
	opts: ClientOptions
	conn: Connection
	requests: RequestTable
	subs: Subscriptions
	request(frame: Frame, opts?: SendOptions): Promise<ChatUpdate['payload']>
	subscribe(sub: Subscription): Promise<void>
}

export function createClient<M extends CommandMap>(opts: ClientOptions): Client<M> {
	const requests = createRequestTable()
	const subs = createSubscriptions()
	const conn: Connection = createConnection(opts, {
		opened: () => {
			for (const sub of subs.all()) void subscribe(sub)
		},
		message: (text) => onMessage(parts, text),
		dropped: (code, reason) => onDrop(parts, code, reason),
		gaveUp: (err) => subs.endAll(err),
		renew: () => client.authenticate(),
	})
	const request = async (frame: Frame, sendOpts: SendOptions = {}) =>
		requests.send(await conn.open(), frame, sendOpts.timeoutMs ?? opts.timeoutMs ?? 35_000, sendOpts.signal)
	const subscribe = (sub: Subscription) => resubscribe(parts, sub)
	const parts: Parts = { opts, conn, requests, subs, request, subscribe }
	const client = clientOf<M>(parts)
	return client
}

function onMessage({ opts, requests, subs, subscribe }: Parts, text: string): void {
	let message: ServerMessage
	try {
		message = JSON.parse(text) as ServerMessage
	} catch {
		return
	}
	if (message.type === UPDATE || message.type === RESYNC) {
		const resync = subs.receive(message)
		if (resync) void subscribe(resync)
		return
	}
	if (requests.answer(message.payload?.request_id, message.payload)) return
	opts.onEvent?.(message)
}

/** The socket closed under the client: what waited fails; streams wait for a reconnect, or end. */
function onDrop({ opts, conn, requests, subs }: Parts, code: number, reason: string): void {
	const lost = new ClientError(
		'connection_closed',
		`the connection closed (${code}${reason ? ` ${reason}` : ''})`,
	)
	requests.failAll(lost)
	if (!conn.closed) opts.onClose?.(code, reason)
	// Revoked or expired: a fixed token will not open it again.
	const hopeless = code === CLOSE_POLICY && typeof opts.token !== 'function'
	if (conn.closed || opts.reconnect === false || hopeless) {
		subs.endAll(lost)
		return
	}
	if (subs.size > 0) conn.reconnect()
}

/** Subscribes `sub` (again), from the last seq it saw. */
async function resubscribe({ request, subs }: Parts, sub: Subscription): Promise<void> {
	try {
		const { last_seq } = resultOf(SUBSCRIBE, await request(subscribeFrame(sub))) as { last_seq: number }
		subscribed(sub, last_seq)
	} catch (err) {
		// A dropped connection resubscribes when it is back; a refusal ends the stream.
		if (err instanceof ClientError && err.reason === 'connection_closed') return
		subs.end(sub, err instanceof Error ? err : new Error(String(err)))
	}
}

function clientOf<M extends CommandMap>(parts: Parts): Client<M> {
	const { conn, requests, subs, request, subscribe } = parts
	const client: Client<M> = {
		get connected() {
			return conn.connected
		},
		async connect() {
			await conn.open()
		},
		async send(action, input, sendOpts) {
			const payload = await request({ ...(input as Record<string, unknown>), action }, sendOpts)
			return resultOf(action, payload) as M[typeof action]['result']
		},
		request,
		async authenticate(fresh) {
			const access = fresh ?? (await conn.token())
			if (!access) throw new ClientError('not_connected', 'no token to renew with')
			const payload = await request({ action: AUTHENTICATE, access })
			const { expires_at } = resultOf(AUTHENTICATE, payload) as { expires_at: number }
			conn.renewLater(access)
			return expires_at
		},
		updates(userbotId, subOpts = {}) {
			const sub = subs.add(userbotId, subOpts)
			void subscribe(sub)
			return updateStream(sub, async () => {
				subs.end(sub)
				if (client.connected) await request({ action: UNSUBSCRIBE, userbot_id: userbotId }).catch(() => {})
			})
		},
		close() {
			subs.endAll()
			requests.failAll(new ClientError('client_closed', 'the client is closed'))
			conn.close()
		},
	}
	return client
}
