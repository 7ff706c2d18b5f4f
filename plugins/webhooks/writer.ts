import { type AppContext, workerModule } from 'userbot-gateway/plugin'
import type { LeaseRequest, Recorded } from './direct'
import type { EventRow, NewEvent } from './outbox'
import type { RecordReply, WriterReply, WriterRequest } from './writer-messages'

/** Why the writes came back to the event loop (the `webhook writer thread unavailable` log line). */
type FailReason = 'start' | 'open' | 'error' | 'exit'

/** Distributes `Omit` over a union (each op keeps its own fields). */
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never

/** The embedded database file of a `file:` URL, or null when the outbox cannot write it from a thread. */
export function embeddedPath(url: string): string | null {
	if (!url.startsWith('file:') || url.includes('?') || url.includes(':memory:')) return null
	if (url.startsWith('file://')) return decodeURIComponent(new URL(url).pathname)
	const path = url.slice('file:'.length)
	return path === '' ? null : path
}

/**
 * The main thread's side of the outbox's writer thread (writer-thread.ts, docs/webhooks.md#the-hot-path):
 * the writes of `recordMany` and `settleMany` go there, each answered with what it wrote, so the
 * event loop sends while the database works. Started at the first write. When the thread cannot be
 * started or dies, every write not answered yet, and every later one, is refused with `WriterGone` and
 * done on this thread instead (store.ts): storing again is harmless (an event stored already is not
 * stored twice, and deliveries its thread leased before dying come back when their leases end; an
 * outcome already written finds its lease gone). Either way it says so once in the log: `webhook
 * writer thread started`, or `webhook writer thread unavailable` with why.
 */
export class OutboxWriter {
	private worker: Worker | null = null
	private failed = false
	private nextId = 1
	/** The calls not answered yet, by id. */
	private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: unknown): void }>()

	constructor(
		private readonly path: string,
		private readonly timeoutMs: number,
		private readonly log?: Pick<AppContext['log'], 'info' | 'warn'>,
	) {}

	/** True while writes go to the thread (false once it failed: the caller writes itself). */
	get usable(): boolean {
		return !this.failed
	}

	record(req: Omit<Extract<WriterRequest, { op: 'record' }>, 'id' | 'op'>): Promise<RecordReply> {
		return this.send({ op: 'record', ...req }) as Promise<RecordReply>
	}

	settle(owner: string, rows: Array<string | number | null>): Promise<number[]> {
		return this.send({ op: 'settle', owner, rows }) as Promise<number[]>
	}

	/** Waits for the writes under way, then ends the thread. */
	async close(): Promise<void> {
		const worker = this.worker
		if (!worker || this.failed) return
		await this.send({ op: 'close' }).catch(() => undefined)
		this.failed = true
		this.worker = null
		worker.terminate()
	}

	private send(req: WithoutId<WriterRequest>): Promise<unknown> {
		if (this.failed) return Promise.reject(new WriterGone())
		const worker = this.start()
		const id = this.nextId++
		return new Promise((resolve, reject) => {
			this.pending.set(id, { resolve, reject })
			worker.postMessage({ ...req, id })
		})
	}

	private start(): Worker {
		if (this.worker) return this.worker
		let worker: Worker
		try {
			// Beside this file from source; in the single binary, an entrypoint of the build of its own.
			worker = new Worker(workerModule(new URL('./writer-thread.ts', import.meta.url)))
		} catch {
			// No thread here (its module not found, say, in a build without it): this thread writes.
			this.fail('start')
			throw new WriterGone()
		}
		this.worker = worker
		;(worker as Worker & { unref?(): void }).unref?.()
		worker.onmessage = (event: MessageEvent<WriterReply>) => {
			const reply = event.data
			const call = this.pending.get(reply.id)
			if (!call) return
			this.pending.delete(reply.id)
			if (reply.ok) call.resolve(reply.value)
			else call.reject(new Error(reply.error))
		}
		worker.onerror = () => this.fail('error')
		worker.addEventListener('close', () => this.fail('exit'))
		// First in its queue: the connection, before any write.
		const id = this.nextId++
		this.pending.set(id, {
			resolve: () => this.log?.info('webhook writer thread started'),
			// No connection: nothing goes to the thread.
			reject: () => this.fail('open'),
		})
		worker.postMessage({ op: 'open', path: this.path, timeoutMs: this.timeoutMs, id })
		return worker
	}

	/** The thread is gone: what it had not answered is done on this thread (WriterGone). */
	private fail(reason: FailReason): void {
		if (this.failed) return
		this.failed = true
		this.log?.warn('webhook writer thread unavailable: the outbox writes on the event loop', { reason })
		this.worker?.terminate()
		this.worker = null
		for (const call of this.pending.values()) call.reject(new WriterGone())
		this.pending.clear()
	}
}

/** The writer thread could not take the write: the caller does it itself. */
export class WriterGone extends Error {
	constructor() {
		super('the webhook writer thread is gone')
	}
}

/**
 * store.ts `recordMany` on the writer thread: the same statements in the same transaction. The lanes'
 * last ids (`lease.after`) are read before it is sent rather than inside the transaction: what
 * is pending after them is still looked at inside it, and a lane that changed meanwhile gives
 * its deliveries back (deliver.ts `take`), as when it changes between the commit and the take.
 */
export async function recordInThread(
	writer: OutboxWriter,
	events: readonly EventRow[],
	lease: LeaseRequest | undefined,
	/** Called for each event stored, once committed. */
	remember: (id: number, event: NewEvent) => void,
): Promise<Recorded> {
	// One flat list of the events' values (writer-thread.ts binds them as they come).
	const rows: Array<string | number> = []
	for (const { event: e } of events)
		rows.push(e.companyId, e.userbotId, e.seq, e.type, e.data, e.dedupeKey, e.at)
	const pairs: Array<[number, number, number]> = []
	if (lease) {
		const seen = new Set<string>()
		for (const { event: e, endpointIds } of events)
			for (const endpointId of endpointIds) {
				const key = `${endpointId}:${e.userbotId}`
				if (seen.has(key)) continue
				seen.add(key)
				const after = lease.after(endpointId, e.userbotId)
				if (after !== null) pairs.push([endpointId, e.userbotId, after])
			}
	}
	const reply = await writer.record({
		rows,
		endpoints: JSON.stringify(events.map((r) => r.endpointIds)),
		pairs: JSON.stringify(pairs),
		owner: lease?.owner ?? null,
		until: lease?.until ?? null,
	})
	const recorded: Recorded = { leased: [], waiting: reply.waiting, endpoints: reply.endpoints }
	const userbotOf = new Map<number, number>()
	// Remembered once committed: an id of a transaction rolled back may be given out again.
	const { inserted, leased } = reply
	for (let k = 0; k < inserted.length; k += 2) {
		const id = inserted[k] as number
		const e = (events[inserted[k + 1] as number] as EventRow).event
		userbotOf.set(id, e.userbotId)
		remember(id, e)
	}
	for (let k = 0; k < leased.length; k += 3) {
		const eventId = leased[k + 2] as number
		recorded.leased.push({
			id: leased[k] as number,
			endpoint_id: leased[k + 1] as number,
			userbot_id: userbotOf.get(eventId) as number,
			event_id: eventId,
			message_id: `msg_${eventId}`,
			attempts: 0,
			first_attempt_at: null,
		})
	}
	recorded.leased.sort((a, b) => a.id - b.id)
	return recorded
}
