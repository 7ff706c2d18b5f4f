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
			 * order given (one flat list: a clone of its values, not of a list per event; bound here as
			 * the statement's parameters).
			 */
			rows: Array<string | number>
			/** JSON of the endpoints that want each event. */
			endpoints: string
			/** JSON of [endpoint, userbot, after] of the pairs that may go in leased (LeaseRequest.after). */
			pairs: string
			owner: string | null
			until: number | null
	  }
	/** `rows`: [id, status, next at, at, code, body, error] of each outcome one after another. */
	| { id: number; op: 'settle'; owner: string; rows: Array<string | number | null> }
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

/** Values of one event in `rows`, of one delivery inserted, of one outcome. */
const EVENT_WIDTH = 7
const DELIVERY_WIDTH = 8
const OUTCOME_WIDTH = 7

/**
 * Rows per statement at most. The events, deliveries and outcomes go in as the parameters of
 * multi-row statements (`VALUES (?, ...), (?, ...)`), each prepared once per number of rows, those
 * numbers powers of two: a batch of n rows is one statement per bit of n (above CHUNK, full ones
 * first). Each row as a JSON text read back by `json_each` and `->>` cost the thread about a third
 * more: SQLite parsed each row's text again for each of its fields.
 */
const CHUNK = 256

/** The sizes of the statements a batch of `n` rows is written with, in order (powers of two, largest first). */
function chunkSizes(n: number): number[] {
	const sizes: number[] = []
	let left = n
	while (left > 0) {
		let size = CHUNK
		while (size > left) size >>= 1
		sizes.push(size)
		left -= size
	}
	return sizes
}

const rowsOf = (width: number, count: number) =>
	Array.from({ length: count }, () => `(${Array.from({ length: width }, () => '?').join(', ')})`).join(', ')

/** The multi-row statements, by their number of rows. */
const MANY = {
	insertEvents: (n: number) => `
		INSERT INTO webhook_event (company_id, userbot_id, seq, type, data, dedupe_key, created_at)
		VALUES ${rowsOf(EVENT_WIDTH, n)}
		ON CONFLICT DO NOTHING
		RETURNING id, dedupe_key`,
	// Only what the insert does not know already comes back: a new delivery's message id is `msg_`
	// and its event, it has no attempts.
	insertDeliveries: (n: number) => `
		INSERT INTO webhook_delivery
			(endpoint_id, event_id, userbot_id, message_id, next_at, created_at, lease_owner, lease_until)
		VALUES ${rowsOf(DELIVERY_WIDTH, n)}
		RETURNING id, endpoint_id, event_id, lease_owner IS NOT NULL AS leased`,
	// Written only while the lease is still this process's (the owner is the last parameter).
	settle: (n: number) => `
		WITH j (id, status, next_at, at, code, body, error) AS (VALUES ${rowsOf(OUTCOME_WIDTH, n)})
		UPDATE webhook_delivery SET
			status = j.status, attempts = attempts + 1, next_at = j.next_at,
			lease_owner = NULL, lease_until = NULL,
			first_attempt_at = coalesce(first_attempt_at, j.at), last_at = j.at,
			last_code = j.code, last_body = j.body, last_error = j.error
		FROM j
		WHERE webhook_delivery.id = j.id AND webhook_delivery.lease_owner = ?
		RETURNING webhook_delivery.id AS id`,
}

const SQL = {
	busyPairs: `
		SELECT p.key AS i FROM json_each(?) p
		WHERE EXISTS (
			SELECT 1 FROM webhook_delivery d INDEXED BY webhook_delivery_pending
			WHERE d.status = 'pending' AND d.endpoint_id = p.value ->> 0 AND d.userbot_id = p.value ->> 1
				AND d.id > p.value ->> 2
		)`,
	endpoints: `
		SELECT id, url, secret, previous_secret AS previousSecret, previous_secret_until AS previousSecretUntil,
			failing_since AS failingSince
		FROM webhook_endpoint WHERE id IN (SELECT value FROM json_each(?))`,
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
