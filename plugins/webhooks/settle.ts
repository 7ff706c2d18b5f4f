import type { Settled, WebhookStore } from './store'

/**
 * How long the first outcome of a batch waits for others, in ms. A delivered event's lane does not
 * wait for it (lanes.ts); a failed one's does, before its retry is due anyway. 25 ms rather than 5:
 * a statement of 30 outcomes cost about twice as much per outcome as one of 150.
 */
const WINDOW_MS = 25
/** Outcomes written at once at most; a full batch goes without waiting for the window. */
const MAX_BATCH = 500

/** Outcomes written together, and the ids the write found still leased to this process. */
interface Batch {
	items: Settled[]
	written: Promise<ReadonlySet<number>>
	resolve(ids: ReadonlySet<number>): void
	reject(err: unknown): void
}

function newBatch(): Batch {
	let resolve: (ids: ReadonlySet<number>) => void = () => {}
	let reject: (err: unknown) => void = () => {}
	const written = new Promise<ReadonlySet<number>>((res, rej) => {
		resolve = res
		reject = rej
	})
	// Each caller handles the failure it is given; the batch itself does not count as unhandled.
	written.catch(() => undefined)
	return { items: [], written, resolve, reject }
}

/**
 * Group commit of attempts' outcomes. Every delivery's outcome must be written, but one write per
 * delivery made the database, not the receiver, the limit (the embedded driver is synchronous: each
 * write holds the event loop the sends need, so writes never fall behind far enough to batch by
 * themselves). The outcomes of a few ms go together, as one statement; each caller learns whether
 * its own was written (false: the lease was lost to another gateway). A delivered event's sender
 * does not wait for the write (deliver.ts), so the window costs throughput nothing. The outcomes of
 * one batch share one promise (a promise and two callbacks per delivery cost more than the
 * statement's share).
 */
export class SettleQueue {
	/** Batches not yet written, oldest first; the last one takes new outcomes until it is full. */
	private readonly batches: Batch[] = []
	private writing: Promise<void> | null = null
	private wake: (() => void) | null = null

	constructor(
		private readonly store: WebhookStore,
		private readonly owner: string,
	) {}

	/**
	 * Queues the outcome; resolves, once its batch is written, with the ids of that batch that were
	 * written (an id missing: its lease is gone).
	 */
	add(item: Settled): Promise<ReadonlySet<number>> {
		let batch = this.batches.at(-1)
		if (batch === undefined || batch.items.length >= MAX_BATCH) {
			batch = newBatch()
			this.batches.push(batch)
		}
		batch.items.push(item)
		if (this.writing === null) this.writing = this.drain()
		else if (batch.items.length >= MAX_BATCH) this.wake?.()
		return batch.written
	}

	/** Resolves once the outcome is written (true) or refused because the lease is gone (false). */
	settle(item: Settled): Promise<boolean> {
		return this.add(item).then((written) => written.has(item.id))
	}

	private async drain(): Promise<void> {
		while (this.batches.length > 0) {
			if ((this.batches[0] as Batch).items.length < MAX_BATCH) await this.window()
			const batch = this.batches.shift() as Batch
			try {
				batch.resolve(await this.store.settleMany(this.owner, batch.items))
			} catch (err) {
				batch.reject(err)
			}
		}
		this.writing = null
	}

	/** Waits WINDOW_MS, or less when a batch fills up. */
	private window(): Promise<void> {
		return new Promise<void>((resolve) => {
			const timer = setTimeout(() => this.wake?.(), WINDOW_MS)
			this.wake = () => {
				clearTimeout(timer)
				this.wake = null
				resolve()
			}
		})
	}
}
