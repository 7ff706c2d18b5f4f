import { updateText } from '../../common/wire/envelope'
import { mayHoldServerPaths, withoutServerPaths } from '../../common/wire/server-paths'
import { type Cursors, createCursors, type UpdateSink } from './cursors'
import { facetsOf } from './event-facets'
import { createFanOut, type FanOut } from './fan-out'
import type { EventFilter } from './filter'
import { createKinds } from './kinds'
import { createUpdateListeners, type ListenersEnd, type UpdateListener } from './listeners'
import { renumber, resume } from './resume'
import { UpdateStream } from './stream'

export type { UpdateSink } from './cursors'

/**
 * Live updates: what happens in a userbot's Telegram account, as TDLib reports it, to the clients
 * that subscribed on the command channel.
 *
 * Every update the supervisor forwards is numbered per userbot (`seq`, from 1) and kept in that
 * userbot's stream (the last `size`, none older than `ageMs`) whether or not anyone is connected:
 * that is what lets a client that comes back resume from the last number it saw. A subscription
 * names the kinds it wants (default: `defaultKinds`, which are always forwarded and kept); a kind
 * beyond those is forwarded only while someone subscribes to it (`onKinds` tells the supervisor).
 *
 * The stream is the only buffer. A subscription is a cursor into it: updates go out while the
 * connection takes them (`sink.writable()`: it reads, and no more than its budget waits for it), and
 * wait in the stream while it does not; `pump` goes on when it drains. A connection that does not
 * read costs nothing but its cursor. Never a silent hole: when a cursor falls behind the oldest
 * update kept (the client read too slowly, or resumes from too long ago, or from a number this
 * server never gave out because it restarted), the client gets `{"type": "resync", "userbot_id",
 * "seq": S}`, S the oldest it can still have, and everything from S on.
 *
 * Its parts: the cursors of every subscription (cursors.ts), sending the stream to its readers
 * (fan-out.ts), where a subscription starts and what a number from elsewhere does (resume.ts), the
 * kinds the supervisor forwards (kinds.ts), the commands that wait for updates (listeners.ts); this
 * file numbers and keeps updates and hands events to observers.
 */
export interface UpdateHubOptions {
	/** Updates kept per userbot. */
	size: number
	/** How long an update is kept, in ms. */
	ageMs: number
	/** Kinds always forwarded and kept, and what a subscription without `updates` gets. */
	defaultKinds: readonly string[]
	/** The union of wanted kinds changed: the supervisor should forward these. */
	onKinds(kinds: readonly string[]): void
	now?: () => number
	/** Runs `fn` on a later turn of the event loop (tests may run it at once). */
	later?: (fn: () => void) => void
	/**
	 * With the bus, numbers are given by the shard that runs the userbot and this gateway learns them
	 * a moment later. A client resuming from a number not seen here yet may have seen it on another
	 * gateway: this says the last number given out for the userbot, so that a number really given
	 * out is waited for and one never given out gets `resync`.
	 */
	lastSeqOf?: (userbotId: number) => Promise<number>
}

export interface Subscribed {
	/** The last sequence number given out for the userbot so far (0: none). */
	lastSeq: number
	/** Sends what the client missed and starts live delivery: call it right after the reply. */
	start(): void
}

export type UpdateHub = ReturnType<typeof createUpdateHub>

/**
 * One event of a userbot as an observer (the webhooks plugin) sees it: every update the hub numbers
 * (`live`, whatever its kind, account status events too), and the events beside the stream that
 * `emit` hands over (`command.result`, `userbot.state`), which carry the last number given out.
 */
export interface ObservedEvent {
	userbotId: number
	seq: number
	kind: string
	data: Record<string, unknown>
	live: boolean
}

export function createUpdateHub(opts: UpdateHubOptions) {
	const now = opts.now ?? Date.now
	const defaults: ReadonlySet<string> = new Set(opts.defaultKinds)
	const streams = new Map<number, UpdateStream>()
	const streamOf = (userbotId: number) => streamIn(streams, userbotId, opts)
	const observers = new Set<(event: ObservedEvent) => void>()
	const cursors = createCursors()
	const listeners = createUpdateListeners()
	const later = opts.later ?? ((fn: () => void) => setImmediate(fn))
	const fanOut = createFanOut({ cursors, streamOf, now, later })
	const kinds = createKinds(defaults, () => cursors.kinds(), opts.onKinds)
	kinds.announce()

	return {
		...connections({
			cursors,
			fanOut,
			announce: kinds.announce,
			defaults,
			streamOf,
			lastSeqOf: opts.lastSeqOf,
		}),
		defaultKinds: opts.defaultKinds,

		/**
		 * An update from the supervisor: numbered, kept, sent to who wants its kind and reads. With the
		 * bus, `given` is the number the shard gave it (`renumber` in resume.ts: what a gap or a restart does).
		 */
		publish(userbotId: number, raw: { _: string }, given?: number): void {
			const stream = streamOf(userbotId)
			renumber(cursors, userbotId, stream, given)
			const seq = ++stream.seq
			const { update, entry } = keptEntry(userbotId, seq, raw, now())
			stream.add(entry)
			for (const fn of observers) fn({ userbotId, seq, kind: update._, data: update, live: true })
			listeners.deliver(userbotId, update)
			fanOut.live(userbotId, entry)
		},

		/** The userbot was deleted: its stream, subscriptions and commands' listeners go. */
		forget(userbotId: number): void {
			streams.delete(userbotId)
			listeners.end(userbotId, 'deleted')
			const sinks = [...cursors.sinks(userbotId)]
			if (sinks.length === 0) return
			for (const sink of sinks) cursors.remove(sink, userbotId)
			kinds.announce()
		},

		/**
		 * The userbot's account logged out (issue 24): what was kept of it goes, the numbers go on, so a
		 * resume from before gets `resync` and never the old account's chats; subscriptions stay.
		 */
		clear(userbotId: number): void {
			const stream = streams.get(userbotId)
			stream?.restartAt(stream.seq)
		},

		...commandListeners(listeners),
		...observing(observers, streams),
		/** TDLib update kinds `owner` wants forwarded whether or not a connection subscribes to them. */
		want: kinds.want,

		/** Updates kept for a userbot now (tests, health). */
		kept(userbotId: number): number {
			return streams.get(userbotId)?.kept ?? 0
		},
	}
}

