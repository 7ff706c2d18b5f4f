import { resyncText } from '../../common/wire/envelope'
import type { Cursor, Cursors, UpdateSink } from './cursors'
import { passes } from './event-facets'
import type { StreamEntry, UpdateStream } from './stream'

/**
 * Sending the stream to its readers: a new update goes at once to a connection that is caught up
 * and reads; any other connection is pumped from its cursors, in turns, while it takes more. The
 * stream is the only buffer: a connection that does not read costs nothing but its cursors.
 */
export interface FanOut {
	/** The update `entry` was just kept: readers get it now, or on their next pump. */
	live(userbotId: number, entry: StreamEntry): void
	/** Sends the connection what its cursors have not reached, while it takes more. */
	pump(sink: UpdateSink): void
	/** The connection is gone: no turn is pending for it. */
	drop(sink: UpdateSink): void
}

export function createFanOut(parts: {
	cursors: Cursors
	streamOf(userbotId: number): UpdateStream
	now: () => number
	later: (fn: () => void) => void
}): FanOut {
	const { cursors, streamOf, now, later } = parts
	const scheduled = new Set<UpdateSink>()

	/**
	 * True when something is left because its budget ran out (not because it stopped reading): then
	 * another turn goes on.
	 */
	const pumpOnce = (sink: UpdateSink): boolean => {
		const subs = cursors.of(sink)
		if (!subs) return false
		const at = now()
		for (const [userbotId, sub] of subs) {
			const stream = streamOf(userbotId)
			if (sub.cursor > stream.seq) continue
			if (!sink.writable()) return true
			// Told once, when it can take the rest: not while it lags, which would tell it again and again.
			const oldest = stream.oldest(at)
			if (sub.cursor < oldest) {
				sink.send(resyncText(userbotId, oldest))
				sub.cursor = oldest
			}
			while (sub.cursor <= stream.seq) {
				if (!sink.writable()) return true
				const entry: StreamEntry | undefined = stream.at(sub.cursor)
				sub.cursor++
				if (entry && wants(sub, entry)) sink.deliver(entry.text)
			}
		}
		return false
	}

	const pump = (sink: UpdateSink) => {
		scheduled.delete(sink)
		// Something is left. Out of budget while it reads: the outbox writes this turn's batch, the
		// next turn goes on. Not reading: its `drain` calls `pump` again.
		if (pumpOnce(sink) && !sink.blocked()) schedule(sink)
	}
	const schedule = (sink: UpdateSink) => {
		if (scheduled.has(sink)) return
		scheduled.add(sink)
		later(() => pump(sink))
	}

	return {
		live(userbotId, entry) {
			const seq = entry.seq
			for (const sink of cursors.sinks(userbotId)) {
				const sub = cursors.get(sink, userbotId)
				if (!sub) continue
				// The hot path: a connection that is caught up and reads gets it at once.
				if (sub.cursor === seq && sink.writable()) {
					sub.cursor++
					if (wants(sub, entry)) sink.deliver(entry.text)
				} else schedule(sink)
			}
		},
		pump,
		drop(sink) {
			scheduled.delete(sink)
		},
	}
}

/** Whether the subscription takes the entry: its kind, through its filter. */
const wants = (sub: Cursor, entry: StreamEntry) =>
	sub.kinds.has(entry.kind) && passes(sub.filter, entry.facets)
