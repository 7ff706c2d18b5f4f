import { UpdateStream } from './stream'

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
 * Never a silent hole: a resume from before the oldest update kept, or from a number this server
 * never gave out (it restarted), gets `{"type": "resync", "userbot_id", "seq": S}` first, S being the
 * oldest it can still have, then everything from S. A connection that does not read has its queued
 * updates dropped by the outbox (replies never are): its subscription stops, it gets a `resync` with
 * the first number it missed, and it resumes by subscribing again with `after: S - 1`.
 */
export interface UpdateSink {
	/** Queues one update event (the outbox may drop it later and call `stalled`). */
	deliver(text: string, userbotId: number, seq: number): void
	/** Queues a message that is never dropped (a `resync`). */
	send(text: string): void
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
}

interface Subscription {
	kinds: ReadonlySet<string>
	/** The outbox dropped updates of it: nothing more is sent until it subscribes again. */
	stalled: boolean
}

export interface Subscribed {
	/** The last sequence number given out for the userbot so far (0: none). */
	lastSeq: number
	/** Sends what the client missed and starts live delivery: call it right after the reply. */
	start(): void
}

export type UpdateHub = ReturnType<typeof createUpdateHub>

const resyncText = (userbotId: number, seq: number) =>
	JSON.stringify({ type: 'resync', userbot_id: userbotId, seq })

export function createUpdateHub(opts: UpdateHubOptions) {
	const now = opts.now ?? Date.now
	const defaults: ReadonlySet<string> = new Set(opts.defaultKinds)
	const streams = new Map<number, UpdateStream>()
	const subscriptions = new Map<number, Map<UpdateSink, Subscription>>()
	const bySink = new Map<UpdateSink, Set<number>>()
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
		for (const subs of subscriptions.values())
			for (const s of subs.values()) for (const k of s.kinds) kinds.add(k)
		const list = [...kinds].sort()
		const key = list.join(',')
		if (key === announced) return
		announced = key
		opts.onKinds(list)
	}

	const remove = (sink: UpdateSink, userbotId: number): boolean => {
		const subs = subscriptions.get(userbotId)
		const had = subs?.delete(sink) ?? false
		if (subs?.size === 0) subscriptions.delete(userbotId)
		const ids = bySink.get(sink)
		ids?.delete(userbotId)
		if (ids?.size === 0) bySink.delete(sink)
		return had
	}

	announce()

	return {
		defaultKinds: opts.defaultKinds,

		/** An update from the supervisor: numbered, kept, delivered to who wants its kind. */
		publish(userbotId: number, update: { _: string }): void {
			const stream = streamOf(userbotId)
			const seq = ++stream.seq
			const text = JSON.stringify({ type: 'update', userbot_id: userbotId, seq, update })
			stream.add({ seq, at: now(), kind: update._, text })
			const subs = subscriptions.get(userbotId)
			if (!subs) return
			for (const [sink, sub] of subs)
				if (!sub.stalled && sub.kinds.has(update._)) sink.deliver(text, userbotId, seq)
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
					if (after !== undefined) {
						const at = now()
						const oldest = stream.oldest(at)
						// A number never given out comes from before a restart: all of it is unknown.
						const from = after > stream.seq ? oldest - 1 : after
						if (after > stream.seq || from + 1 < oldest) sink.send(resyncText(userbotId, oldest))
						for (const e of stream.after(Math.max(from, oldest - 1), at)) {
							if (wanted.has(e.kind)) sink.deliver(e.text, userbotId, e.seq)
						}
					}
					let subs = subscriptions.get(userbotId)
					if (!subs) {
						subs = new Map()
						subscriptions.set(userbotId, subs)
					}
					subs.set(sink, { kinds: wanted, stalled: false })
					let ids = bySink.get(sink)
					if (!ids) {
						ids = new Set()
						bySink.set(sink, ids)
					}
					ids.add(userbotId)
					announce()
				},
			}
		},

		/** Ends a subscription; false when there was none. */
		unsubscribe(sink: UpdateSink, userbotId: number): boolean {
			const had = remove(sink, userbotId)
			if (had) announce()
			return had
		},

		/** The outbox dropped this sink's updates of a userbot from `seq` on: stop, and say so. */
		stalled(sink: UpdateSink, userbotId: number, seq: number): void {
			const sub = subscriptions.get(userbotId)?.get(sink)
			if (!sub || sub.stalled) return
			sub.stalled = true
			sink.send(resyncText(userbotId, seq))
		},

		/** The connection closed: every subscription of it ends. */
		dropSink(sink: UpdateSink): void {
			const ids = bySink.get(sink)
			if (!ids) return
			for (const id of [...ids]) remove(sink, id)
			announce()
		},

		/** The userbot was deleted: its stream and subscriptions go. */
		forget(userbotId: number): void {
			streams.delete(userbotId)
			const subs = subscriptions.get(userbotId)
			if (!subs) return
			for (const sink of [...subs.keys()]) remove(sink, userbotId)
			announce()
		},

		/** Updates kept for a userbot now (tests, health). */
		kept(userbotId: number): number {
			return streams.get(userbotId)?.kept ?? 0
		},
	}
}
