/**
 * The outbox's writer thread (writer.ts starts it): its own connection to the embedded database
 * file, its statements prepared once, and the two writes every event costs, `recordMany` and
 * `settleMany` of store.ts, run here instead of on the event loop that sends. The embedded driver
 * is synchronous: on the sending thread each of those writes held every delivery in flight until
 * it was done (docs/webhooks.md#the-hot-path). The statements are store.ts's, with `?` for their
 * parameters; they run in the same transactions, so what is stored, leased and written is the same.
 */
import Database from 'libsql'
import type { EndpointRow } from './claim'

declare const self: Worker

/** What the main thread asks (writer.ts). */
export type WriterRequest =
	| { id: number; op: 'open'; path: string; timeoutMs: number }
	| {
			id: number
			op: 'record'
			/**
			 * [company, userbot, seq, type, data, dedupe key, at] of each event one after another, in the
			 * order given (one flat list: a clone of its values, not of a list per event; the JSON the
			 * statement takes is made here, off the event loop).
			 */
			rows: Array<string | number>
			/** JSON of the endpoints that want each event. */
			endpoints: string
			/** JSON of [endpoint, userbot, after] of the pairs that may go in leased (LeaseRequest.after). */
			pairs: string
			owner: string | null
			until: number | null
	  }
	/** `rows`: JSON of [id, status, next at, at, code, body, error] per outcome. */
	| { id: number; op: 'settle'; owner: string; rows: string }
	| { id: number; op: 'close' }

/** The answer: what the op returned, or its error's message. */
export type WriterReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string }

/**
 * What `record` returns, flat: the events stored (id, index in rows), the deliveries leased (id,
 * endpoint, event), and whether some wait for a claim.
 */
export interface RecordReply {
	inserted: number[]
	leased: number[]
	waiting: boolean
	/** The endpoints of the leased deliveries, read in the same transaction (store.ts `complete`). */
	endpoints: EndpointRow[]
}

const SQL = {
	insertEvents: `
		INSERT INTO webhook_event (company_id, userbot_id, seq, type, data, dedupe_key, created_at)
		SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6
		FROM json_each(?) WHERE true ORDER BY key
		ON CONFLICT DO NOTHING
		RETURNING id, dedupe_key`,
	busyPairs: `
		SELECT p.key AS i FROM json_each(?) p
		WHERE EXISTS (
			SELECT 1 FROM webhook_delivery d INDEXED BY webhook_delivery_pending
			WHERE d.status = 'pending' AND d.endpoint_id = p.value ->> 0 AND d.userbot_id = p.value ->> 1
				AND d.id > p.value ->> 2
		)`,
	insertDeliveries: `
		INSERT INTO webhook_delivery
			(endpoint_id, event_id, userbot_id, message_id, next_at, created_at, lease_owner, lease_until)
		SELECT value ->> 0, value ->> 1, value ->> 2, 'msg_' || (value ->> 1), value ->> 3, value ->> 3,
			CASE WHEN value ->> 4 THEN ? END, CASE WHEN value ->> 4 THEN ? END
		FROM json_each(?) ORDER BY key
		RETURNING id, endpoint_id, event_id, lease_owner IS NOT NULL AS leased`,
	endpoints: `
		SELECT id, url, secret, previous_secret AS previousSecret, previous_secret_until AS previousSecretUntil,
			failing_since AS failingSince
		FROM webhook_endpoint WHERE id IN (SELECT value FROM json_each(?))`,
	settle: `
		UPDATE webhook_delivery SET
			status = j.value ->> 1, attempts = attempts + 1, next_at = j.value ->> 2,
			lease_owner = NULL, lease_until = NULL,
			first_attempt_at = coalesce(first_attempt_at, j.value ->> 3), last_at = j.value ->> 3,
			last_code = j.value ->> 4, last_body = j.value ->> 5, last_error = j.value ->> 6
		FROM json_each(?) AS j
		WHERE webhook_delivery.id = j.value ->> 0 AND webhook_delivery.lease_owner = ?
		RETURNING webhook_delivery.id AS id`,
}

type Statement = {
	all(...params: unknown[]): Array<Record<string, unknown>>
	run(...params: unknown[]): unknown
}
type Prepared = {
	[K in keyof typeof SQL | 'begin' | 'commit' | 'rollback' | 'savepoint' | 'release' | 'undo']: Statement
}

let db: { prepare(sql: string): Statement; exec(sql: string): void; close(): void } | null = null
let st: Prepared | null = null

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
}

/** store.ts `recordMany`, in one transaction: events, the pairs' look, deliveries. */
function record(s: Prepared, req: Extract<WriterRequest, { op: 'record' }>): RecordReply {
	const reply: RecordReply = { inserted: [], leased: [], waiting: false, endpoints: [] }
	const rows: Array<[number, number, number, string, string, string, number]> = []
	for (let k = 0; k < req.rows.length; k += 7)
		rows.push(req.rows.slice(k, k + 7) as [number, number, number, string, string, string, number])
	const stored = s.insertEvents.all(JSON.stringify(rows)) as Array<{ id: number; dedupe_key: string }>
	if (stored.length === 0) return reply
	const endpoints = JSON.parse(req.endpoints) as number[][]
	const ids = new Map(stored.map((r) => [r.dedupe_key, Number(r.id)]))
	const deliveries: Array<[number, number, number, number, number]> = []
	rows.forEach((row, i) => {
		const id = ids.get(row[5])
		if (id === undefined) return
		// One set of deliveries even when one batch names a key twice.
		ids.delete(row[5])
		reply.inserted.push(id, i)
		for (const endpointId of endpoints[i] ?? []) deliveries.push([endpointId, id, row[1], row[6], 0])
	})
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
	const made = s.insertDeliveries.all(req.owner, req.until, JSON.stringify(deliveries)) as Array<{
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
function settle(s: Prepared, req: Extract<WriterRequest, { op: 'settle' }>): number[] {
	return (s.settle.all(req.rows, req.owner) as Array<{ id: number }>).map((r) => Number(r.id))
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
			const value = req.op === 'record' ? record(s, req) : settle(s, req)
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
