import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type * as Td from 'tdlib-types'
import {
	TdError,
	type TdMethod,
	type TdRequest,
	type TdResult,
	type TdUpdate,
} from '../runtime/telegram/types'
import type { World } from './world'

/** The proxies a client was given (`addProxy`), with the id the next one gets (proxies.ts). */
export interface ProxyList {
	nextId: number
	list: Td.addedProxy[]
}

/** One emulated TDLib client: its authorization, options and update stream. */
export interface Session {
	readonly world: World
	/** The logged-in user, 0 before `authorizationStateReady`. */
	userId: number
	/** The authorization it logged in with (`World.authorizations`); '' while logged out. */
	key: string
	state: Td.AuthorizationState
	/** Login in progress: the phone and the account (if any) it belongs to. */
	login?: { phone: string; dc: number; userId?: number }
	readonly options: Map<string, Td.OptionValue>
	chatsLoaded: boolean
	/**
	 * Chats whose history this client has fetched past the last message: before that, TDLib holds
	 * only the chat's last message and its first `getChatHistory` answers with that one alone.
	 */
	readonly historyLoaded: Set<number>
	/** The client's TDLib files folder ('' when it has none): `downloadFile` writes there. */
	readonly filesDirectory: string
	/** Downloads running in this client, by file id (downloads.ts). */
	readonly downloads: Map<number, RunningDownload>
	/** `emulatorHoldDownloads`: while held, a download waits after each part until let go. */
	readonly downloadHold: { held: boolean; waiting: Array<() => void> }
	/** `setNetworkType(networkTypeNone)` was sent: requests that need the cloud wait. */
	offline: boolean
	/** The proxies it was given (`addProxy`), kept for its life only. */
	proxies: ProxyList
	setNetwork(online: boolean): void
	/** Resolves once the network is back; rejects `500 Request aborted` when the client closes first. */
	whenOnline(): Promise<void>
	setState(state: Td.AuthorizationState): void
	emit(update: TdUpdate): void
	/** Another session of the account terminated this one (`World.revoke`): it logs out. */
	revoked(): void
	/** Writes (or with `null` removes) the persisted authorization in the database folder. */
	persist(auth: PersistedAuth | null): void
}

/** A download in progress: how many bytes are here, and its end (rejected when it is cancelled). */
export interface RunningDownload {
	done: number
	cancelled: boolean
	finished: Promise<void>
	/** Wakes it for its next part (a cancelled download then ends at once). */
	resume?: () => void
}

export interface PersistedAuth {
	userId: number
	phone: string
	/** The authorization's key; absent in folders written before the cloud kept authorizations. */
	key?: string
}

const KEY = /^[A-Za-z0-9_-]{16,64}$/
export const isAuthKey = (key: unknown): key is string => typeof key === 'string' && KEY.test(key)

export type Handler<M extends TdMethod> = (
	s: Session,
	req: TdRequest<M>,
) => TdResult<M> | Promise<TdResult<M>>
export type Handlers = { [M in TdMethod]?: Handler<M> }

export const fail = (message: string, code = 400): never => {
	throw new TdError(code, message)
}

export const OK: Td.ok = { _: 'ok' }

const AUTH_FILE = 'emulator-auth.json'

export function readAuth(databaseDirectory: string): PersistedAuth | null {
	const file = join(databaseDirectory, AUTH_FILE)
	if (!existsSync(file)) return null
	try {
		const data = JSON.parse(readFileSync(file, 'utf8')) as Partial<PersistedAuth>
		if (typeof data.userId !== 'number' || typeof data.phone !== 'string') return null
		return isAuthKey(data.key)
			? { userId: data.userId, phone: data.phone, key: data.key }
			: { userId: data.userId, phone: data.phone }
	} catch {
		return null
	}
}

export function writeAuth(databaseDirectory: string, auth: PersistedAuth | null) {
	const file = join(databaseDirectory, AUTH_FILE)
	if (auth) writeFileSync(file, JSON.stringify(auth), { mode: 0o600 })
	else rmSync(file, { force: true })
}
