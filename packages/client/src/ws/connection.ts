import { backoffDelay } from './backoff'
import { ClientError } from './errors'
import type { ClientOptions } from './options'
import { createRenewal } from './renewal'
import { channelUrl, isOpen, openSocket, type Socket } from './socket'

/** What the connection tells the client about its socket. */
export interface ConnectionEvents {
	/** A socket opened (first or again): subscriptions resume on it. */
	opened(): void
	message(text: string): void
	/** The socket in use closed, by the server or the network (never by `close()`'s own socket). */
	dropped(code: number, reason: string): void
	/** Reconnection reached its retries. */
	gaveUp(err: ClientError): void
	/** The token in use is about to expire: authenticate in band. */
	renew(): Promise<unknown>
}

/**
 * The client's one socket: opened on demand (one attempt at a time), reopened with backoff when asked,
 * its credential renewed before it expires, and closed for good by `close()`.
 */
export interface Connection {
	open(): Promise<Socket>
	readonly connected: boolean
	/** `close()` was called: nothing opens again. */
	readonly closed: boolean
	/** A fresh token from the options (undefined without one), remembered as the one in use. */
	token(): Promise<string | undefined>
	/** `token` is in use now: its renewal is planned (only when the options give a token function). */
	renewLater(token: string): void
	/** Opens again after the backoff's delay, until it opens or the retries run out. */
	reconnect(): void
	close(): void
}

export function createConnection(opts: ClientOptions, events: ConnectionEvents): Connection {
	const url = channelUrl(opts.url)
	let socket: Socket | null = null
	let opening: Promise<Socket> | null = null
	let closed = false
	let attempt = 0
	let reconnectTimer: ReturnType<typeof setTimeout> | undefined
	let lastToken: string | undefined
	const renewal = createRenewal(() => events.renew())
	const renewable = typeof opts.token === 'function'

	const adopt = (ws: Socket) => {
		attempt = 0
		socket = ws
		ws.onmessage = (event) => events.message(String(event.data))
		ws.onclose = (event) => {
			if (socket !== ws) return
			socket = null
			renewal.cancel()
			events.dropped(event.code, event.reason)
		}
		ws.onerror = () => {}
		if (renewable) renewal.schedule(lastToken)
		events.opened()
		return ws
	}

	const connection: Connection = {
		open() {
			if (isOpen(socket)) return Promise.resolve(socket)
			if (opening) return opening
			if (closed) return Promise.reject(new ClientError('client_closed', 'the client is closed'))
			opening = (async () => adopt(await openSocket(opts, url, await connection.token())))().finally(() => {
				opening = null
			})
			return opening
		},
		get connected() {
			return isOpen(socket)
		},
		get closed() {
			return closed
		},
		async token() {
			if (opts.token === undefined) return undefined
			lastToken = typeof opts.token === 'function' ? await opts.token() : opts.token
			return lastToken
		},
		renewLater(token) {
			lastToken = token
			if (renewable) renewal.schedule(token)
		},
		reconnect() {
			const backoff = opts.reconnect === false ? {} : (opts.reconnect ?? {})
			if (backoff.retries !== undefined && attempt >= backoff.retries) {
				events.gaveUp(new ClientError('not_connected', 'gave up reconnecting'))
				return
			}
			const delay = backoffDelay(attempt++, backoff)
			clearTimeout(reconnectTimer)
			reconnectTimer = setTimeout(() => {
				connection.open().catch(() => {
					if (!closed) connection.reconnect()
				})
			}, delay)
		},
		close() {
			closed = true
			clearTimeout(reconnectTimer)
			renewal.cancel()
			socket?.close()
			socket = null
		},
	}
	return connection
}
