import type { Cursor, Cursors, UpdateSink } from './cursors'
import type { FanOut } from './fan-out'
import type { EventFilter } from './filter'
import type { UpdateStream } from './stream'

/**
 * Resuming: where a subscription's cursor starts in the userbot's stream, and what a number from
 * elsewhere (a client's `after`, a shard's `seq`) does to the cursors. Never a silent hole: a cursor
 * behind what is kept, or past what was given out, gets `resync` (fan-out.ts sends it).
 */

export interface ResumeParts {
	cursors: Cursors
	fanOut: FanOut
	announce(): void
	/** The last number given out for a userbot, over the bus (see `UpdateHubOptions.lastSeqOf`). */
	lastSeqOf?: (userbotId: number) => Promise<number>
}

/**
 * Starts `sink`'s subscription at `after + 1` (the next update without `after`) and sends what it
 * missed. With a filter, `after` is the last number the client saw, which may lie well behind the
 * last one given out (the filter dropped what came since): the cursor starts there all the same, and
 * only one behind what is kept gets `resync`, as without a filter.
 */
export function resume(
	parts: ResumeParts,
	sink: UpdateSink,
	userbotId: number,
	stream: UpdateStream,
	kinds: ReadonlySet<string>,
	after: number | undefined,
	filter?: EventFilter,
): void {
	const { cursors, fanOut, lastSeqOf } = parts
	// A number never given out comes from before a restart: everything is unknown to it.
	const ahead = after !== undefined && after > stream.seq
	const cursor = after === undefined ? stream.seq + 1 : ahead && !lastSeqOf ? 0 : after + 1
	const sub: Cursor = filter ? { kinds, filter, cursor } : { kinds, cursor }
	cursors.set(sink, userbotId, sub)
	parts.announce()
	fanOut.pump(sink)
	if (!ahead || !lastSeqOf) return
	void lastSeqOf(userbotId).then(
		(last) => {
			// Never given out: resync, as without the bus. Given out: it is on its way here.
			if (last < (after as number) && cursors.get(sink, userbotId) === sub) {
				sub.cursor = 0
				fanOut.pump(sink)
			}
		},
		() => undefined,
	)
}

/**
 * With the bus, `given` is the number the shard gave the update: one past the last seen is the
 * usual case; further on, what lies between was lost to this gateway (its stream starts again
 * there, and cursors behind it get `resync`); at or below the last, the numbering started again
 * (nothing was retained for the userbot): every cursor is sent back to `resync`.
 */
export function renumber(
	cursors: Cursors,
	userbotId: number,
	stream: UpdateStream,
	given: number | undefined,
): void {
	if (given === undefined || given === stream.seq + 1) return
	const restarted = given <= stream.seq
	stream.restartAt(given - 1)
	if (!restarted) return
	for (const sink of cursors.sinks(userbotId)) {
		const sub = cursors.get(sink, userbotId)
		if (sub) sub.cursor = 0
	}
}
