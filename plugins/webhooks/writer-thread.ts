/**
 * The outbox's writer thread (writer.ts starts it): its own connection to the embedded database
 * file, its statements prepared once, and the two writes every event costs, `recordMany` and
 * `settleMany` of store.ts, run here instead of on the event loop that sends. The embedded driver
 * is synchronous: on the sending thread each of those writes held every delivery in flight until
 * it was done (docs/webhooks.md#the-hot-path). The statements are store.ts's, with `?` for their
 * parameters (writer-statements.ts); they run in the same transactions, so what is stored, leased
 * and written is the same. What the two threads say to each other is in writer-messages.ts.
 */
import Database from 'libsql'
import type { EndpointRow } from './claim'
import type { RecordReply, WriterReply, WriterRequest } from './writer-messages'
import { chunkSizes, DELIVERY_WIDTH, EVENT_WIDTH, MANY, OUTCOME_WIDTH, SQL } from './writer-statements'

declare const self: Worker

type Statement = {
	all(...params: unknown[]): Array<Record<string, unknown>>
	run(...params: unknown[]): unknown
}
type Prepared = {
	[K in keyof typeof SQL | 'begin' | 'commit' | 'rollback' | 'savepoint' | 'release' | 'undo']: Statement
}

let db: { prepare(sql: string): Statement; exec(sql: string): void; close(): void } | null = null
let st: Prepared | null = null
/** The multi-row statements prepared so far, by kind and number of rows. */
let many = new Map<string, Statement>()

/**
 * Runs the multi-row statement `kind` over `values` (`width` per row, `extra` bound after them), in
 * chunks of chunkSizes, in order: the rows each returned, one after another.
 */
function runMany(
	kind: keyof typeof MANY,
	width: number,
	values: ReadonlyArray<string | number | null>,
	extra: ReadonlyArray<string | number | null> = [],
): Array<Record<string, unknown>> {
	const out: Array<Record<string, unknown>> = []
	let at = 0
	for (const size of chunkSizes(values.length / width)) {
		const key = `${kind}:${size}`
		let statement = many.get(key)
		if (statement === undefined) {
			statement = (db as NonNullable<typeof db>).prepare(MANY[kind](size))
			many.set(key, statement)
		}
		const end = at + size * width
		for (const row of statement.all(...values.slice(at, end), ...extra)) out.push(row)
		at = end
	}
	return out
}

function open(path: string, timeoutMs: number): void {
	db = new Database(path, { timeout: timeoutMs }) as unknown as NonNullable<typeof db>
	db.exec('PRAGMA journal_mode = WAL')
	db.exec('PRAGMA foreign_keys = ON')
	db.exec('PRAGMA synchronous = NORMAL')
	const prepared: Partial<Prepared> = {
		begin: db.prepare('BEGIN IMMEDIATE'),
		commit: db.prepare('COMMIT'),
		rollback: db.prepare('ROLLBACK'),
		savepoint: db.prepare('SAVEPOINT one_write'),
		release: db.prepare('RELEASE one_write'),
		undo: db.prepare('ROLLBACK TO one_write'),
	}
	for (const [k, text] of Object.entries(SQL))
		prepared[k as keyof typeof SQL] = (db as NonNullable<typeof db>).prepare(text)
	st = prepared as Prepared
	many = new Map()
}

