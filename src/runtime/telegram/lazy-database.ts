import { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { BackendClient, TdRequest, TdUpdate } from './types'

/**
 * TDLib's SQLite database, made only when an account has logged in (docs/capacity.md#start-time).
 *
 * TDLib deletes and makes again its SQLite database (messages, chats, files) at every start of a
 * client that has not logged in yet: about 20 ms of CPU and 18 fsyncs per start, three quarters of
 * what an idle client costs to start. A client that only waits for its phone number starts
 * without that database ("light": `use_file_database` and the rest off; its binlog, with the session
 * and the log-in steps, is kept as ever). When it reaches `authorizationStateReady` it is closed
 * and opened again with every database, as a restart after the log-in would; the account's updates,
 * requests and authorization states go on as one client's. A client whose folder has the database
 * (logged in before) starts with it.
 */

/** One TDLib client instance, as `tdlib.ts` opens it with (`databases`) or without its SQLite database. */
export type OpenInstance = (databases: boolean) => BackendClient

/** SQLite's files of TDLib's database in a client's database folder (not a test DC). */
const SQLITE_FILES = ['db.sqlite', 'db.sqlite-wal', 'db.sqlite-shm', 'db.sqlite-journal']

/**
 * The log-in states: TDLib's binlog has no session, so TDLib itself deletes the SQLite database at
 * the next start. A client closed in one of them leaves no database behind (`forget`), so a client
 * made by an earlier version, or closed half-way through its log-in, starts light next time.
 */
const NOT_LOGGED_IN = new Set([
	'authorizationStateWaitPhoneNumber',
	'authorizationStateWaitPremiumPurchase',
	'authorizationStateWaitEmailAddress',
	'authorizationStateWaitEmailCode',
	'authorizationStateWaitCode',
	'authorizationStateWaitOtherDeviceConfirmation',
	'authorizationStateWaitRegistration',
	'authorizationStateWaitPassword',
])

/** Whether a client's database folder holds TDLib's SQLite database. */
export const hasDatabase = (databaseDirectory: string) => existsSync(join(databaseDirectory, 'db.sqlite'))

/** Removes what TDLib would remove at the next start of a client that is not logged in. */
export function forgetDatabase(databaseDirectory: string): void {
	for (const f of SQLITE_FILES) rmSync(join(databaseDirectory, f), { force: true })
}

const CLOSED = {
	_: 'updateAuthorizationState',
	authorization_state: { _: 'authorizationStateClosed' },
} as TdUpdate

const authState = (u: TdUpdate) =>
	u._ === 'updateAuthorizationState' ? (u.authorization_state as { _: string })._ : undefined

/** Waits for the light client's `answer`, counted in `inflight` meanwhile (it closes once they are done). */
async function counted<T>(inflight: Set<Promise<unknown>>, answer: Promise<T>): Promise<T> {
	inflight.add(answer)
	try {
		return await answer
	} finally {
		inflight.delete(answer)
	}
}

export function withLazyDatabase(open: OpenInstance, databases: boolean, forget: () => void): BackendClient {
	const listeners: Array<(u: TdUpdate) => void> = []
	const emit = (u: TdUpdate) => {
		for (const l of listeners) l(u)
	}
	const first = open(databases)
	/** The instance the account is on; none while the light one is closed and the next opened. */
	let current: BackendClient | undefined = first
	let full = databases
	let lastState = ''
	let closing = false
	/** Settles once the database-holding client replaced the light one (requests wait for it). */
	let switching: Promise<void> | undefined
	/** Requests the light client has not answered yet: it is closed once they are. */
	const inflight = new Set<Promise<unknown>>()

	const follow = (instance: BackendClient, reopened: boolean) => {
		// The reopened client's own start (WaitTdlibParameters) is not the account's: it was Ready.
		let quiet = reopened
		instance.onUpdate((u) => {
			if (instance !== current) return
			const state = authState(u)
			if (state !== undefined) {
				if (quiet && state === 'authorizationStateWaitTdlibParameters') return
				quiet = false
				lastState = state
				if (!full && state === 'authorizationStateReady') {
					switching = reopen(instance)
					return
				}
			}
			emit(u)
		})
	}

	async function reopen(light: BackendClient): Promise<void> {
		// From here on nothing of the light client reaches the account; its answers still do.
		current = undefined
		await Promise.allSettled([...inflight])
		await light.close().catch(() => undefined)
		if (closing) return
		full = true
		try {
			const next = open(true)
			current = next
			follow(next, true)
		} catch {
			// No client to go on with: the account's client has closed, as TDLib would say it.
			emit(CLOSED)
		}
	}

	follow(first, false)
	const { network, opened } = first
	return {
		...(network ? { network } : {}),
		...(opened ? { opened } : {}),
		async invoke(request: TdRequest) {
			if (switching) await switching
			if (!current) throw new Error('the client is closed')
			const answer = current.invoke(request)
			return full ? answer : counted(inflight, answer)
		},
		onUpdate(listener) {
			listeners.push(listener)
		},
		async close() {
			closing = true
			if (switching) await switching
			if (!current) return
			// Read before closing: the close itself passes through Closing and Closed.
			const loggedIn = !NOT_LOGGED_IN.has(lastState)
			await current.close()
			if (full && !loggedIn) forget()
		},
	}
}
