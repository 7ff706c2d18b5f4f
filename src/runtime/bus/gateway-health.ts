import type { BusHealth } from '../supervisor/types'

/** What the periodic check needs of a gateway's runtime on the bus. */
export interface Reconcilable {
	/** Makes again the watchers and consumers that are down or stuck. */
	recheck(): Promise<void>
	/** Ownership against what the gateway knows (userbots moved, shards gone), as on a change of members. */
	reconcileOwners(): void
	/** `shard=incarnation` of each lease in the bucket whose holder is not the userbot's owner now. */
	leaseMismatches(): Iterable<string>
	connected(): boolean
	feed(): { up: boolean; pending: number; behindMs: number }
}

/** A feed behind the stream this long (or down) makes the gateway `degraded`. */
export const FEED_LAG_MS = 5_000

/**
 * A gateway's periodic reconciliation: not only when the members change, because a change can be
 * missed (a watcher that died with the server it watched) and a lease can outlive its holder. Every
 * few heartbeats it makes again what is down or stuck, compares ownership with what it knows, and
 * counts the leases that do not match the ownership: one seen at two checks in a row is a mismatch
 * (a hand-over in progress is not), reported by `/health` while it lasts.
 */
export class GatewayReconcile {
	private timer?: ReturnType<typeof setInterval>
	private previous = new Set<string>()
	private mismatches = 0
	private running = false

	constructor(
		private readonly target: Reconcilable,
		heartbeatMs: number,
		readonly everyMs = Math.max(500, 3 * heartbeatMs),
	) {}

	start(): void {
		this.timer = setInterval(() => void this.tick(), this.everyMs)
	}

	async tick(): Promise<void> {
		if (this.running) return
		this.running = true
		try {
			await this.target.recheck()
			this.target.reconcileOwners()
			const now = new Set(this.target.leaseMismatches())
			this.mismatches = [...now].filter((k) => this.previous.has(k)).length
			this.previous = now
		} finally {
			this.running = false
		}
	}

	health(): BusHealth {
		const feed = this.target.feed()
		const connected = this.target.connected()
		const lagging = !feed.up || feed.behindMs > FEED_LAG_MS
		return {
			connected,
			feed: { up: feed.up, pending: feed.pending, behind_ms: feed.behindMs },
			lease_mismatches: this.mismatches,
			degraded: !connected || lagging || this.mismatches > 0,
		}
	}

	stop(): void {
		clearInterval(this.timer)
	}
}
