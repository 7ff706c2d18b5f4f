import type { BackoffOptions } from './backoff'
import type { ChatUpdate } from './types'

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
