import type { Transport } from '../../common/transport'
import { TdError } from '../../runtime/telegram/types'
import { readAuth, writeAuth } from '../session'
import {
	type AuthMessage,
	type BackendMessage,
	parseHostMessage,
	type ResultMessage,
	type UpdateMessage,
} from './protocol'
import type { CloudLink, CloudLog, LinkedClient, UpdateSink } from './types'

/**
 * A backend's connection to the cloud host of another process: the clients it opened there, their
 * requests in flight (by id), their updates; and the authorization the host tells a client's folder
 * to keep, written here, beside the TDLib folder, before the state that follows it is delivered.
 */
export const CLOUD_LOST =
	'emulator: the emulated cloud restarted before answering; the request may or may not have been done'

interface Opened {
	sink: UpdateSink
	databaseDirectory: string
}

export interface RemoteCloud extends CloudLink {
	/** Closes the connection on purpose (a stopping process): its clients are not told `lost`. */
	close(): void
}

/** The requests in flight, by id. */
type Pending = Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>

/** A host's answer, update or authorization, to the request or the client it names. */
function deliver(
	m: ResultMessage | UpdateMessage | AuthMessage,
	pending: Pending,
	clients: Map<number, Opened>,
) {
	if (m.type === 'result') {
		const p = pending.get(m.id)
		pending.delete(m.id)
		if (m.ok) p?.resolve(m.value)
		else p?.reject(new TdError(m.error.code, m.error.message))
	} else if (m.type === 'update') {
		clients.get(m.client)?.sink.update(m.update as Parameters<UpdateSink['update']>[0])
	} else {
		const c = clients.get(m.client)
		if (c) writeAuth(c.databaseDirectory, m.auth)
	}
}

export function connectRemote(transport: Transport, log: CloudLog, onLost: () => void): RemoteCloud {
	const clients = new Map<number, Opened>()
	const pending: Pending = new Map()
	let nextClient = 1
	let nextId = 1
	let closing = false
	/** The connection is gone, or its host is leaving: nothing sent now would be answered. */
	let down = false
	/**
	 * Tells the backend and every client opened here to find the next host. Their updates and
	 * authorizations still come here until the connection closes (a leaving host answers what is in
	 * flight first): a log-in it finishes reaches the folder before the next host reads it.
	 */
	const moveOn = () => {
		onLost()
		for (const c of [...clients.values()]) c.sink.lost()
	}
	const send = (m: BackendMessage) => transport.send(m)

	const call = (m: { type: 'invoke'; client: number; request: object } | { type: 'close'; client: number }) =>
		new Promise<unknown>((resolve, reject) => {
			if (down) return reject(new TdError(500, CLOUD_LOST))
			const id = nextId++
			pending.set(id, { resolve, reject })
			send({ ...m, id } as BackendMessage)
		})

	transport.onMessage((raw) => {
		const checked = parseHostMessage(raw)
		if (!checked.ok)
			return log('warn', 'emulator cloud: invalid message from the host dropped', { error: checked.error })
		const m = checked.message
		if (m.type === 'leaving') {
			// Its answers to what is in flight still come here; everything new goes to the next host.
			down = true
			send({ type: 'moved' })
			if (!closing) moveOn()
		} else deliver(m, pending, clients)
	})
	transport.onClose(() => {
		const moved = down
		down = true
		const lost = new TdError(500, CLOUD_LOST)
		for (const p of pending.values()) p.reject(lost)
		pending.clear()
		if (!closing && !moved) moveOn()
		clients.clear()
	})

	return {
		open(userbotId, client, sink) {
			const n = nextClient++
			// Opened on a connection that has just gone: it is lost at once, and opened again.
			if (down) queueMicrotask(() => sink.lost())
			else clients.set(n, { sink, databaseDirectory: client.databaseDirectory })
			send({
				type: 'open',
				client: n,
				userbotId,
				auth: readAuth(client.databaseDirectory),
				files: client.filesDirectory,
			})
			const linked: LinkedClient = {
				invoke: (request) => call({ type: 'invoke', client: n, request }),
				close: async () => {
					await call({ type: 'close', client: n })
					clients.delete(n)
				},
			}
			return linked
		},
		close() {
			closing = true
			transport.close()
		},
	}
}
