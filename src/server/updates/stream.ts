import type { EventFacets } from './event-facets'

/**
 * One userbot's updates: numbered from 1 in the order they came, the last ones kept for clients that
 * come back (at most `size` of them, none older than `ageMs`). Each is kept serialized once, as it
 * goes on the wire.
 */
export interface StreamEntry {
	seq: number
	/** When it came (ms, the hub's clock). */
	at: number
	/** The TDLib update's `_`. */
	kind: string
	/** `{"type": "update", "userbot_id", "seq", "update"}`, serialized. */
	text: string
	/** What a subscription's filter looks at (event-facets.ts), read once when it came. */
	facets: EventFacets
}

export class UpdateStream {
	/** The last sequence number given out (0: none yet). */
	seq = 0
	private entries: StreamEntry[] = []
	private head = 0

	constructor(
		private readonly size: number,
		private readonly ageMs: number,
	) {}

	add(entry: Omit<StreamEntry, 'seq'> & { seq: number }): void {
		this.entries.push(entry)
		this.evict(entry.at)
	}

	/** Drops what is past the count or the age; compacts now and then, never on every add. */
	evict(now: number): void {
		const live = () => this.entries.length - this.head
		while (live() > this.size) this.head++
		while (this.head < this.entries.length && now - this.entries[this.head]!.at > this.ageMs) this.head++
		if (this.head > 1024 && this.head * 2 > this.entries.length) {
			this.entries = this.entries.slice(this.head)
			this.head = 0
		}
	}

	/** The oldest sequence number still kept, or the next one when nothing is kept. */
	oldest(now: number): number {
		this.evict(now)
		return this.head < this.entries.length ? this.entries[this.head]!.seq : this.seq + 1
	}

	/** The kept entry numbered `seq`, if it is kept (numbers are contiguous). */
	at(seq: number): StreamEntry | undefined {
		const first = this.entries[this.head]
		if (!first) return undefined
		const e = this.entries[this.head + (seq - first.seq)]
		return e?.seq === seq ? e : undefined
	}

	/** Kept entries after `seq`, in order. */
	after(seq: number, now: number): StreamEntry[] {
		this.evict(now)
		const out: StreamEntry[] = []
		for (let i = this.head; i < this.entries.length; i++) {
			const e = this.entries[i]!
			if (e.seq > seq) out.push(e)
		}
		return out
	}

	/** Forgets every entry kept: the next number given out is `seq + 1`. */
	restartAt(seq: number): void {
		this.entries = []
		this.head = 0
		this.seq = seq
	}

	get kept(): number {
		return this.entries.length - this.head
	}
}
