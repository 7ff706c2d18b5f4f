import type { Settled, WebhookStore } from './store'

/**
 * How long the first outcome of a batch waits for others, in ms. A delivered event's lane does not
 * wait for it (lanes.ts); a failed one's does, before its retry is due anyway. 25 ms rather than 5:
 * a statement of 30 outcomes cost about twice as much per outcome as one of 150.
 */
const WINDOW_MS = 25
/** Outcomes written at once at most; a full batch goes without waiting for the window. */
const MAX_BATCH = 500

/**
 * Group commit of attempts' outcomes. Every delivery's outcome must be written, but one write per
 * delivery made the database, not the receiver, the limit (the embedded driver is synchronous: each
 * write holds the event loop the sends need, so writes never fall behind far enough to batch by
 * themselves). The outcomes of a few ms go together, as one statement; each caller learns whether
 * its own was written (false: the lease was lost to another gateway). A delivered event's sender
 * does not wait for the write (deliver.ts), so the window costs throughput nothing.
 */
export class SettleQueue {
	private waiting: Array<{ item: Settled; done: (written: boolean) => void; fail: (err: unknown) => void }> =
		[]
	private writing: Promise<void> | null = null
	private wake: (() => void) | null = null

	constructor(
		private readonly store: WebhookStore,
		private readonly owner: string,
	) {}

	/** Resolves once the outcome is written (true) or refused because the lease is gone (false). */
	settle(item: Settled): Promise<boolean> {
		return new Promise<boolean>((done, fail) => {
			this.waiting.push({ item, done, fail })
			if (this.writing === null) this.writing = this.drain()
			else if (this.waiting.length >= MAX_BATCH) this.wake?.()
		})
	}

	private async drain(): Promise<void> {
		while (this.waiting.length > 0) {
			if (this.waiting.length < MAX_BATCH) await this.window()
			const batch = this.waiting.splice(0, MAX_BATCH)
			try {
				const written = await this.store.settleMany(
					this.owner,
					batch.map((b) => b.item),
				)
				for (const b of batch) b.done(written.has(b.item.id))
			} catch (err) {
				for (const b of batch) b.fail(err)
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
