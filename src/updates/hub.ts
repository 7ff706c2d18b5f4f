import { resyncText, updateText } from '../wire/envelope'
import { type StreamEntry, UpdateStream } from './stream'

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
 */
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

interface Subscription {
	kinds: ReadonlySet<string>
	/** The next sequence number to consider for this connection. */
	cursor: number
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
	const later = opts.later ?? ((fn: () => void) => setImmediate(fn))
	const defaults: ReadonlySet<string> = new Set(opts.defaultKinds)
	const streams = new Map<number, UpdateStream>()
	/** Per connection, its subscriptions by userbot. */
	const bySink = new Map<UpdateSink, Map<number, Subscription>>()
	/** Per userbot, the connections subscribed to it. */
	const byUserbot = new Map<number, Set<UpdateSink>>()
	const scheduled = new Set<UpdateSink>()
	const observers = new Set<(event: ObservedEvent) => void>()
	/** Kinds an observer wants forwarded beyond the subscriptions', by observer. */
	const wanted = new Map<object, readonly string[]>()
	let announced = ''

	const streamOf = (userbotId: number) => {
		let stream = streams.get(userbotId)
		if (!stream) {
			stream = new UpdateStream(opts.size, opts.ageMs)
			streams.set(userbotId, stream)
		}
		return stream
	}

	/** Tells the supervisor the kinds wanted now, when they changed. */
	const announce = () => {
		const kinds = new Set(defaults)
		for (const list of wanted.values()) for (const k of list) kinds.add(k)
		for (const subs of bySink.values()) for (const s of subs.values()) for (const k of s.kinds) kinds.add(k)
		const list = [...kinds].sort()
		const key = list.join(',')
		if (key === announced) return
		announced = key
		opts.onKinds(list)
	}

	/**
	 * Sends a connection what its cursors have not reached, while it takes more. True when something
	 * is left because its budget ran out (not because it stopped reading): then another turn goes on.
	 */
	const pumpOnce = (sink: UpdateSink): boolean => {
		const subs = bySink.get(sink)
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
				if (entry && sub.kinds.has(entry.kind)) sink.deliver(entry.text)
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

	const remove = (sink: UpdateSink, userbotId: number): boolean => {
		const subs = bySink.get(sink)
		const had = subs?.delete(userbotId) ?? false
		if (subs?.size === 0) bySink.delete(sink)
		const sinks = byUserbot.get(userbotId)
		sinks?.delete(sink)
		if (sinks?.size === 0) byUserbot.delete(userbotId)
		return had
	}

	announce()

	return {
		/** Subscriptions open now, over every connection (the metrics' gauge). */
		subscriptionCount(): number {
			let n = 0
			for (const subs of bySink.values()) n += subs.size
			return n
		},
		defaultKinds: opts.defaultKinds,

		/**
		 * An update from the supervisor: numbered, kept, sent to who wants its kind and reads. With the
		 * bus, `seq` is the number the shard gave it: one past the last seen is the usual case; further
		 * on, what lies between was lost to this gateway (its stream starts again there, and cursors
		 * behind it get `resync`); at or below the last, the numbering started again (nothing was
		 * retained for the userbot): every cursor is sent back to `resync`.
		 */
		publish(userbotId: number, update: { _: string }, given?: number): void {
			const stream = streamOf(userbotId)
			if (given !== undefined && given !== stream.seq + 1) {
				const restarted = given <= stream.seq
				stream.restartAt(given - 1)
				if (restarted)
					for (const sink of byUserbot.get(userbotId) ?? []) {
						const sub = bySink.get(sink)?.get(userbotId)
						if (sub) sub.cursor = 0
					}
			}
			const seq = ++stream.seq
			const text = updateText(userbotId, seq, update)
			stream.add({ seq, at: now(), kind: update._, text })
			for (const fn of observers) fn({ userbotId, seq, kind: update._, data: update, live: true })
			const sinks = byUserbot.get(userbotId)
			if (!sinks) return
			for (const sink of sinks) {
				const sub = bySink.get(sink)?.get(userbotId)
				if (!sub) continue
				// The hot path: a connection that is caught up and reads gets it at once.
				if (sub.cursor === seq && sink.writable()) {
					sub.cursor++
					if (sub.kinds.has(update._)) sink.deliver(text)
				} else schedule(sink)
			}
		},

		/**
		 * Subscribes `sink` to a userbot's updates of `kinds` (default: the default kinds), replacing a
		 * subscription it had. With `after`, what came after that number is sent first.
		 */
		subscribe(
			sink: UpdateSink,
			userbotId: number,
			kinds: readonly string[] | undefined,
			after?: number,
		): Subscribed {
			const stream = streamOf(userbotId)
			const wanted: ReadonlySet<string> = kinds ? new Set(kinds) : defaults
			const lastSeq = stream.seq
			return {
				lastSeq,
				start() {
					// A number never given out comes from before a restart: everything is unknown to it.
					const ahead = after !== undefined && after > stream.seq
					const cursor = after === undefined ? stream.seq + 1 : ahead && !opts.lastSeqOf ? 0 : after + 1
					let subs = bySink.get(sink)
					if (!subs) {
						subs = new Map()
						bySink.set(sink, subs)
					}
					subs.set(userbotId, { kinds: wanted, cursor })
					let sinks = byUserbot.get(userbotId)
					if (!sinks) {
						sinks = new Set()
						byUserbot.set(userbotId, sinks)
					}
					sinks.add(sink)
					announce()
					pump(sink)
					if (ahead && opts.lastSeqOf) {
						const sub = subs.get(userbotId)
						void opts.lastSeqOf(userbotId).then(
							(last) => {
								// Never given out: resync, as without the bus. Given out: it is on its way here.
								if (last < (after as number) && subs.get(userbotId) === sub && sub) {
									sub.cursor = 0
									pump(sink)
								}
							},
							() => undefined,
						)
					}
				},
			}
		},

		/** Ends a subscription; false when there was none. */
		unsubscribe(sink: UpdateSink, userbotId: number): boolean {
			const had = remove(sink, userbotId)
			if (had) announce()
			return had
		},

		/** The connection can take more again (its `drain`). */
		pump(sink: UpdateSink): void {
			if (bySink.has(sink)) pump(sink)
		},

		/** The connection closed: every subscription of it ends. */
		dropSink(sink: UpdateSink): void {
			const subs = bySink.get(sink)
			if (!subs) return
			for (const id of [...subs.keys()]) remove(sink, id)
			scheduled.delete(sink)
			announce()
		},

		/** The userbot was deleted: its stream and subscriptions go. */
		forget(userbotId: number): void {
			streams.delete(userbotId)
			const sinks = byUserbot.get(userbotId)
			if (!sinks) return
			for (const sink of [...sinks]) remove(sink, userbotId)
			announce()
		},

		/**
		 * The userbot's account logged out (issue 24): what was kept of it goes, the numbers go on, so a
		 * resume from before gets `resync` and never the old account's chats; subscriptions stay.
		 */
		clear(userbotId: number): void {
			const stream = streams.get(userbotId)
			stream?.restartAt(stream.seq)
		},

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

		/** TDLib update kinds `owner` wants forwarded whether or not a connection subscribes to them. */
		want(owner: object, kinds: readonly string[]): void {
			if (kinds.length === 0) wanted.delete(owner)
			else wanted.set(owner, kinds)
			announce()
		},

		/** Updates kept for a userbot now (tests, health). */
		kept(userbotId: number): number {
			return streams.get(userbotId)?.kept ?? 0
		},
	}
}
