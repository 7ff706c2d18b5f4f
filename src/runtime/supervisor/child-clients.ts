import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Clock } from '../flood/clock'
import type { Backend } from '../telegram/backend'
import { folderHolder, isLockRefusal } from '../telegram/binlog-lock'
import { RuntimeError, type TdUpdate } from '../telegram/types'
import { authorizationDetail } from './auth-detail'
import type { Entry } from './hung-client'
import type { Liveness } from './liveness'
import type { ChildMessage, StartMessage, UpdateMessage } from './protocol'

/**
 * The supervisor child's clients (`child-host.ts`): what it holds of each, how one starts, what its
 * updates tell the parent, and how it closes. Answering the parent's requests is child-requests.ts's.
 */
export interface ChildClients {
	backend: Backend
	dataDir: string
	send: (message: ChildMessage) => void
	record?: (event: 'start' | 'stop', userbotId: number) => void
	clock: Clock
	/** How long a start waits for the first settled authorization state. */
	startTimeoutMs: number
	clients: Map<number, Entry>
	/** Starts under way (a restart is one too): requests for the userbot wait on it. */
	starting: Map<number, Promise<Entry>>
	/** Restarts of hung clients under way: `cancel` gives one up (the client is stopped meanwhile). */
	restarts: Map<number, { cancel: () => void }>
	/**
	 * Closes under way, by userbot: a new client of the userbot waits for the old one's, which still
	 * holds the folder's lock (and whose lock asking who holds it would release: binlog-lock.ts).
	 */
	closing: Map<number, Promise<void>>
	liveness?: Liveness
	/** Kinds of update the parent asked for (`update_filter`); every other update stays here. */
	forwarded: ReadonlySet<string>
}

const UNSETTLED = new Set(['', 'authorizationStateWaitTdlibParameters'])

/** The state has settled: a start waiting for it is answered with it. */
export const settled = (state: string) => !UNSETTLED.has(state)

/** A userbot's own folder (its database and files). */
export const clientFolder = (host: ChildClients, userbotId: number) =>
	join(host.dataDir, 'tdlib', String(userbotId))

function recordStop(host: ChildClients, userbotId: number, entry: Entry): void {
	if (entry.stopped || !entry.recorded) return
	entry.stopped = true
	host.record?.('stop', userbotId)
}

export async function closeEntry(host: ChildClients, userbotId: number, entry: Entry): Promise<void> {
	const closed = entry.client
		.close()
		.catch(() => undefined)
		.then(() => recordStop(host, userbotId, entry))
	host.closing.set(userbotId, closed)
	try {
		await closed
	} finally {
		if (host.closing.get(userbotId) === closed) host.closing.delete(userbotId)
	}
}

/** The answer to a start whose folder another process holds: it runs there (docs/shards.md#one-owner-per-account). */
const heldElsewhere = () =>
	new RuntimeError('held_elsewhere', "the userbot's TDLib folder is held by another process")

/** Forwards what the parent asked for; reports authorization states and settles the start that waits. */
function onUpdate(host: ChildClients, userbotId: number, entry: Entry, update: TdUpdate): void {
	// A client given up on closes in the background: its closing is not the account's.
	if (entry.abandoned) return
	if (host.forwarded.has(update._))
		host.send({ type: 'update', userbotId, update: update as UpdateMessage['update'] })
	if (update._ !== 'updateAuthorizationState') return
	const state = update.authorization_state
	entry.state = state._
	const detail = authorizationDetail(state as unknown as Record<string, unknown>)
	host.send(
		detail
			? { type: 'authorization_state', userbotId, state: state._, detail }
			: { type: 'authorization_state', userbotId, state: state._ },
	)
	if (state._ === 'authorizationStateClosed') {
		if (host.clients.get(userbotId) === entry) {
			host.clients.delete(userbotId)
			host.liveness?.unwatch(userbotId)
		}
		recordStop(host, userbotId, entry)
	}
	if (settled(state._)) for (const w of entry.waiters.splice(0)) w(state._)
}

/**
 * Makes the userbot's client in its own folder and waits for its first settled state (and for the
 * network, which a refused proxy holds); a start that fails closes what it made. A folder another
 * process holds (TDLib's lock: binlog-lock.ts) makes no client at all: the start is refused with
 * `held_elsewhere`, and so is one whose client TDLib refused the folder meanwhile.
 */
export async function startClient(host: ChildClients, msg: StartMessage): Promise<Entry> {
	const root = clientFolder(host, msg.userbotId)
	const databaseDirectory = join(root, 'db')
	const filesDirectory = join(root, 'files')
	mkdirSync(databaseDirectory, { recursive: true, mode: 0o700 })
	mkdirSync(filesDirectory, { recursive: true, mode: 0o700 })
	await host.closing.get(msg.userbotId)
	if (folderHolder(databaseDirectory) !== null) throw heldElsewhere()
	const client = host.backend.createClient(msg.userbotId, {
		databaseDirectory,
		filesDirectory,
		encryptionKey: msg.encryptionKey,
		...(msg.proxy ? { proxy: msg.proxy } : {}),
	})
	const entry: Entry = { client, state: '', waiters: [], inflight: new Set(), start: msg }
	client.onUpdate((u) => onUpdate(host, msg.userbotId, entry, u))
	host.clients.set(msg.userbotId, entry)
	let timer: ReturnType<typeof setTimeout> | undefined
	// It runs here once TDLib has the folder: the record's start (tests) is that moment.
	const opened = (client.opened ?? Promise.resolve()).then(() => {
		if (host.clients.get(msg.userbotId) !== entry) return
		entry.recorded = true
		host.record?.('start', msg.userbotId)
	})
	try {
		await Promise.all([
			opened,
			new Promise<string>((resolve, reject) => {
				if (settled(entry.state)) return resolve(entry.state)
				entry.waiters.push(resolve)
				timer = setTimeout(() => reject(new Error('the client did not start in time')), host.startTimeoutMs)
			}),
		])
		// A proxy TDLib refused leaves the network held: the start fails with TDLib's word for it.
		await client.network
	} catch (err) {
		host.clients.delete(msg.userbotId)
		// Refused the folder, the client never ran the account here: its closing is not the account's.
		const refused = isLockRefusal(err)
		if (refused) entry.abandoned = true
		await closeEntry(host, msg.userbotId, entry)
		throw refused ? heldElsewhere() : err
	} finally {
		clearTimeout(timer)
	}
	host.liveness?.watch(msg.userbotId, () => client.invoke({ _: 'testCallEmpty' }))
	return entry
}

/** The userbot's client once any start under way has ended; undefined when it has none. */
export async function entryFor(host: ChildClients, userbotId: number): Promise<Entry | undefined> {
	const p = host.starting.get(userbotId)
	if (p) return p.catch(() => undefined)
	return host.clients.get(userbotId)
}
