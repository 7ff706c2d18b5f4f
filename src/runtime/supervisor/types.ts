import type { UserbotStatus } from '../flood/health'
import type { TdProxy } from '../telegram/proxy'
import type { TdMethod, TdRequest, TdResult } from '../telegram/types'
import type { Room } from './capacity'

/** One TDLib request on its way to a supervisor, as an observer sees it (the conformance record). */
export interface RequestEvent {
	userbotId: number
	request: { _: string }
	/** What sent it: the WebSocket command's name, or the lifecycle step. */
	label?: string
}

export interface InvokeOptions {
	timeoutMs?: number
	signal?: AbortSignal
	/** What sends the request, for observers (`send_message`, `userbots:phone`). */
	label?: string
}

/** Events the runtime pushes up, beside replies. */
export type RuntimeEvent =
	| { type: 'authorization_state'; userbotId: number; state: string; detail?: Record<string, unknown> }
	| { type: 'runtime_restarted'; restarts: number }
	/**
	 * Clients (`userbotIds`) are being started again: a supervisor child died (all of its clients,
	 * in the next child), or one client stopped answering (that one alone, in the same child).
	 */
	| { type: 'runtime_down'; userbotIds: number[] }
	/**
	 * The account's health changed (src/runtime/flood/health.ts): an event about the account, beside the
	 * numbered update stream. `initial`: the first status the runtime knows of it (see `StatusChange`).
	 */
	| {
			type: 'userbot_status'
			userbotId: number
			status: UserbotStatus
			until?: number
			initial?: boolean
	  }
	/** A TDLib update of a kind asked for with `setUpdateFilter`. */
	| {
			type: 'update'
			userbotId: number
			update: { _: string } & Record<string, unknown>
			/** With the bus: the number the shard running the userbot gave it (see `UpdateHub.publish`). */
			seq?: number
	  }

export interface StartClientOptions {
	/** The TDLib database encryption key, base64. Never logged. */
	encryptionKey: string
	/** The userbot's proxy (src/runtime/telegram/proxy.ts); its password or secret is never logged either. */
	proxy?: TdProxy
}

/**
 * What the HTTP process sees of the supervisor: typed TDLib requests per userbot, client
 * lifecycle, and a stream of events. Implemented over IPC today; the same shape can ride a
 * network bus to supervisors on other machines.
 */
export interface TelegramRuntime {
	/**
	 * One TDLib request in the client of `userbotId`. Rejects with `TdError` (TDLib's own error) or
	 * `RuntimeError` (deadline, child died, no such client).
	 */
	invoke<M extends TdMethod>(
		userbotId: number,
		request: TdRequest<M>,
		opts?: InvokeOptions,
	): Promise<TdResult<M>>
	/** Starts (or restores from its database) the client of a userbot. Resolves with its auth state. */
	startClient(userbotId: number, opts: StartClientOptions): Promise<string>
	/** Closes the client; `logOut` ends the Telegram session first; `removeData` deletes its folders. */
	stopClient(userbotId: number, opts: { logOut: boolean; removeData: boolean }): Promise<void>
	/** The last authorization state seen for a userbot's client, if it runs. */
	authorizationState(userbotId: number): string | undefined
	/**
	 * Whether the userbot's start waits for another process to let go of its TDLib folder
	 * (docs/shards.md#one-owner-per-account): it runs there meanwhile.
	 */
	heldElsewhere?(userbotId: number): boolean
	onEvent(listener: (event: RuntimeEvent) => void): () => void
	/**
	 * The kinds of TDLib update to receive as `update` events (the rest are dropped in the child).
	 * Replaces the previous set; kept across supervisor restarts.
	 */
	setUpdateFilter(kinds: readonly string[]): void
	/** Calls `listener` with every TDLib request sent to a client, before it leaves; returns the unsubscribe. */
	onRequest(listener: (event: RequestEvent) => void): () => void
	health(): { up: boolean; restarts: number; clients: number; backend: string; bus?: BusHealth }
	/**
	 * The clients its supervisors may hold and hold (docs/capacity.md): of this process's children, or
	 * on a gateway the sum of what the live shards advertise; undefined when no limit is known.
	 */
	room?(): Room | undefined
	close(): Promise<void>
}

/** A gateway's view of the bus, for `/health` (the bus only). */
export interface BusHealth {
	/** Connected to the NATS server. */
	connected: boolean
	/** The update and state feed: running, and how far behind the stream it is. */
	feed: { up: boolean; pending: number; behind_ms: number }
	/** Leases held by a shard that does not own the userbot, seen at two checks in a row. */
	lease_mismatches: number
	/** Something above is wrong now: the gateway says `degraded` while it lasts. */
	degraded: boolean
}
