import type { $FunctionInputByName, $FunctionName, $FunctionResultByName, Update } from 'tdlib-types'
import type { TdProxy } from './proxy'

/** A TDLib request in tdl's shape (`_` discriminator), typed by method name. */
export type TdMethod = $FunctionName
export type TdRequest<M extends TdMethod = TdMethod> = { readonly _: M } & $FunctionInputByName[M]
export type TdResult<M extends TdMethod> = $FunctionResultByName[M]
export type TdUpdate = Update

/** A typed `invoke`, the only door to TDLib for command code. */
export type TdInvoke = <M extends TdMethod>(request: TdRequest<M>) => Promise<TdResult<M>>

/** An error TDLib returned (`{_: 'error', code, message}`). Its message is forwarded verbatim. */
export class TdError extends Error {
	override name = 'TdError'
	constructor(
		readonly code: number,
		message: string,
	) {
		super(message)
	}
}

/**
 * The runtime could not answer: the deadline passed (`timeout`), the supervisor died with the
 * request pending, the userbot has no running client, and so on. `code` is stable, for the gateway.
 */
export class RuntimeError extends Error {
	override name = 'RuntimeError'
	constructor(
		readonly code:
			| 'timeout'
			| 'runtime_down'
			| 'no_client'
			| 'unavailable'
			| 'bad_request'
			| 'capacity'
			/** The userbot's TDLib folder is locked by another process (binlog-lock.ts): it runs there. */
			| 'held_elsewhere',
		message: string,
	) {
		super(message)
	}
}

/**
 * What the supervisor child needs of a Telegram backend: real TDLib (`tdlib.ts`) or the emulator
 * (`emulator/`). One backend per child process, one client per userbot.
 */
export interface ClientOptions {
	databaseDirectory: string
	filesDirectory: string
	/** base64; never logged */
	encryptionKey: string
	/** The proxy every connection of the client goes through (src/runtime/telegram/proxy.ts). */
	proxy?: TdProxy
}

export interface BackendClient {
	/** Resolves with TDLib's answer, rejects with `TdError` (code and message verbatim). */
	invoke(request: TdRequest): Promise<unknown>
	onUpdate(listener: (update: TdUpdate) => void): void
	close(): Promise<void>
	/**
	 * Settles once the client's network is set up (its proxy enabled, the network let go unless
	 * offline); rejects with TDLib's error when that failed, and the network then stays held.
	 */
	readonly network?: Promise<void>
	/**
	 * Settles once TDLib took its parameters and so opened the folder; rejects with TDLib's error
	 * when it did not: a folder another process holds is `Can't lock file ...` (binlog-lock.ts), and
	 * the client then stays waiting for its parameters.
	 */
	readonly opened?: Promise<void>
}

export interface Backend {
	readonly name: 'tdlib' | 'emulator'
	createClient(userbotId: number, opts: ClientOptions): BackendClient
	/** Lets go of what the backend holds for its process (the emulated cloud writes its state). */
	close?(): Promise<void>
}
