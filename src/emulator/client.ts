import type * as Td from 'tdlib-types'
import { tdlibParseError } from '../runtime/telegram/schema/parse'
import type { BackendClient } from '../runtime/telegram/types'
import { TdError, type TdRequest, type TdUpdate } from '../runtime/telegram/types'
import { ANY_STATE, authHandlers, isAborted, NEEDS_NETWORK } from './auth'
import { passwordHandlers } from './auth/password'
import { sessionHandlers } from './auth/sessions'
import { chatHandlers } from './chats'
import { publicChatHandlers } from './chats/public'
import { slowModeHandlers } from './chats/slow-mode'
import { fileHandlers } from './files'
import { downloadHandlers } from './files/downloads'
import { inviteHandlers } from './invites'
import { memberHandlers } from './members'
import { messageHandlers } from './messages'
import { historyHandlers } from './messages/history'
import { peopleHandlers } from './people'
import { privacyHandlers } from './people/privacy'
import { newProxyList, proxyHandlers } from './proxies'
import { fail, type Handler, type Handlers, type PersistedAuth, type Session } from './session'
import { emulatorOnly, type TestSettings } from './test-requests'
import type { World } from './world'

/**
 * One emulated TDLib client of a world: its session (authorization state, options, network), the
 * emulator-only test requests (test-requests.ts), and the dispatch of every TDLib request to its domain's handler.
 * Where the world lives (this process, or a cloud host another process reaches) is not its concern:
 * it reads and writes its authorization through `EmulatedClientOptions`.
 */

/** One file per TDLib domain, as the command groups are split. */
const HANDLERS: Handlers = {
	...authHandlers,
	...chatHandlers,
	...messageHandlers,
	...sessionHandlers,
	...privacyHandlers,
	...passwordHandlers,
	...memberHandlers,
	...inviteHandlers,
	...publicChatHandlers,
	...historyHandlers,
	...peopleHandlers,
	...fileHandlers,
	...downloadHandlers,
	...slowModeHandlers,
	...proxyHandlers,
}

/** Where an emulated client keeps its authorization: its TDLib folder, as TDLib keeps its auth key. */
export interface EmulatedClientOptions {
	/** The authorization the folder holds, read once when the client starts. */
	readAuth(): PersistedAuth | null
	/** The client's TDLib files folder, where `downloadFile` writes (none: downloads are refused). */
	filesDirectory?: string
	/** Writes it (or with `null` removes it). */
	persist(auth: PersistedAuth | null): void
	/** Told after each request has done its work in the world (the cloud host then saves it soon). */
	handled?(): void
}

function createSession(world: World, opts: EmulatedClientOptions) {
	const persist = opts.persist
	const listeners: Array<(u: TdUpdate) => void> = []
	/** Requests waiting for the network: resolved when it is back, rejected when the client closes. */
	const waiting = new Set<{ resolve: () => void; reject: (e: unknown) => void }>()
	/** The account this client listens as (its user id leaves `session` at log-out, before the state). */
	let attachedAs = 0
	const session: Session = {
		world,
		userId: 0,
		key: '',
		state: { _: 'authorizationStateWaitTdlibParameters' },
		options: new Map(),
		chatsLoaded: false,
		historyLoaded: new Set(),
		downloads: new Map(),
		downloadHold: { held: false, waiting: [] },
		filesDirectory: opts.filesDirectory ?? '',
		offline: false,
		proxies: newProxyList(),
		setNetwork(online) {
			session.offline = !online
			if (!online) return
			for (const w of [...waiting]) w.resolve()
			waiting.clear()
		},
		whenOnline() {
			if (!session.offline) return Promise.resolve()
			return new Promise<void>((resolve, reject) => {
				const w = {
					resolve: () => {
						waiting.delete(w)
						resolve()
					},
					reject,
				}
				waiting.add(w)
			})
		},
		setState(state: Td.AuthorizationState) {
			// A client hears its account's updates while it is logged in, and only then.
			if (state._ === 'authorizationStateReady') world.attach(session.userId, session)
			else if (session.state._ === 'authorizationStateReady') world.detach(attachedAs, session)
			if (state._ === 'authorizationStateReady') attachedAs = session.userId
			session.state = state
			if (state._ === 'authorizationStateClosed') {
				for (const w of [...waiting]) w.reject(new TdError(500, 'Request aborted'))
				waiting.clear()
			}
			session.emit({ _: 'updateAuthorizationState', authorization_state: state })
		},
		emit(update: TdUpdate) {
			for (const l of listeners) l(update)
		},
		revoked() {
			// As the device whose session another ended: logged out at once ('Already logging out' aside).
			try {
				authHandlers.logOut?.(session, { _: 'logOut' })
			} catch {}
		},
		persist,
	}
	return { session, listeners }
}

