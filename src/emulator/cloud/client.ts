import type { BackendClient, ClientOptions, TdRequest, TdUpdate } from '../../runtime/telegram/types'
import { TdError } from '../../runtime/telegram/types'
import { CLOUD_LOST } from './remote'
import type { CloudLink, LinkedClient } from './types'

/**
 * The client a supervisor child holds for one userbot on the shared emulator: it reaches its
 * emulated session wherever the cloud is, and outlives a change of cloud host. When the host goes
 * away, the getters it held (`get…`: TDLib's getters change nothing the cloud keeps) are sent again
 * to the next host, any other request fails (`CLOUD_LOST`: it may have been done, and saved, or
 * not), and the client is opened again on the next host,
 * from what its folder keeps: a logged-in client comes back logged in without a word (as a TDLib
 * client whose connection dropped and came back), one caught in the middle of a log-in starts it
 * again (its new state is reported). Its settings of the session (options, network type, the
 * emulator's test requests) start again too.
 */
const CLOSED: TdUpdate = {
	_: 'updateAuthorizationState',
	authorization_state: { _: 'authorizationStateClosed' },
}

export function createCloudClient(
	link: () => Promise<CloudLink>,
	userbotId: number,
	opts: ClientOptions,
): BackendClient {
	const listeners: Array<(u: TdUpdate) => void> = []
	/** The last authorization state told to the listeners. */
	let told = ''
	/** Opened again after a host change: the states it goes through to where it was are not news. */
	let resuming = false
	let closing = false
	let current: Promise<LinkedClient>
	/** `current`, once it has settled on an open client. */
	let opened: LinkedClient | undefined

	const deliver = (u: TdUpdate) => {
		if (u._ === 'updateAuthorizationState') {
			const state = u.authorization_state._
			if (resuming) {
				if (state === 'authorizationStateWaitTdlibParameters') return
				resuming = false
				if (state === told) return
			}
			told = state
		}
		for (const l of listeners) l(u)
	}
	const bind = (resume: boolean) => {
		resuming = resume
		opened = undefined
		const binding = link().then((cloud) => cloud.open(userbotId, opts, { update: deliver, lost }))
		current = binding
		binding.then(
			(c) => {
				if (current === binding) opened = c
			},
			() => undefined,
		)
	}
	function lost() {
		// Closing, or closed: nothing to open again (a close in flight is still answered, or fails).
		if (closing || told === 'authorizationStateClosed') return
		bind(true)
	}
	bind(false)

	function invoke(request: TdRequest): Promise<unknown> {
		// Hot path: the client is open on a host; no extra turn.
		const ready = opened
		if (ready?.local) return ready.invoke(request)
		const answer = ready ? ready.invoke(request) : current.then((c) => c.invoke(request))
		return answer.catch((err: unknown) => {
			// `lost` has opened it again by now: a getter asks the next host.
			const lostWithHost = err instanceof TdError && err.message === CLOUD_LOST
			if (!lostWithHost || closing || !request._.startsWith('get')) throw err
			return invoke(request)
		})
	}

	return {
		invoke,
		onUpdate(listener) {
			listeners.push(listener)
		},
		async close() {
			if (told === 'authorizationStateClosed') return
			closing = true
			try {
				await (await current).close()
			} catch {
				// The host went away meanwhile (`lost` said Closed) or never came: nothing is left open.
				if (told !== 'authorizationStateClosed') deliver(CLOSED)
			}
		},
	}
}
