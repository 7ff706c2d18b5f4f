import { getTdjson } from 'prebuilt-tdlib'
import * as tdl from 'tdl'
import type { Backend, BackendClient, ClientOptions } from './backend'
import { TdError, type TdRequest, type TdUpdate } from './types'

/**
 * Real TDLib through tdl and prebuilt-tdlib. tdl answers `setTdlibParameters` itself; this layer
 * only turns tdl's `TDLibError` (whose message is not enumerable) into `TdError`.
 */
let configured = false

function toTdError(err: unknown): Error {
	if (err instanceof tdl.TDLibError) return new TdError(err.code, err.message)
	return err instanceof Error ? err : new Error(String(err))
}

export function createTdlibBackend(opts: { apiId: number; apiHash: string; offline: boolean }): Backend {
	if (!configured) {
		// configure() may only run before the first client; once per process.
		tdl.configure({ tdjson: getTdjson(), verbosityLevel: 0 })
		configured = true
	}
	return {
		name: 'tdlib',
		createClient(_userbotId: number, c: ClientOptions): BackendClient {
			const client = tdl.createClient({
				apiId: opts.apiId,
				apiHash: opts.apiHash,
				databaseDirectory: c.databaseDirectory,
				filesDirectory: c.filesDirectory,
				databaseEncryptionKey: c.encryptionKey,
				useTestDc: false,
				tdlibParameters: {
					use_message_database: true,
					use_chat_info_database: true,
					use_file_database: true,
					use_secret_chats: false,
					system_language_code: 'en',
					device_model: 'userbot-gateway',
					application_version: '0.1.0',
				},
			})
			const errors: Array<(e: Error) => void> = []
			client.on('error', (e) => {
				for (const l of errors) l(e)
			})
			// The very first request, before TDLib gets a chance to dial out.
			const offline = opts.offline
				? client.invoke({ _: 'setNetworkType', type: { _: 'networkTypeNone' } }).catch(() => undefined)
				: Promise.resolve(undefined)
			return {
				async invoke(request: TdRequest) {
					if (opts.offline) await offline
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
		},
	}
}