/** store.ts `recordMany`, in one transaction: events, the pairs' look, deliveries. */
function record(s: Prepared, req: Extract<WriterRequest, { op: 'record' }>): RecordReply {
	const reply: RecordReply = { inserted: [], leased: [], waiting: false, endpoints: [] }
	const rows = req.rows
	const stored = runMany('insertEvents', EVENT_WIDTH, rows) as Array<{ id: number; dedupe_key: string }>
	if (stored.length === 0) return reply
	const endpoints = JSON.parse(req.endpoints) as number[][]
	const ids = new Map(stored.map((r) => [r.dedupe_key, Number(r.id)]))
	const deliveries: Array<[number, number, number, number, number]> = []
	for (let i = 0, k = 0; k < rows.length; i++, k += EVENT_WIDTH) {
		const key = rows[k + 5] as string
		const id = ids.get(key)
		if (id === undefined) continue
		// One set of deliveries even when one batch names a key twice.
		ids.delete(key)
		reply.inserted.push(id, i)
		for (const endpointId of endpoints[i] ?? [])
			deliveries.push([endpointId, id, rows[k + 1] as number, rows[k + 6] as number, 0])
	}
	// Event by event, endpoint by endpoint: a pair's deliveries are numbered in its events' order.
	deliveries.sort((p, q) => p[1] - q[1])
	if (deliveries.length === 0) return reply
	const pairs = JSON.parse(req.pairs) as Array<[number, number, number]>
	if (req.owner !== null && pairs.length > 0) {
		const free = new Set(pairs.map(([e, u]) => `${e}:${u}`))
		for (const { i } of s.busyPairs.all(req.pairs) as Array<{ i: number }>) {
			const [e, u] = pairs[Number(i)] as [number, number, number]
			free.delete(`${e}:${u}`)
		}
		for (const d of deliveries) if (free.has(`${d[0]}:${d[2]}`)) d[4] = 1
	}
	reply.waiting = deliveries.some((d) => d[4] === 0)
	const values: Array<string | number | null> = []
	for (const [endpointId, eventId, userbotId, at, leased] of deliveries)
		values.push(
			endpointId,
			eventId,
			userbotId,
			`msg_${eventId}`,
			at,
			at,
			leased ? req.owner : null,
			leased ? req.until : null,
		)
	const made = runMany('insertDeliveries', DELIVERY_WIDTH, values) as Array<{
		id: number
		endpoint_id: number
		event_id: number
		leased: number
	}>
	const leasedTo = new Set<number>()
	for (const r of made)
		if (r.leased) {
			reply.leased.push(Number(r.id), Number(r.endpoint_id), Number(r.event_id))
			leasedTo.add(Number(r.endpoint_id))
		}
	// Read in this transaction: a URL or secret changed on any gateway counts at the next write.
	if (leasedTo.size > 0)
		reply.endpoints = s.endpoints.all(JSON.stringify([...leasedTo])) as unknown as EndpointRow[]
	return reply
}

/** store.ts `settleMany`: the ids whose outcome was written (still leased to `owner`). */
function settle(req: Extract<WriterRequest, { op: 'settle' }>): number[] {
	return (runMany('settle', OUTCOME_WIDTH, req.rows, [req.owner]) as Array<{ id: number }>).map((r) =>
		Number(r.id),
	)
}

const failure = (id: number, err: unknown): WriterReply => ({
	id,
	ok: false,
	error: err instanceof Error ? err.message : String(err),
})

/**
 * The writes that came in while the last ones ran, in one transaction (each in a savepoint of its
 * own: one that fails is undone alone and told so). The pages the events' deliveries and the
 * outcomes touch (the table's newest rows, the pending index) then go to the log once per commit
 * rather than once per write. Each is answered after the commit: a write is only ever reported
 * once it is stored.
 */
function write(batch: Array<Extract<WriterRequest, { op: 'record' | 'settle' }>>): WriterReply[] {
	if (!st) return batch.map((req) => failure(req.id, new Error('the webhook writer has no database open')))
	const s = st
	const replies: WriterReply[] = []
	try {
		s.begin.run()
	} catch (err) {
		return batch.map((req) => failure(req.id, err))
	}
	for (const req of batch) {
		s.savepoint.run()
		try {
			const value = req.op === 'record' ? record(s, req) : settle(req)
			s.release.run()
			replies.push({ id: req.id, ok: true, value })
		} catch (err) {
			try {
				s.undo.run()
				s.release.run()
			} catch {
				// SQLite rolled the whole transaction back already: the commit below says so.
			}
			replies.push(failure(req.id, err))
		}
	}
	try {
		s.commit.run()
	} catch (err) {
		try {
			s.rollback.run()
		} catch {
			// Nothing left to roll back.
		}
		return batch.map((req) => failure(req.id, err))
	}
	return replies
}

let queue: WriterRequest[] = []
let draining = false

/** Runs what has come in, in order: the writes between an `open` and a `close` together. */
function drain(): void {
	draining = false
	const taken = queue
	queue = []
	let batch: Array<Extract<WriterRequest, { op: 'record' | 'settle' }>> = []
	const flush = () => {
		if (batch.length > 0) for (const reply of write(batch)) self.postMessage(reply)
		batch = []
	}
	for (const req of taken) {
		if (req.op === 'record' || req.op === 'settle') {
			batch.push(req)
			continue
		}
		flush()
		let reply: WriterReply
		try {
			if (req.op === 'open') open(req.path, req.timeoutMs)
			else {
				db?.close()
				db = null
				st = null
				many = new Map()
			}
			reply = { id: req.id, ok: true, value: null }
		} catch (err) {
			reply = failure(req.id, err)
		}
		self.postMessage(reply)
	}
	flush()
}

self.onmessage = (event: MessageEvent<WriterRequest>) => {
	queue.push(event.data)
	if (draining) return
	draining = true
	// After the messages already waiting: they join this transaction.
	setImmediate(drain)
}
