import type { EventFilter } from './filter'

/** A connection, as the update hub writes to it (the gateway's socket). */
export interface UpdateSink {
	/** Queues one update event for the connection. */
	deliver(text: string): void
	/** Queues a message of the hub's own (a `resync`). */
	send(text: string): void
	/** Whether the connection takes more now (it reads, and its budget is not used up). */
	writable(): boolean
	/** Whether it stopped reading (Bun pushed back): its `drain` will call `pump`. */
	blocked(): boolean
}

/**
 * One subscription: a connection's place in one userbot's stream, the kinds it wants and the filter
 * they pass (none: all of them). What a filter drops moves the cursor on as a kind not wanted does:
 * a gap in `seq`, never a hole (docs/live-updates.md#filters).
 */
export interface Cursor {
	kinds: ReadonlySet<string>
	filter?: EventFilter
	/** The next sequence number to consider for this connection. */
	cursor: number
}

/**
 * Who reads which userbot's stream, and where: per connection its cursors by userbot, per userbot
 * the connections that have one. The two maps change together, here only.
 */
export interface Cursors {
	/** A connection's cursors by userbot. */
	of(sink: UpdateSink): ReadonlyMap<number, Cursor> | undefined
	get(sink: UpdateSink, userbotId: number): Cursor | undefined
	/** The connections subscribed to a userbot (live: copy it before removing). */
	sinks(userbotId: number): Iterable<UpdateSink>
	/** Sets (or replaces) the connection's cursor for the userbot. */
	set(sink: UpdateSink, userbotId: number, cursor: Cursor): void
	/** Removes one cursor; false when there was none. */
	remove(sink: UpdateSink, userbotId: number): boolean
	/** Every subscription's kinds. */
	kinds(): Iterable<ReadonlySet<string>>
	count(): number
}

export function createCursors(): Cursors {
	const bySink = new Map<UpdateSink, Map<number, Cursor>>()
	const byUserbot = new Map<number, Set<UpdateSink>>()
	return {
		of: (sink) => bySink.get(sink),
		get: (sink, userbotId) => bySink.get(sink)?.get(userbotId),
		sinks: (userbotId) => byUserbot.get(userbotId) ?? [],
		set(sink, userbotId, cursor) {
			let subs = bySink.get(sink)
			if (!subs) {
				subs = new Map()
				bySink.set(sink, subs)
			}
			subs.set(userbotId, cursor)
			let sinks = byUserbot.get(userbotId)
			if (!sinks) {
				sinks = new Set()
				byUserbot.set(userbotId, sinks)
			}
			sinks.add(sink)
		},
		remove(sink, userbotId) {
			const subs = bySink.get(sink)
			const had = subs?.delete(userbotId) ?? false
			if (subs?.size === 0) bySink.delete(sink)
			const sinks = byUserbot.get(userbotId)
			sinks?.delete(sink)
			if (sinks?.size === 0) byUserbot.delete(userbotId)
			return had
		},
		*kinds() {
			for (const subs of bySink.values()) for (const s of subs.values()) yield s.kinds
		},
		count() {
			let n = 0
			for (const subs of bySink.values()) n += subs.size
			return n
		},
	}
}
