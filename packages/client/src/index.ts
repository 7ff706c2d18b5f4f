/**
 * `@userbot-gateway/client`: the service from TypeScript or JavaScript, in Node 20+, Deno, Bun and
 * browsers, with no dependency a consumer adds. `createClient({url, token})` speaks the command
 * channel, typed by the command catalog; `createRestClient(url, {token})` speaks REST, typed by the
 * OpenAPI document. Both are generated from the documents the server serves (scripts/generate.ts).
 */

import type { BuiltInCommands } from './generated/commands'
import type { CommandMap } from './ws/types'
import {
	type Client,
	type ClientOptions,
	createClient as createWsClient,
	type WebSocketConstructor,
} from './ws/ws-client'

export type { BuiltInCommands } from './generated/commands'
export type { RestApi, Schemas } from './generated/rest-api'
export { createRestClient, type RestClientOptions } from './rest'
export type { RestGet, RestOptions, RestResult, RestSend, RestSendOptional } from './rest-types'
export * from './ws/index'

/**
 * Node 20 has no global WebSocket: there the `ws` package (an optional dependency of this one, which
 * npm installs with it) is loaded at the first connect. The name is held in a variable so that no
 * bundler for a browser, where the global one is used, tries to include it.
 */
const loadWs = async (): Promise<WebSocketConstructor> => {
	const name = 'ws'
	try {
		const mod = (await import(/* webpackIgnore: true */ /* @vite-ignore */ name)) as {
			WebSocket?: WebSocketConstructor
			default?: WebSocketConstructor
		}
		const found = mod.WebSocket ?? mod.default
		if (found) return found
	} catch {
		// Reported below, in our words.
	}
	throw new Error('this runtime has no WebSocket and the ws package is not installed: npm install ws')
}

/**
 * A client of the command channel, typed by `M` (default: every command of the catalog; a plugin's
 * commands are added with `createClient<BuiltInCommands & MyCommands>(...)`).
 */
export function createClient<M extends CommandMap = BuiltInCommands>(opts: ClientOptions): Client<M> {
	return createWsClient<M>({ loadWebSocket: loadWs, ...opts })
}
