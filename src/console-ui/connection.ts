/// <reference lib="dom" />

import { RESYNC } from '../common/wire/envelope'
import { type ChatUpdate, type Client, createClient, type UpdateEvent } from '../public/client'

/**
 * The console's one command channel: the typed client (`userbot-gateway/client`) over the browser's
 * WebSocket, authenticated by the session cookie. Every frame that arrives, and every close, is also
 * written to the live log: the client is handed a WebSocket class that reports to the log first.
 */
export interface LogEntry {
	at: Date
	/** `in`: a frame from the server; `out`: a command sent; `conn`: the socket opened or closed. */
	kind: 'in' | 'out' | 'conn'
	text: string
	error: boolean
}

export interface Connection {
	client: Client<import('../public/client').BuiltInCommands>
	readonly log: readonly LogEntry[]
	onLog(fn: (entry: LogEntry) => void): () => void
	/**
	 * Live updates of one userbot: subscribed once per connection and kept (the live log shows them),
	 * shared by every listener. Without `fn`, only subscribes.
	 */
	watch(userbotId: number, fn?: (event: UpdateEvent) => void): () => void
	/** Resolves once the userbot's live updates are subscribed (after `watch`). */
	subscribed(userbotId: number): Promise<number>
	/** `authorization_state` pushes and other events that answer no command. */
	onEvent(fn: (event: ChatUpdate) => void): () => void
	/** Sends any command frame and answers its reply's payload (logged both ways). */
	run(frame: Record<string, unknown> & { action: string }): Promise<ChatUpdate['payload']>
	readonly state: string
	onState(fn: (state: string) => void): () => void
	close(): void
}

const MAX_LOG = 500

const isErrorFrame = (frame: unknown): boolean => {
	if (!frame || typeof frame !== 'object') return false
	const f = frame as { type?: unknown; payload?: { type?: unknown; error?: unknown } }
	if (f.type === RESYNC) return true
	return (
		typeof f.payload?.type === 'string' &&
		(f.payload.type.endsWith('_error') || f.payload.error !== undefined)
	)
}

/** The live log: the last MAX_LOG entries, and who listens for new ones. */
function createLog() {
	const log: LogEntry[] = []
	const listeners = new Set<(e: LogEntry) => void>()
	const record = (kind: LogEntry['kind'], text: string, error: boolean) => {
		const entry = { at: new Date(), kind, text, error }
		log.push(entry)
		if (log.length > MAX_LOG) log.splice(0, log.length - MAX_LOG)
		for (const fn of listeners) fn(entry)
	}
	return { log, listeners, record }
}

type LogRecord = ReturnType<typeof createLog>['record']

/**
 * A WebSocket class that writes every frame that arrives, the opening and the closing to the log, and
 * the connection's state. Built per connection, not at module level: each reports to its own log.
 */
function loggedSocket(record: LogRecord, setState: (s: string) => void): typeof WebSocket {
	return class LoggedWebSocket extends WebSocket {
		constructor(url: string | URL, protocols?: string | string[]) {
			super(url, protocols)
			this.addEventListener('open', () => {
				record('conn', 'connected', false)
				setState('connected')
			})
			this.addEventListener('message', (event) => {
				const raw = String(event.data)
				let parsed: unknown = null
				try {
					parsed = JSON.parse(raw)
				} catch {}
				record('in', raw, isErrorFrame(parsed))
			})
			this.addEventListener('close', (event) => {
				const why = `closed (${event.code}${event.reason ? ` ${event.reason}` : ''})`
				record('conn', why, event.code !== 1000)
				setState(why)
			})
		}
	}
}

/** Live updates per userbot: one subscription each, shared by its listeners, ended by an error. */
function updateStreams(client: Connection['client'], record: LogRecord) {
	const watchers = new Map<number, Set<(e: UpdateEvent) => void>>()
	const ready = new Map<number, Promise<number>>()

	const subscribe = async (userbotId: number) => {
		const stream = client.updates(userbotId)
		ready.set(userbotId, stream.ready)
		try {
			for await (const event of stream) {
				if (event.type !== 'update') continue
				for (const fn of watchers.get(userbotId) ?? []) fn(event)
			}
		} catch (err) {
			record(
				'conn',
				`updates of userbot ${userbotId} stopped: ${err instanceof Error ? err.message : String(err)}`,
				true,
			)
		} finally {
			watchers.delete(userbotId)
			ready.delete(userbotId)
		}
	}

	const watch: Connection['watch'] = (userbotId, fn) => {
		let set = watchers.get(userbotId)
		if (!set) {
			set = new Set()
			watchers.set(userbotId, set)
			void subscribe(userbotId)
		}
		if (!fn) return () => {}
		set.add(fn)
		return () => {
			set.delete(fn)
		}
	}
	const subscribed: Connection['subscribed'] = (userbotId) =>
		ready.get(userbotId) ?? Promise.reject(new Error('not watched'))
	return { watch, subscribed }
}

const listen = <T>(set: Set<T>, fn: T) => {
	set.add(fn)
	return () => {
		set.delete(fn)
	}
}

export function openConnection(): Connection {
	const { log, listeners: logListeners, record } = createLog()
	const eventListeners = new Set<(e: ChatUpdate) => void>()
	const stateListeners = new Set<(s: string) => void>()
	let state = 'not connected'
	const setState = (s: string) => {
		state = s
		for (const fn of stateListeners) fn(s)
	}

	const client = createClient({
		url: location.origin,
		WebSocket: loggedSocket(record, setState),
		reconnect: { maxDelayMs: 5000 },
		onEvent: (event) => {
			for (const fn of eventListeners) fn(event)
		},
	})
	const { watch, subscribed } = updateStreams(client, record)

	return {
		client,
		log,
		get state() {
			return state
		},
		onLog: (fn) => listen(logListeners, fn),
		onEvent: (fn) => listen(eventListeners, fn),
		onState: (fn) => listen(stateListeners, fn),
		watch,
		subscribed,
		async run(frame) {
			record('out', JSON.stringify(frame), false)
			return client.request(frame)
		},
		close() {
			client.close()
			setState('closed')
		},
	}
}
