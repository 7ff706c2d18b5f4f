import { lockFolder } from './binlog-lock'
import type { BackendClient, TdRequest, TdUpdate } from './types'

/**
 * An emulated client that holds its folder's lock as real TDLib does (binlog-lock.ts): the lock is
 * taken before the client exists (TDLib takes it while it applies its parameters) and let go once
 * the client has closed (its `authorizationStateClosed`, by `close` or by itself after a log-out). While it is refused the client waits for its parameters, as TDLib's does:
 * `opened` rejects with TDLib's words, a request waits, and a close ends it.
 */
const state = (name: string) =>
	({ _: 'updateAuthorizationState', authorization_state: { _: name } }) as TdUpdate

export function withFolderLock(make: () => BackendClient, databaseDirectory: string): BackendClient {
	const listeners: Array<(u: TdUpdate) => void> = []
	const tell = (name: string) => {
		for (const l of listeners) l(state(name))
	}
	let closing = false
	let inner: BackendClient | undefined
	const locked = lockFolder(databaseDirectory)
	// Refused, it waits for its parameters, which TDLib asks for before it touches the folder (the
	// emulated client says so itself once it exists).
	locked.catch(() => tell('authorizationStateWaitTdlibParameters'))
	const made = locked.then((lock) => {
		if (closing) {
			lock.release()
			throw new Error('closed before it opened')
		}
		inner = make()
		// Closed by itself (a log-out ends in Closed) or by `close`: TDLib lets go of the folder then.
		inner.onUpdate((u) => {
			if (u._ === 'updateAuthorizationState' && u.authorization_state._ === 'authorizationStateClosed')
				lock.release()
		})
		for (const l of listeners) inner.onUpdate(l)
		return { lock, client: inner }
	})
	made.catch(() => undefined)
	const opened = made.then(() => undefined)
	opened.catch(() => undefined)
	const network = made.then(({ client }) => client.network)
	network.catch(() => undefined)
	return {
		opened,
		network,
		async invoke(request: TdRequest) {
			const { client } = await made
			return client.invoke(request)
		},
		onUpdate(listener) {
			listeners.push(listener)
			inner?.onUpdate(listener)
		},
		async close() {
			closing = true
			const open = await made.catch(() => undefined)
			if (!open) {
				tell('authorizationStateClosing')
				tell('authorizationStateClosed')
				return
			}
			try {
				await open.client.close()
			} finally {
				open.lock.release()
			}
		},
	}
}
