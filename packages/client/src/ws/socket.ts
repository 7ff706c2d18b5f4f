import { ClientError } from './errors'
import type { ClientOptions, WebSocketConstructor } from './options'

/** What the client uses of a socket (every implementation `WebSocketConstructor` names has it). */
export interface Socket {
	readonly readyState: number
	onopen: (() => void) | null
	onmessage: ((event: { data: unknown }) => void) | null
	onclose: ((event: { code: number; reason: string }) => void) | null
	onerror: (() => void) | null
	send(data: string): void
	close(): void
}

export const OPEN = 1

export const isOpen = (socket: Socket | null): socket is Socket =>
	socket !== null && socket.readyState === OPEN

/** `http://host:port` (or a path ending in /ws) → the `ws://.../ws` address. */
export function channelUrl(base: string): string {
	const u = new URL(base)
	if (u.protocol === 'http:') u.protocol = 'ws:'
	else if (u.protocol === 'https:') u.protocol = 'wss:'
	if (!u.pathname.endsWith('/ws')) u.pathname = `${u.pathname.replace(/\/+$/, '')}/ws`
	return u.toString()
}

async function webSocketClass(opts: ClientOptions): Promise<WebSocketConstructor> {
	const found = opts.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket
	if (found) return found
	if (opts.loadWebSocket) return opts.loadWebSocket()
	throw new ClientError('not_connected', 'this runtime has no WebSocket: pass one as the WebSocket option')
}

/** A socket to `url`, once it is open: with the bearer token, cookie and origin the options give. */
export async function openSocket(
	opts: ClientOptions,
	url: string,
	bearer: string | undefined,
): Promise<Socket> {
	const headers: Record<string, string> = {}
	if (bearer) headers.authorization = `Bearer ${bearer}`
	if (opts.cookie) headers.cookie = opts.cookie
	if (opts.origin) headers.origin = opts.origin
	// Bun and Node take headers as a second argument; a browser must not be given one.
	const WS = await webSocketClass(opts)
	const ws = (
		Object.keys(headers).length ? new WS(url, { headers } as unknown as string[]) : new WS(url)
	) as Socket
	await new Promise<void>((resolve, reject) => {
		ws.onopen = () => resolve()
		ws.onerror = () => reject(new ClientError('not_connected', `cannot open ${url}`))
		ws.onclose = () => reject(new ClientError('not_connected', `cannot open ${url}`))
	})
	return ws
}
