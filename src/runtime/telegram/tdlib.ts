import { getTdjson } from 'prebuilt-tdlib'
import * as tdl from 'tdl'
import { forgetDatabase, hasDatabase, withLazyDatabase } from './lazy-database'
import { prepareNetwork } from './proxy'
import { createHeldClient } from './tdlib-client'
import { anchorClientGroups } from './tdlib-groups'
import type { Backend, BackendClient, ClientOptions } from './types'
import { TdError, type TdRequest, type TdUpdate } from './types'

/**
 * Real TDLib through tdl and prebuilt-tdlib. Each client is opened by `createHeldClient`
 * (tdlib-client.ts: the network held before TDLib has its parameters); this layer turns tdl's
 * `TDLibError` (whose message is not enumerable) into `TdError`.
 */
let configured = false

/**
 * tdl's `configure` may run once per process, before its first client: every user goes through here.
 * `tdjson` is the library to load: prebuilt-tdlib's unless a compiled binary gives its copy (tdjson.ts).
 */
export function configureTdl(tdjson: string = getTdjson()): void {
	if (configured) return
	tdl.configure({ tdjson, verbosityLevel: 0 })
	configured = true
}

/** Real TDLib's verdict on one request: its JSON parser's refusal, or parsed. */
export type ParseVerdict = 'parsed' | { refused: string }

export interface ParseOnlyClient {
	/**
	 * TDLib's verdict on each request, in order. Everything is sent at once, then one request TDLib
	 * answers before initialisation: TDLib answers in order (a request its parser refuses becomes an
	 * error answered in turn), so once that one is back, every request still unanswered is one TDLib
	 * parsed and queued until initialisation, which never comes.
	 */
	judge(requests: readonly object[]): Promise<ParseVerdict[]>
	close(): Promise<void>
}

const PARSE_FAILED_PREFIX = 'Failed to parse JSON object as TDLib request: '

/**
 * A bare TDLib client that never receives its parameters: it parses every request (refusing a
 * malformed one with `400 Failed to parse JSON object as TDLib request: ...`) and runs none, and
 * without parameters it never goes on the network. It is told `networkTypeNone` first all the same.
 * The schema generator, the conformance judge and the emulator's parity test use it.
 */
export function createParseOnlyClient(): ParseOnlyClient {
	configureTdl()
	// Its close must not tear TDLib's client group down (tdlib-groups.ts).
	anchorClientGroups(tdl.createBareClient)
	const client = tdl.createBareClient()
	void client.invoke({ _: 'setNetworkType', type: { _: 'networkTypeNone' } }).catch(() => undefined)
	return {
		async judge(requests) {
			const verdicts: Array<ParseVerdict | undefined> = requests.map(() => undefined)
			requests.forEach((request, i) => {
				client.invoke(request as Parameters<typeof client.invoke>[0]).then(
					() => {
						verdicts[i] = 'parsed'
					},
					(err: unknown) => {
						const message = err instanceof Error ? err.message : String(err)
						verdicts[i] = message.startsWith(PARSE_FAILED_PREFIX) ? { refused: message } : 'parsed'
					},
				)
			})
			await client.invoke({ _: 'getAuthorizationState' })
			// Let the answers that came before it settle their promises.
			await new Promise((resolve) => setImmediate(resolve))
			return verdicts.map((v) => v ?? 'parsed')
		},
		close: () => client.close().catch(() => undefined),
	}
}

function toTdError(err: unknown): Error {
	if (err instanceof tdl.TDLibError) return new TdError(err.code, err.message)
	return err instanceof Error ? err : new Error(String(err))
}

interface TdlibOptions {
	apiId: number
	apiHash: string
	offline: boolean
	tdjson?: string
}

export function createTdlibBackend(opts: TdlibOptions): Backend {
	configureTdl(opts.tdjson)
	// Before any client: no client's close ever tears one of TDLib's client groups down (tdlib-groups.ts).
	anchorClientGroups(tdl.createBareClient)
	return {
		name: 'tdlib',
		createClient(_userbotId: number, c: ClientOptions): BackendClient {
			// Without its SQLite database until it has logged in (lazy-database.ts).
			return withLazyDatabase(
				(databases) => openClient(opts, c, databases),
				hasDatabase(c.databaseDirectory),
				() => forgetDatabase(c.databaseDirectory),
			)
		},
	}
}

/** One TDLib client; `databases` turns on its SQLite database (messages, chats, files). */
function openClient(opts: TdlibOptions, c: ClientOptions, databases: boolean): BackendClient {
	// The network is held (`networkTypeNone`) before TDLib has its parameters (tdlib-client.ts),
	// until the client's proxy (if any) is enabled, and for good when offline (src/runtime/telegram/proxy.ts).
	const { client, held, parameters } = createHeldClient({
		apiId: opts.apiId,
		apiHash: opts.apiHash,
		databaseDirectory: c.databaseDirectory,
		filesDirectory: c.filesDirectory,
		encryptionKey: c.encryptionKey,
		databases,
	})
	const errors: Array<(e: Error) => void> = []
	client.on('error', (e) => {
		for (const l of errors) l(e)
	})
	const network = held.then(() =>
		prepareNetwork(
			(request) => client.invoke(request as Parameters<typeof client.invoke>[0]),
			c.proxy,
			!opts.offline,
		),
	)
	const ready = network.then(
		() => undefined,
		() => undefined,
	)
	const settled = network.catch((err: unknown) => {
		throw toTdError(err)
	})
	// Read by the supervisor child; a client nobody starts through it must not crash the process.
	settled.catch(() => undefined)
	const opened = parameters.catch((err: unknown) => {
		throw toTdError(err)
	})
	opened.catch(() => undefined)
	return {
		network: settled,
		opened,
		async invoke(request: TdRequest) {
			await ready
			try {
				return await client.invoke(request as Parameters<typeof client.invoke>[0])
			} catch (err) {
				throw toTdError(err)
			}
		},
		onUpdate(listener: (u: TdUpdate) => void) {
			client.on('update', listener)
		},
		async close() {
			if (!client.isClosed()) await client.close()
		},
	}
}
