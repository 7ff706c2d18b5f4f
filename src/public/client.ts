/**
 * `userbot-gateway/client`: a typed client of the service for API users. `createClient({url, token})`
 * speaks the command channel (`send('pin_message', {userbot_id, chat_id, message_id})`, typed by the
 * command registry: its input and its result), and `updates(userbotId)` iterates live updates.
 * Browser-safe: the command types are imported as types only.
 */
import { treaty } from '@elysiajs/eden'
import type { CommandMap } from '../../packages/client/src/ws/types'
import {
	type Client,
	type ClientOptions,
	createClient as createWsClient,
} from '../../packages/client/src/ws/ws-client'
import type { chatAdminCommands } from '../../plugins/commands-chat-admin'
import type { membersCommands } from '../../plugins/commands-members'
import type { messagesCommands } from '../../plugins/commands-messages'
import type { securityCommands } from '../../plugins/commands-security'
import type { sessionsCommands } from '../../plugins/commands-sessions'
import type { userbotCommands } from '../../plugins/userbots/commands'
import type { RestApi } from '../app/rest-api'
import type { CommandMapOf } from '../server/commands/define'
import type { PluginDefinition } from '../server/plugin/define'

export * from '../../packages/client/src/ws/index'

type Commands<G> = G extends { commands: readonly (infer C)[] } ? C : never

/** Every command of the built-in groups: wire name → `{input, result}`. */
export type BuiltInCommands = CommandMapOf<
	| Commands<typeof messagesCommands>
	| Commands<typeof sessionsCommands>
	| Commands<typeof securityCommands>
	| Commands<typeof membersCommands>
	| Commands<typeof chatAdminCommands>
	| Commands<ReturnType<typeof userbotCommands>>
>

/** The commands of a plugin (`CommandsOf<typeof chatsPlugin>`), to add to `BuiltInCommands`. */
export type CommandsOf<P> = P extends PluginDefinition<infer C> ? CommandMapOf<C[number]> : never

/**
 * A client typed by `M` (default: the built-in commands; add a plugin's with
 * `createClient<BuiltInCommands & CommandsOf<typeof myPlugin>>(...)`).
 */
export function createClient<M extends CommandMap = BuiltInCommands>(opts: ClientOptions): Client<M> {
	return createWsClient<M>(opts)
}

export type { RestApi }

export interface RestClientOptions {
	/** A bearer access token, or a function giving the current one (called for every request). */
	token?: string | (() => string | undefined | Promise<string | undefined>)
	/** Further headers (a session cookie and `Origin` on a server; browsers send cookies themselves). */
	headers?: Record<string, string>
	fetch?: typeof fetch
}

/**
 * The REST API through Eden, typed by the documented contract (bodies and answers, errors included):
 * `const { data, error } = await rest.accounts.me.get()`.
 */
export function createRestClient(url: string, opts: RestClientOptions = {}) {
	return treaty<RestApi>(url, {
		...(opts.fetch ? { fetcher: opts.fetch } : {}),
		headers: async () => {
			const token = typeof opts.token === 'function' ? await opts.token() : opts.token
			return { ...opts.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) }
		},
	})
}