/**
 * The stored authorization, if the cloud still knows it: the account exists and its key is one of
 * the world's authorizations. A key the cloud has ended (a terminated session, a world started
 * again from the seed) logs the folder out, as TDLib does when its auth key is no longer registered.
 */
function restore(world: World, session: Session, opts: EmulatedClientOptions): boolean {
	const auth = opts.readAuth()
	if (!auth) return false
	const user = world.users.get(auth.userId)
	let key = auth.key
	if (user && key === undefined) {
		// A folder written before the cloud kept authorizations: it gets one now.
		key = world.authorize(user.id)
		world.durable()
		opts.persist({ ...auth, key })
	}
	if (!user || key === undefined || world.authorizations.get(key)?.userId !== user.id) {
		opts.persist(null)
		return false
	}
	session.userId = user.id
	session.key = key
	session.options.set('my_id', { _: 'optionValueInteger', value: String(user.id) })
	return true
}

export function createEmulatorClient(world: World, opts: EmulatedClientOptions): BackendClient {
	const { session, listeners } = createSession(world, opts)
	const settings: TestSettings = { failures: new Map(), latencyMs: 0, closeDelayMs: 0 }
	// As with tdl: the parameters are sent for the caller, then the stored session is restored.
	let initialized = false
	const init = Promise.resolve().then(() => {
		initialized = true
		session.setState({ _: 'authorizationStateWaitTdlibParameters' })
		session.setState({
			_: restore(world, session, opts) ? 'authorizationStateReady' : 'authorizationStateWaitPhoneNumber',
		})
	})

	async function run(request: TdRequest): Promise<unknown> {
		// TDLib holds requests until its parameters are set; so does the emulator.
		if (!initialized) await init
		if (isAborted(session, request._)) fail('Request aborted', 500)
		if (request._.startsWith('emulator')) {
			const answer = await emulatorOnly(session, settings, request)
			opts.handled?.()
			if (answer !== undefined) return answer
		}
		// What real TDLib's JSON parser refuses is refused first, in its words; and a field no TDLib
		// type declares (which TDLib would drop) too, so that our own mistakes fail the tests.
		const malformed = tdlibParseError(request, { strict: true })
		if (malformed) fail(malformed)
		const handler = HANDLERS[request._] as Handler<typeof request._> | undefined
		if (!handler) return fail(`Method not supported by the emulator: ${request._}`)
		if (!ANY_STATE.has(request._) && session.state._ !== 'authorizationStateReady') fail('Unauthorized', 401)
		if (session.offline && NEEDS_NETWORK.has(request._)) await session.whenOnline()
		const failure = settings.failures.get(request._)
		if (failure) {
			settings.failures.delete(request._)
			throw failure
		}
		try {
			return handler(session, request)
		} finally {
			opts.handled?.()
		}
	}

	return {
		async invoke(request) {
			if (settings.latencyMs === 0) return run(request)
			const late = settings.latencyMs
			try {
				const result = await run(request)
				await Bun.sleep(late)
				return result
			} catch (err) {
				await Bun.sleep(late)
				throw err
			}
		},
		onUpdate(listener) {
			listeners.push(listener)
		},
		async close() {
			if (session.state._ === 'authorizationStateClosed') return
			const closed = new Promise<void>((resolve) =>
				listeners.push((u) => {
					if (u._ === 'updateAuthorizationState' && u.authorization_state._ === 'authorizationStateClosed')
						resolve()
				}),
			)
			if (settings.closeDelayMs > 0) await Bun.sleep(settings.closeDelayMs)
			await run({ _: 'close' })
			await closed
		},
	}
}
