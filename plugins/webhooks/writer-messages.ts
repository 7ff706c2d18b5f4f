import type { EndpointRow } from './claim'

/** What the main thread (writer.ts) and the outbox's writer thread (writer-thread.ts) say to each other. */

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
