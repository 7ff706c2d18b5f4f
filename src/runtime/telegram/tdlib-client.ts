import { resolve } from 'node:path'
import * as tdl from 'tdl'

/**
 * A real TDLib client whose network is held before TDLib ever has its parameters
 * (docs/development.md#real-tdlib-offline).
 *
 * tdl's managed client (`tdl.createClient`) answers `authorizationStateWaitTdlibParameters` by sending
 * `setTdlibParameters` itself, and holds every request made before that until it has sent it: a
 * `setNetworkType` made at once reaches TDLib after the parameters, and when TDLib opened its
 * database quickly it had already started to connect. Here the client is tdl's bare one (tdl
 * handles no authorization state), `setNetworkType(networkTypeNone)` is its first request, and
 * `setTdlibParameters` is sent by this module when TDLib asks for it. TDLib keeps a
 * `setNetworkType` received before its parameters and applies it while it initialises, before
 * anything connects.
 */

/** What a client is opened with; `databases` turns on its SQLite database (messages, chats, files). */
export interface HeldClientOptions {
	apiId: number
	apiHash: string
	databaseDirectory: string
	filesDirectory: string
	/** base64; never logged */
	encryptionKey: string
	databases: boolean
}

export interface HeldClient {
	/** tdl's bare client: `invoke`, `on('update' | 'error' | 'close')`, `close`, `isClosed`. */
	client: tdl.Client
	/** The answer to the first request, `setNetworkType(networkTypeNone)` (after TDLib's initialisation). */
	held: Promise<unknown>
	/** The answer to `setTdlibParameters`: rejected with TDLib's error when it refused them. */
	parameters: Promise<void>
}

/**
 * The one list of the parameters every real client of the service starts with: what tdl's
 * managed client sent (tdl 8.1, TDLib 1.8.65), its defaults included (`system_version`).
 */
export function tdlibParameters(o: HeldClientOptions) {
	return {
		_: 'setTdlibParameters',
		use_test_dc: false,
		database_directory: resolve(o.databaseDirectory),
		files_directory: resolve(o.filesDirectory),
		database_encryption_key: o.encryptionKey,
		use_file_database: o.databases,
		use_chat_info_database: o.databases,
		use_message_database: o.databases,
		use_secret_chats: false,
		api_id: o.apiId,
		api_hash: o.apiHash,
		system_language_code: 'en',
		device_model: 'userbot-gateway',
		system_version: 'Unknown',
		application_version: '0.1.0',
	} as const
}

/**
 * Opens a client told `networkTypeNone` before anything else. tdl must be configured first
 * (`configureTdl`). A failed `setTdlibParameters` is emitted as the client's `error`, as tdl's
 * managed client does; the client then stays waiting for its parameters, its network held.
 */
export function createHeldClient(o: HeldClientOptions): HeldClient {
	const client = tdl.createBareClient()
	const held = client.invoke({ _: 'setNetworkType', type: { _: 'networkTypeNone' } })
	// Rejected only when the client closes first; a caller that reads it still sees that.
	held.catch(() => undefined)
	let sent = false
	let answered: (answer: Promise<unknown>) => void = () => {}
	const parameters = new Promise<unknown>((resolve) => {
		answered = resolve
	}).then(() => undefined)
	parameters.catch(() => undefined)
	const onUpdate = (u: { _: string; authorization_state?: { _: string } }) => {
		if (sent || u._ !== 'updateAuthorizationState') return
		if (u.authorization_state?._ !== 'authorizationStateWaitTdlibParameters') return
		sent = true
		client.off('update', onUpdate)
		const answer = client.invoke(tdlibParameters(o))
		answered(answer)
		answer.catch((err: unknown) => {
			if (!client.isClosed()) client.emit('error', err instanceof Error ? err : new Error(String(err)))
		})
	}
	client.on('update', onUpdate)
	return { client, held, parameters }
}