/** Commands' listeners of a userbot's updates (listeners.ts), as the hub offers them. */
function commandListeners(listeners: ReturnType<typeof createUpdateListeners>) {
	return {
		/**
		 * A command's listener of one userbot's updates of some kinds (listeners.ts): from now until the
		 * returned function is called, or the userbot goes away (`ended`).
		 */
		listen(userbotId: number, listener: UpdateListener): () => void {
			return listeners.add(userbotId, listener)
		},

		/** The userbot is being deleted, its account logged out or its client stopped: its commands' listeners end. */
		end(userbotId: number, why: ListenersEnd): void {
			listeners.end(userbotId, why)
		},

		/** Commands listening to the userbot's updates now (or to any userbot's): tests, health. */
		listening(userbotId?: number): number {
			return listeners.count(userbotId)
		},
	}
}

/** The observers of every event (the webhooks plugin, MCP's subscriptions), as the hub offers them. */
function observing(
	observers: Set<(event: ObservedEvent) => void>,
	streams: ReadonlyMap<number, UpdateStream>,
) {
	return {
		/** Calls `fn` with every event of every userbot from now on; the returned function stops it. */
		observe(fn: (event: ObservedEvent) => void): () => void {
			observers.add(fn)
			return () => observers.delete(fn)
		},

		/** An event beside the stream (not numbered, not sent to subscriptions): to observers only. */
		emit(userbotId: number, kind: string, data: Record<string, unknown>): void {
			if (observers.size === 0) return
			const seq = streams.get(userbotId)?.seq ?? 0
			for (const fn of observers) fn({ userbotId, seq, kind, data, live: false })
		},
	}
}

/** An update as its stream keeps it: its frame's text, its facets; no path of the server's disk. */
function keptEntry(userbotId: number, seq: number, raw: { _: string }, at: number) {
	let update = raw
	let text = updateText(userbotId, seq, update)
	// No path of the server's disk leaves: not to a socket, not to an observer (webhooks).
	if (mayHoldServerPaths(text)) {
		update = withoutServerPaths(raw)
		text = updateText(userbotId, seq, update)
	}
	return { update, entry: { seq, at, kind: update._, text, facets: facetsOf(update) } }
}

/** The userbot's stream, made on first use. */
function streamIn(
	streams: Map<number, UpdateStream>,
	userbotId: number,
	opts: UpdateHubOptions,
): UpdateStream {
	let stream = streams.get(userbotId)
	if (!stream) {
		stream = new UpdateStream(opts.size, opts.ageMs)
		streams.set(userbotId, stream)
	}
	return stream
}

/** What the gateway's connections do with the hub: subscribe, unsubscribe, read on, go. */
function connections(parts: {
	cursors: Cursors
	fanOut: FanOut
	/** The kinds subscribed to may have changed. */
	announce(): void
	defaults: ReadonlySet<string>
	streamOf(userbotId: number): UpdateStream
	lastSeqOf?: (userbotId: number) => Promise<number>
}) {
	const { cursors, fanOut, announce, defaults, streamOf } = parts
	return {
		/** Subscriptions open now, over every connection (the metrics' gauge). */
		subscriptionCount: (): number => cursors.count(),
		/**
		 * Subscribes `sink` to a userbot's updates of `kinds` (default: the default kinds), replacing a
		 * subscription it had. With `after`, what came after that number is sent first. With `filter`
		 * (filter.ts), only the updates it passes go out.
		 */
		subscribe(
			sink: UpdateSink,
			userbotId: number,
			kinds: readonly string[] | undefined,
			after?: number,
			filter?: EventFilter,
		): Subscribed {
			const stream = streamOf(userbotId)
			const wanted: ReadonlySet<string> = kinds ? new Set(kinds) : defaults
			return {
				lastSeq: stream.seq,
				start: () => resume(parts, sink, userbotId, stream, wanted, after, filter),
			}
		},

		/** Ends a subscription; false when there was none. */
		unsubscribe(sink: UpdateSink, userbotId: number): boolean {
			const had = cursors.remove(sink, userbotId)
			if (had) announce()
			return had
		},

		/** The connection can take more again (its `drain`). */
		pump(sink: UpdateSink): void {
			if (cursors.of(sink)) fanOut.pump(sink)
		},

		/** The connection closed: every subscription of it ends. */
		dropSink(sink: UpdateSink): void {
			const subs = cursors.of(sink)
			if (!subs) return
			for (const id of [...subs.keys()]) cursors.remove(sink, id)
			fanOut.drop(sink)
			announce()
		},
	}
}
